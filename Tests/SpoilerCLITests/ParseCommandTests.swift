import Foundation
import SpoilerTestSupport
import Testing

/// A file in a fresh temporary folder, removed by the caller.
func temporaryFile(_ name: String, _ data: Data) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try data.write(to: url)
    return url
}

func removeTemporary(_ url: URL) {
    try? FileManager.default.removeItem(at: url.deletingLastPathComponent())
}

@Suite struct ParseCommandTests {
    @Test func theREADMEExample() throws {
        let r = try runSpoiler(["parse"], input: "hi ||there||\n")
        #expect(r.status == 0)
        #expect(r.out == #"{"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}"# + "\n")
        #expect(r.err == "")
    }

    @Test func fileOperandAndDash() throws {
        let url = try temporaryFile("note.txt", Data("a ||b||\r\n".utf8))
        defer { removeTemporary(url) }
        let expected = #"{"text":"a b","entities":[{"type":"spoiler","offset":2,"length":1}]}"# + "\n"
        #expect(try runSpoiler(["parse", url.path]).out == expected)
        #expect(try runSpoiler(["parse", "-"], input: "a ||b||").out == expected)
        #expect(try runSpoiler(["parse", "--from=plain", "--", url.path]).out == expected)
    }

    @Test func onlyTheFinalNewlineIsDropped() throws {
        let r = try runSpoiler(["parse"], input: "||a\nb||\n\n")
        #expect(r.out == #"{"text":"a\nb\n","entities":[{"type":"spoiler","offset":0,"length":3}]}"# + "\n")
    }

