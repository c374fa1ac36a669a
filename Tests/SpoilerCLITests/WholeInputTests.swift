import Foundation
import SpoilerTestSupport
import Testing

/// Every command reads a whole input as one message the same way: the final newline is
/// not part of it, and an error names the input, line and column.
@Suite struct WholeInputTests {
    static let commands: [[String]] = [
        ["parse"], ["convert", "--to", "html"], ["layout"], ["render", "--format", "svg"], ["play"], ["read"],
    ]

    @Test("A parse error names line and column", arguments: commands)
    func errorInCompilerForm(command: [String]) throws {
        let r = try runSpoiler(command + ["--from", "markdownv2"], input: "ok\na ||b\n")
        #expect(r.status == 1)
        #expect(r.err == "error: <stdin>:2:3: Can't find end of Spoiler entity at byte offset 5\n")
    }

    @Test("Invalid UTF-8 is reported with its line and column", arguments: commands)
    func invalidUTF8(command: [String]) throws {
        let r = try runSpoiler(command, stdin: Data([0x61, 0x0A, 0x62, 0xFF, 0x0A]))
        #expect(r.status == 1)
        #expect(r.err == "error: <stdin>:2:2: Invalid UTF-8 at byte offset 3\n")
    }

    /// Every markup format: the same error, at the same line and column, from every command.
    static let textFormats = ["plain", "markdownv2", "html", "markdown", "discord", "reddit"]
    /// The JSON formats: one invalid byte inside a string.
    static let jsonFormats = ["botapi", "matrix", "signal"]

    @Test("Invalid UTF-8 is the same error in every command and every --from", arguments: commands)
    func invalidUTF8InEveryFormat(command: [String]) throws {
        for format in Self.textFormats {
            let r = try runSpoiler(command + ["--from", format], stdin: Data([0x61, 0x0A, 0x62, 0xFF, 0x0A]))
            #expect(r.status == 1, "\(command) --from \(format)")
            #expect(r.out == "", "\(command) --from \(format)")
            #expect(r.err == "error: <stdin>:2:2: Invalid UTF-8 at byte offset 3\n", "\(command) --from \(format)")
        }
        let json = Data(#"{"text":"a","#.utf8) + Data([0x0A]) + Data(#""b":""#.utf8) + Data([0xFF]) + Data(#""}"#.utf8)
        for format in Self.jsonFormats {
            let r = try runSpoiler(command + ["--from", format], stdin: json)
            #expect(r.status == 1, "\(command) --from \(format)")
            #expect(r.err == "error: <stdin>:2:6: Invalid UTF-8 at byte offset 18\n", "\(command) --from \(format)")
        }
    }

    @Test(
        "Invalid UTF-8 in an export is the same error",
        arguments: commands.filter { $0 != ["play"] && $0.first != "render" })
    func invalidUTF8InAnExport(command: [String]) throws {
        let export =
            Data(#"{"messages": [{"id": 1,"#.utf8) + Data([0x0A]) + Data(#""text": "b"#.utf8) + Data([0xFF])
            + Data(#""}]}"#.utf8)
        let r = try runSpoiler(command + ["--from", "export"], stdin: export)
        #expect(r.status == 1, "\(command)")
        #expect(r.err == "error: <stdin>:2:11: Invalid UTF-8 at byte offset 34\n", "\(command)")
    }

    @Test(
        "Invalid UTF-8 in an NDJSON line names the line and column",
        arguments: [["parse"], ["convert", "--to", "html"], ["layout"]])
    func invalidUTF8InALine(command: [String]) throws {
        for format in ["plain", "markdown"] {
            let lines = Data("\"ok\"\n\"x".utf8) + Data([0xC3, 0x28]) + Data("\"\n".utf8)
            let r = try runSpoiler(command + ["--ndjson", "--from", format], stdin: lines)
            #expect(r.status == 1, "\(command) \(format)")
            #expect(
                r.err
                    == "error: <stdin>:2:3: Invalid UTF-8 at byte offset 2\nspoiler: 1 of 2 lines failed (first at line 2)\n",
                "\(command) \(format)")
        }
    }

    @Test("The final newline ends the input, not the message", arguments: [["play"], ["read"]])
    func finalNewline(command: [String]) throws {
        // Kept, the newline would make MarkdownV2's final backslash escape it.
        let with = try runSpoiler(command + ["--from", "markdownv2"], input: "a\\\n")
        let without = try runSpoiler(command + ["--from", "markdownv2"], input: "a\\")
        #expect(with.status == 0 && without.status == 0, "\(with.err)\(without.err)")
        #expect(with.out == without.out)
        #expect(with.out == "a\\\n")
    }
}
