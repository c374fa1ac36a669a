import Foundation
import SpoilerTestSupport
import Testing

/// Documents that reach every part of the C code: the spoiler extension's match, insert
/// (in paragraphs, cells, links and emphasis), its renderers, unmatched and long runs,
/// the GFM extensions, invalid UTF-8 and deep nesting.
let memoryCheckDocuments: [String] = [
    "**a ||b|| c** ||x *y*|| [||l||](u) ||unclosed ||| |a| ~~||s||~~",
    "| a | b |\n|---|---|\n| \\|\\|s\\|\\| | `\\|\\|c\\|\\|` |\n| x ||y|| | z |",
    "> ||q||\n> > - [ ] ||task||\n\n```\n||code||\n```\n\n<div>||html||</div>",
    String(repeating: "> ", count: 300) + "||deep||",
    String(repeating: "- ", count: 300) + "||deep||",
    String(repeating: "|", count: 5_000) + " ||" + String(repeating: "*a ", count: 200) + "||",
    "<http://a.b/||x||> www.c.d/||y|| e@f.gh ||i@j.kl||",
]

/// C memory is owned safely: the `spoiler` binary, run under valgrind's memcheck over
/// Markdown through every Markdown path, loses no memory and makes no invalid access.
@Suite(.serialized) struct MarkdownMemoryTests {
    static var ndjson: Data {
        var lines = memoryCheckDocuments.map { doc -> String in
            var w = "\""
            for c in doc.unicodeScalars {
                switch c {
                case "\"": w += "\\\""
                case "\\": w += "\\\\"
                case "\n": w += "\\n"
                default: w.unicodeScalars.append(c)
                }
            }
            return w + "\""
        }
        lines.append("{\"id\":\"bad\",\"text\":7}")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    @Test(
        .enabled(if: valgrindProgram != nil, "valgrind is not installed: no leak check"),
        arguments: [["--to", "json"], ["--to", "html"], ["--to", "markdown"]])
    func noLeaksUnderValgrind(_ output: [String]) throws {
        let program = try #require(valgrindProgram)
        var input = Self.ndjson
        // Invalid UTF-8 in a JSON line.
        input.append(contentsOf: [0x22, 0x61, 0xFF, 0x7C, 0x7C, 0x62, 0x7C, 0x7C, 0x22, 0x0A])
        let result = try runProgram(
            program,
            [
                "--leak-check=full", "--errors-for-leak-kinds=definite", "--error-exitcode=9", "-q",
                spoilerBinaryForValgrind().path, "convert", "--from", "markdown", "--ndjson",
            ] + output,
            stdin: input)
        // 1: the bad record (and the invalid line) failed as they should; 9: valgrind found errors.
        #expect(result.status == 1, "valgrind reported:\n\(result.err)")
        #expect(!result.err.contains("definitely lost"), "\(result.err)")
        #expect(!result.err.contains("Invalid read") && !result.err.contains("Invalid write"), "\(result.err)")
        #expect(result.out.split(separator: "\n").count == memoryCheckDocuments.count + 2)
    }

    @Test(.enabled(if: valgrindProgram != nil, "valgrind is not installed: no leak check"))
    func wholeDocumentHasNoLeaks() throws {
        let program = try #require(valgrindProgram)
        let doc = Data(memoryCheckDocuments.joined(separator: "\n\n").utf8)
        for to in ["json"] {
            let result = try runProgram(
                program,
                [
                    "--leak-check=full", "--errors-for-leak-kinds=definite", "--error-exitcode=9", "-q",
                    spoilerBinaryForValgrind().path, "convert", "--from", "markdown", "--to", to,
                ],
                stdin: doc)
            #expect(result.status == 0, "valgrind reported:\n\(result.err)")
        }
    }
}
