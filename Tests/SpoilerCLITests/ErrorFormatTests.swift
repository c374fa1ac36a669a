import Foundation
import SpoilerTestSupport
import Testing

/// Every error the program prints is one line in one form: `error: ` once, then
/// `path:line:column: reason`, `path:line: reason` where only the line is known, or
/// `path: reason` where no position makes sense (font positions: see LayoutCommandTests).
@Suite struct ErrorFormatTests {
    /// A temporary file holding `text`, removed by the caller's `defer`.
    func file(_ name: String, _ text: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func ndjsonSyntaxErrorNamesOnePosition() throws {
        let url = try file("broken.ndjson", "\"ok\"\n{\"text\": \"a\", \"x\": }\n")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        for jobs in ["1", "2"] {
            let r = try runSpoiler(["parse", "--ndjson", "--jobs", jobs, url.path])
            #expect(r.status == 1)
            #expect(
                r.err == "error: \(url.path):2:20: invalid JSON: unexpected character, expected a value\n"
                    + "spoiler: 1 of 2 lines failed (first at line 2)\n")
            #expect(
                r.out.hasSuffix(
                    #"{"id":null,"line":2,"error":"invalid JSON: unexpected character, expected a value","kind":"invalidJSON","offset":19}"#
                        + "\n"))
        }
        let md = try runSpoiler(["convert", "--from", "markdown", "--to", "html", "--ndjson", url.path])
        #expect(
            md.err == "error: \(url.path):2:20: invalid JSON: unexpected character, expected a value\n"
                + "spoiler: 1 of 2 lines failed (first at line 2)\n")
    }

    @Test func ndjsonMessageErrorNamesTheLine() throws {
        // The position inside the message counts in its text, not in the file: the line only.
        let r = try runSpoiler(["parse", "--ndjson", "--from", "markdownv2"], input: "\"ok\"\n\"a ||b\"\n")
        #expect(r.status == 1)
        #expect(
            r.err == "error: <stdin>:2: Can't find end of Spoiler entity at byte offset 2\n"
                + "spoiler: 1 of 2 lines failed (first at line 2)\n")
    }

    @Test func wholeInputSyntaxErrorNamesOnePosition() throws {
        let r = try runSpoiler(["parse", "--from", "botapi"], input: "{\"text\": \"a\",\n  \"entities\": [,]}")
        #expect(r.status == 1)
        #expect(r.err == "error: <stdin>:2:16: invalid JSON: unexpected character, expected a value\n")
    }

    @Test func exportSyntaxErrorNamesOnePosition() throws {
        for command in [["parse"], ["read"]] {
            let r = try runSpoiler(command + ["--from", "export"], input: "{\"messages\": [\n  {\"id\": 1,, }]}")
            #expect(r.status == 1, "\(command)")
            #expect(r.err.hasPrefix("error: <stdin>:2:12: invalid JSON: "), "\(command): \(r.err)")
            #expect(!r.err.contains("line 2"), "\(command): \(r.err)")
            #expect(r.err.components(separatedBy: "error:").count == 2, "\(command): \(r.err)")
        }
    }

    @Test(arguments: [
        ["parse"], ["convert", "--to", "html"], ["layout"], ["render", "--format", "svg"], ["play"], ["read"],
    ])
    func missingInputFile(command: [String]) throws {
        let r = try runSpoiler(command + ["/nonexistent/notes.md"])
        #expect(r.status == 1)
        #expect(r.err == "error: /nonexistent/notes.md: cannot open: No such file or directory\n")
    }

    @Test(arguments: [["render", "--format", "json"], ["play"], ["read"]])
    func missingPresetFile(command: [String]) throws {
        let r = try runSpoiler(command + ["--preset", "/nonexistent/p.json"], input: "a ||b||")
        #expect(r.status == 1)
        #expect(
            r.err
                == "error: /nonexistent/p.json: cannot open preset: No such file or directory (built-in presets: confetti, dust, snow)\n"
        )
        let typo = try runSpoiler(command + ["--preset", "dsut"], input: "a ||b||")
        #expect(
            typo.err
                == "error: dsut: cannot open preset: No such file or directory (built-in presets: confetti, dust, snow; did you mean 'dust'?)\n"
        )
    }

    /// `play` and `render` take one message; for an export they point to the command that
    /// reads one, `read --from export`.
    @Test(arguments: [["play"], ["render", "--format", "svg"]])
    func anExportPointsToRead(command: [String]) throws {
        let r = try runSpoiler(command + ["--from", "export"], input: #"{"messages":[]}"#)
        #expect(r.status == 2)
        let first = r.err.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first.hasPrefix("error: \(command[0]) "), "\(r.err)")
        #expect(first.contains("'--from export' holds many (use 'spoiler read --from export'"), "\(r.err)")
        #expect(r.err.hasSuffix("see 'spoiler \(command[0]) --help'\n"), "\(r.err)")
        // The command it suggests does read it.
        let read = try runSpoiler(["read", "--from", "export"], input: #"{"messages":[{"id":1,"text":"hi"}]}"#)
        #expect(read.status == 0, "\(read.err)")
        #expect(read.out.contains("hi"))
    }

    @Test func noErrorIsDoubled() throws {
        let font = try file("passwd", "root:x:0:0:root:/root:/bin/bash\n")
        defer { try? FileManager.default.removeItem(at: font.deletingLastPathComponent()) }
        let runs = [
            try runSpoiler(["layout", "--font", font.path], input: ""),
            try runSpoiler(["render", "--format", "svg", "--font", "/nonexistent"], input: ""),
            try runSpoiler(["parse", "--from", "markdownv2"], input: "a ||b"),
            try runSpoiler(["parse", "--ndjson"], input: "[1]\n"),
        ]
        for r in runs {
            #expect(r.status == 1)
            // An NDJSON run ends with its summary line, which is no error line.
            let err = r.err.replacingOccurrences(of: "spoiler: 1 of 1 line failed (first at line 1)\n", with: "")
            #expect(err.hasPrefix("error: "), "\(r.err)")
            #expect(err.components(separatedBy: "error:").count == 2, "\(r.err)")
            #expect(err.filter { $0 == "\n" }.count == 1, "\(r.err)")
        }
    }
}
