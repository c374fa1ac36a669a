import Foundation
import SpoilerTestSupport
import Testing

/// Every format read from JSON names the line and column of a bad byte exactly, as a user
/// sees it on standard error: `<stdin>:LINE:COLUMN: invalid JSON: …`, for one message and
/// for an NDJSON line alike (the input's line, the column within it).
@Suite struct JSONErrorPositionTests {
    /// One input with a bad byte, marked `^` (removed before the run).
    struct Case: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var marked: String
        var testDescription: String { arguments.joined(separator: " ") + ": " + marked.debugDescription }
        var input: String { marked.replacingOccurrences(of: "^", with: "") }
        /// The 1-based line and column of the byte after `^`.
        var lineAndColumn: (line: Int, column: Int) {
            let before = marked[..<marked.range(of: "^")!.lowerBound]
            let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
            return (lines.count, lines.last!.utf8.count + 1)
        }
    }

    static let oneMessage: [Case] = [
        // A control character inside a string, and a token out of place, in each format.
        Case(
            arguments: ["parse", "--from", "botapi"], marked: "{\"text\": \"the butler\",\n  \"entities\": [^\u{1}]}"),
        Case(arguments: ["parse", "--from", "botapi"], marked: "{\"text\": \"é 😀 a^\u{1}\"}"),
        Case(arguments: ["parse", "--from", "botapi"], marked: "{\"text\": \"a\"\n\n   ^\"entities\": []}"),
        Case(arguments: ["parse", "--from", "matrix"], marked: "{\"msgtype\": \"m.text\",\n \"body\": \"x^\u{1f}\"}"),
        Case(arguments: ["parse", "--from", "matrix"], marked: "{\"msgtype\": \"m.text\",\n \"body\" ^\"x\"}"),
        Case(
            arguments: ["parse", "--from", "signal"],
            marked: "{\"body\": \"the butler\",\n \"bodyRanges\": [{\"start\": -^x}]}"),
        Case(arguments: ["parse", "--from", "signal"], marked: "{\"body\": \"ab\",\n\t\"bodyRanges\": [^,]}"),
        Case(
            arguments: ["parse", "--from", "export"],
            marked: "{\"messages\": [\n  {\"id\": 1, \"text\": \"é😀^\u{1}\"}]}"),
        Case(arguments: ["parse", "--from", "export"], marked: "{\"messages\": [\n  {\"id\": 1  ^\"text\": \"a\"}]}"),
        Case(
            arguments: ["parse", "--from", "export"], marked: "{\"messages\": [\n  {\"id\": 1, \"text\": \"a\"}],\n ^]}"
        ),
    ]

    @Test(arguments: oneMessage)
    func oneMessageNamesLineAndColumn(_ c: Case) throws {
        let r = try runSpoiler(c.arguments, input: c.input)
        let (line, column) = c.lineAndColumn
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("error: <stdin>:\(line):\(column): invalid JSON: "), "\(r.err)")
    }

    static let ndjsonLines: [Case] = [
        Case(arguments: ["parse", "--ndjson"], marked: "\"ok\"\n{\"text\": \"é😀^\u{1}\"}\n\"ok\""),
        Case(arguments: ["parse", "--ndjson"], marked: "\"ok\"\n\"ok\"\n{\"id\": 3 ^\"text\": \"a\"}"),
        Case(arguments: ["parse", "--ndjson", "--from", "matrix"], marked: "{\"body\": \"a\"}\n{\"body\": ^x}"),
        Case(
            arguments: ["parse", "--ndjson", "--from", "signal"], marked: "\n\n{\"body\": \"a\", \"bodyRanges\": [^}"),
    ]

    /// The line on standard error names the input's line and the column within it; the
    /// error record names the line and the byte offset within it.
    @Test(arguments: ndjsonLines)
    func ndjsonLineNamesLineAndColumn(_ c: Case) throws {
        let r = try runSpoiler(c.arguments, input: c.input)
        let (line, column) = c.lineAndColumn
        #expect(r.status == 1)
        // Blank lines before it give `empty line` errors of their own, so it need not be first.
        #expect(
            r.err.split(separator: "\n").contains { $0.hasPrefix("error: <stdin>:\(line):\(column): invalid JSON: ") },
            "\(r.err)")
        #expect(r.out.contains("\"line\":\(line),\"error\":\"invalid JSON: "), "\(r.out)")
        #expect(r.out.contains("\"offset\":\(column - 1)}"), "\(r.out)")
    }
}