    @Test func ndjsonKeepsGoingPastBadLines() throws {
        let r = try runSpoiler(["parse", "--ndjson", fixturesRoot.appendingPathComponent("cli/mixed.ndjson").path])
        #expect(r.status == 1)
        expectMatchesFixture(r.out, "cli/mixed.parse.ndjson")
        let errors = r.err.split(separator: "\n")
        #expect(errors.count == 6)  // five failed lines, a blank one among them, and the summary
        #expect(errors.last == "spoiler: 5 of 9 lines failed (first at line 3)")
        #expect(errors.first?.hasPrefix("error: ") == true)
        #expect(errors.first?.contains("mixed.ndjson:3: entity 0 (bold)") == true)
        // Every output line is valid JSON carrying an id.
        for line in r.out.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["id"] != nil)
        }
    }

    @Test func ndjsonFromStdinWithAnotherFormat() throws {
        let r = try runSpoiler(
            ["parse", "--ndjson", "--from", "botapi"],
            input: #"{"id":1,"text":"a","entities":[{"type":"code","offset":0,"length":1}]}"# + "\n")
        #expect(r.status == 0)
        #expect(r.out == #"{"id":1,"text":"a","entities":[{"type":"code","offset":0,"length":1}]}"# + "\n")
    }

    @Test func invalidUTF8NamesTheByteOffset() throws {
        let whole = try runSpoiler(["parse"], stdin: Data([0x61, 0x62, 0xFF, 0x63]))
        #expect(whole.status == 1)
        #expect(whole.out == "")
        #expect(whole.err == "error: <stdin>:1:3: Invalid UTF-8 at byte offset 2\n")

        let lines = try runSpoiler(
            ["parse", "--ndjson"], stdin: Data("\"ok\"\n\"x".utf8 + [0xC3, 0x28] + Data("\"\n".utf8)))
        #expect(lines.status == 1)
        #expect(
            lines.out == #"{"id":1,"text":"ok","entities":[]}"# + "\n"
                + #"{"id":null,"line":2,"error":"Invalid UTF-8 at byte offset 2","kind":"invalidUTF8","offset":2}"#
                + "\n")
    }

    @Test func malformedJSONNamesLineAndColumn() throws {
        let r = try runSpoiler(["parse", "--from", "botapi"], input: "{\"text\": \"a\",\n  \"entities\": [,]}")
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error: <stdin>:2:16: invalid JSON: "))
    }

    @Test func badEntityNamesTheEntity() throws {
        let r = try runSpoiler(
            ["parse", "--from", "botapi"], input: #"{"text":"a😀","entities":[{"type":"bold","offset":0,"length":2}]}"#)
        #expect(r.status == 1)
        #expect(r.err == "error: <stdin>: entity 0 (bold): offset 0 + length 2 = 2 splits a surrogate pair\n")
    }

    @Test func helpAndVersion() throws {
        for command in ["parse", "convert"] {
            let r = try runSpoiler([command, "--help"])
            #expect(r.status == 0)
            #expect(r.out.hasPrefix("usage: spoiler \(command)"))
            #expect(r.out.contains("exit status: 0 success, 1 a message failed, 2 usage error"))
        }
        let v = try runSpoiler(["--version"])
        #expect(v.status == 0)
        #expect(v.out.split(separator: "\n").count == 1)
    }

    @Test(arguments: [
        (
            ["parse", "--from", "nope"],
            "error: unknown value 'nope' for '--from' (expected one of: plain, markdownv2, html, markdown, botapi, export, matrix, discord, reddit, signal)"
        ),
        (["parse", "a", "b"], "error: unexpected argument 'b'"),
        (["parse", "--ndjson=1"], "error: option '--ndjson' takes no value"),
        (
            ["convert"],
            "error: '--to' is required (json, markdownv2, html, markdown, plain, plain-markup, matrix, discord, reddit, signal, slack, preview)"
        ),
        (["convert", "--to"], "error: option '--to' needs a value"),
        (
            ["convert", "--to", "pdf"],
            "error: unknown value 'pdf' for '--to' (expected one of: json, markdownv2, html, markdown, plain, plain-markup, matrix, discord, reddit, signal, slack, preview)"
        ),
        (["prase"], "error: unknown command 'prase'; did you mean 'parse'?"),
        ([], "error: no command given"),
    ])
    func usageErrorsExit2WithOneLineReason(arguments: [String], reason: String) throws {
        let r = try runSpoiler(arguments)
        #expect(r.status == 2)
        #expect(r.out == "")
        #expect(r.err.split(separator: "\n").first.map(String.init) == reason)
    }

    @Test func unreadableInputExits1() throws {
        let r = try runSpoiler(["parse", "/nonexistent/spoiler-input"])
        #expect(r.status == 1)
        #expect(r.err == "error: /nonexistent/spoiler-input: cannot open: No such file or directory\n")
        let dir = try runSpoiler(["parse", "/"])
        #expect(dir.status == 1)
        #expect(dir.err == "error: /: cannot read: Is a directory\n")
    }

    /// `spoiler parse --ndjson big | head -1`: the reader goes away and the program ends
    /// quietly with status 0.
    @Test func closedPipeEndsQuietly() throws {
        var big = Data()
        for i in 0..<200_000 { big.append(contentsOf: Array("\"message \(i) ||hidden||\"\n".utf8)) }
        let url = try temporaryFile("big.ndjson", big)
        defer { removeTemporary(url) }
        let script = #""$0" parse --ndjson "$1" | head -1; exit "${PIPESTATUS[0]}""#
        let r = try runProgram(URL(fileURLWithPath: "/bin/bash"), ["-c", script, spoilerBinary().path, url.path])
        #expect(r.status == 0)
        #expect(
            r.out == #"{"id":1,"text":"message 0 hidden","entities":[{"type":"spoiler","offset":10,"length":6}]}"#
                + "\n")
        #expect(r.err == "")
    }

    @Test func progressLineOnRequest() throws {
        let input = (1...2000).map { "\"m \($0) ||x||\"" }.joined(separator: "\n")
        let r = try runSpoiler(["parse", "--ndjson"], input: input, environment: ["SPOILER_PROGRESS": "1"])
        #expect(r.status == 0)
        #expect(r.out.split(separator: "\n").count == 2000)
        #expect(r.err.hasPrefix("\r\u{1B}[Kspoiler: "))
        #expect(r.err.hasSuffix("\r\u{1B}[K"))
        let quiet = try runSpoiler(["parse", "--ndjson"], input: input)
        #expect(quiet.err == "")
    }
}

/// The examples in `--help` are transcripts: each `$ ` command, run by bash with the built
/// `spoiler` first on PATH, prints exactly the lines under it.
@Suite struct HelpTranscriptTests {
    @Test(arguments: ["parse", "convert"])
    func examplesAreTrue(command: String) throws {
        let help = try runSpoiler([command, "--help"]).out
        var examples: [(command: String, output: [String])] = []
        var inExamples = false
        var continued = false
        for raw in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("example") {
                inExamples = true
                continue
            }
            guard inExamples, !line.isEmpty else {
                inExamples = inExamples && !line.isEmpty
                continue
            }
            if line.hasPrefix("$ ") {
                examples.append((String(line.dropFirst(2)), []))
            } else if continued {
                examples[examples.count - 1].command += "\n" + line
            } else {
                examples[examples.count - 1].output.append(line)
            }
            continued = line.hasSuffix("\\")
        }
        #expect(!examples.isEmpty)
        let binDir = spoilerBinary().deletingLastPathComponent().path
        for (script, output) in examples {
            let r = try runProgram(
                URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: ["PATH": "\(binDir):/usr/bin:/bin"])
            #expect(r.status == 0, "\(script)")
            #expect(r.out == output.map { $0 + "\n" }.joined(), "\(script)")
        }
    }
}
