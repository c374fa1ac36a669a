import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler read` when the output is not a terminal, and its usage errors.
@Suite struct ReadCommandTests {
    @Test func notATerminalPrintsTheTextOnceWithHiddenWordsMasked() throws {
        let r = try runSpoiler(
            ["read"], input: "first line\nthe butler ||did it|| in the library\n",
            environment: ["TERM": "xterm-256color", "COLUMNS": "80"])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.stdout.contains(0x1B))
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "first line")
        #expect(lines.count >= 2 && lines[1].hasPrefix("the butler ") && lines[1].hasSuffix(" in the library"))
        #expect(!r.out.contains("did") && !r.out.contains(" it "))
    }

    @Test func theInputCanBeMarkdownAndTheTextWrapsToColumns() throws {
        let r = try runSpoiler(
            ["read", "--from", "markdown"], input: "# Title\n\nsome *words* that go on and on ||hidden||\n",
            environment: ["COLUMNS": "20"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("Title"))
        #expect(!r.out.contains("hidden") && !r.out.contains("*"))
        for line in r.out.split(separator: "\n") { #expect(line.count <= 20, "\(line)") }
    }

    @Test func controlCharactersStayInert() throws {
        let r = try runSpoiler(["read"], input: "a\u{1B}]52;c;aGk=\u{07} b\u{1B}[2J ||secret||\n")
        #expect(r.status == 0)
        #expect(!r.stdout.contains(0x1B) && !r.stdout.contains(0x07))
        #expect(r.out.hasPrefix("a␛]52;c;aGk=␇ b␛[2J "))
        #expect(!r.out.contains("secret"))
    }

    @Test(arguments: [
        (
            ["read", "--theme", "purple"],
            "unknown value 'purple' for '--theme' (expected one of: amber, green, mono, none)"
        ),
        (["read", "--from", "jsn"], "unknown value 'jsn' for '--from'"),
        (["read", "a.txt", "b.txt"], "unexpected argument 'b.txt'"),
        (["read", "--fps", "0"], "'--fps' needs a whole number from 1 to 240"),
        (["read", "--thme", "green"], "did you mean '--theme'?"),
    ])
    func usageErrorsExitTwoWithAReason(arguments: [String], reason: String) throws {
        let r = try runSpoiler(arguments, input: "x\n")
        #expect(r.status == 2)
        #expect(r.err.contains(reason), "\(r.err)")
        #expect(r.err.contains("see 'spoiler read --help'"))
    }

    @Test func aMissingFileFailsWithItsName() throws {
        let r = try runSpoiler(["read", "/nonexistent/notes.md"])
        #expect(r.status == 1)
        #expect(r.err == "error: /nonexistent/notes.md: cannot open: No such file or directory\n")
    }

    @Test func helpListsTheKeysAndThemes() throws {
        let r = try runSpoiler(["read", "--help"])
        #expect(r.status == 0)
        for word in ["--theme T", "green", "amber", "mono", "g, click on ↑", "PgDn", "Home, End"] {
            #expect(r.out.contains(word), "\(word)")
        }
        let top = try runSpoiler(["--help"])
        #expect(top.out.contains("read      read a document"))
    }
}

/// `spoiler read --from export`: a Telegram Desktop export as a chat log.
@Suite struct ReadChatLogTests {
    static let sample = packageRoot.appendingPathComponent("Fixtures/export/telegram-export-result.json").path

    @Test func anExportReadsAsAChatLogWithSendersAndDates() throws {
        let r = try runSpoiler(
            ["read", "--from", "export", "--glyphs", "ascii", ReadChatLogTests.sample], environment: ["COLUMNS": "60"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "Ana · 2026-11-01 19:01")
        #expect(lines.dropFirst().first == "Just finished it. No spoilers please!")
        #expect(lines.contains("Bo · 2026-11-01 19:02"))
        // The service message without text is left out; the spoilers stay hidden.
        #expect(!r.out.contains("create_group"))
        #expect(!r.out.contains("the butler") && !r.out.contains("сон"))
        #expect(r.out.contains("and nobody saw it\ncoming"), "wrapped at 60 columns")
        #expect(r.out.contains("print(\"||not a spoiler||\")"))
        expectMatchesFixture(r.out, "cli/read-export-chat-log.txt")
    }

    @Test func aBrokenMessageIsNotedAndTheRestStillReads() throws {
        let export = """
            {"messages": [
              {"id": 1, "type": "message", "date": "2026-11-01T10:00:00", "from": "Ana", "text": 5},
              {"id": 2, "type": "message", "date": "2026-11-01T10:01:00", "from": "Bo", "text": "fine ||here||"},
              {"id": 3, "type": "message", "from": "Cy", "photo": "a.jpg", "text": ""}
            ]}
            """
        let r = try runSpoiler(["read", "--from", "export"], input: export, environment: ["COLUMNS": "80"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("Ana · 2026-11-01 10:00\n[could not be read: "))
        #expect(r.out.contains("\n\nBo · 2026-11-01 10:01\nfine ||here||"), "plain text in an export is not markup")
        #expect(r.out.contains("\n\nCy\n[no text]"))
    }

    @Test func aSyntaxErrorFailsWithItsPosition() throws {
        let r = try runSpoiler(
            ["read", "--from", "export"], input: "{\"messages\": [\n  {\"id\": 1,,}\n]}", environment: ["COLUMNS": "80"]
        )
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error: <stdin>:2:12: invalid JSON: "), "\(r.err)")
    }
}
