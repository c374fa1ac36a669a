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
