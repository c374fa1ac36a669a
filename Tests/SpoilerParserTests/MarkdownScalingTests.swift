import Foundation
import SpoilerTestSupport
import Testing

/// Linear work on hostile input, measured as instructions (valgrind's callgrind) rather
/// than wall time, so that the check holds on a loaded machine: the work for an input 4×
/// larger, less the work for an empty input, must stay under 6× (quadratic work would be
/// about 16×).
///
/// Not among the shapes: a table row of many cells (`| a |`, `|---|`, then thousands of
/// `|`), which libcmark-gfm 0.29.0.gfm.6's table extension itself handles in quadratic
/// time (the `cmark-gfm` program takes 0.2 s for 5,000 cells and 2.9 s for 20,000);
/// `tableRowWithManyCellsMatchesCmarkGFM` checks that this path adds nothing to it.
@Suite struct MarkdownScalingTests {
    struct Shape: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable (Int) -> String
        var size: Int
        var testDescription: String { name }
    }

    static let shapes: [Shape] = [
        Shape(name: "a line of pipes", make: { String(repeating: "|", count: $0) }, size: 5_000),
        Shape(name: "nested block quotes", make: { String(repeating: ">", count: $0) + " ||x||" }, size: 600),
        Shape(name: "nested list items", make: { String(repeating: "- ", count: $0) + "||x||" }, size: 600),
        Shape(
            name: "unmatched openers and emphasis", make: { String(repeating: "||a **b ", count: $0 / 8) }, size: 5_000),
    ]

    static func instructions(_ input: String) throws -> Double {
        let program = try #require(valgrindProgram)
        let result = try runProgram(
            program,
            [
                "--tool=callgrind", "--callgrind-out-file=/dev/null", spoilerBinaryForValgrind().path,
                "convert", "--from", "markdown", "--to", "json",
            ],
            stdin: Data(input.utf8))
        #expect(result.status == 0)
        let line = try #require(result.err.split(separator: "\n").first { $0.contains("Collected :") })
        let digits = line.split(separator: ":").last.map { $0.filter(\.isNumber) } ?? ""
        return try #require(Double(digits))
    }

    static let baseline: Double? = try? instructions("")

    @Test(.enabled(if: valgrindProgram != nil, "valgrind is not installed: no instruction counts"), arguments: shapes)
    func workGrowsLinearly(_ shape: Shape) throws {
        let base = try #require(Self.baseline)
        let small = try Self.instructions(shape.make(shape.size)) - base
        let large = try Self.instructions(shape.make(shape.size * 4)) - base
        #expect(small > 0)
        #expect(large / small < 6, "\(shape.name): \(Int(small)) then \(Int(large)) instructions")
    }
}

@Suite struct MarkdownTableRowTests {
    @Test func tableRowWithManyCellsMatchesCmarkGFM() throws {
        guard let program = cmarkGFMProgram else {
            Issue.record("cmark-gfm is not installed (Debian package cmark-gfm): the comparison cannot run")
            return
        }
        let doc = Data(
            ("| a |\n|---|\n" + String(repeating: "|", count: 3_000) + "\n" + String(repeating: "|x", count: 1_000))
                .utf8)
        let expected = try runProgram(program, ["--validate-utf8"] + gfmExtensionFlags, stdin: doc)
        let ours = try runSpoiler(["convert", "--from", "markdown", "--to", "html"], stdin: doc)
        #expect(ours.status == 0)
        #expect(ours.stdout == expected.stdout)
        let message = try runSpoiler(["parse", "--from", "markdown"], stdin: doc)
        #expect(message.status == 0)
    }
}
