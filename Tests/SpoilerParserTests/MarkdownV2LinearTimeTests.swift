import SpoilerCore
import Testing

import SpoilerParser

/// Adversarial inputs of 10 MB.
///
/// These tests are not timed: a quadratic parser would not finish them (some 10^13 steps),
/// while a linear one does in seconds even in a debug build.
@Suite("MarkdownV2 and HTML on 10 MB adversarial input")
struct MarkdownV2LinearTimeTests {
    /// `unit` repeated `count` times, as bytes.
    static func run(_ unit: String, count: Int) -> [UInt8] {
        let u = Array(unit.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * u.count)
        for _ in 0..<count { bytes += u }
        return bytes
    }

    @Test("Runs of * _ | backslash and ~, 2 MB each")
    func markdownV2Runs() throws {
        let mb = 2_000_000
        let bytes =
            Self.run("*", count: mb) + Self.run("_", count: mb) + Self.run("|", count: mb)
            + Self.run("\\", count: mb) + Self.run("~", count: mb)
        #expect(bytes.count == 10_000_000)
        // Each pair of markup characters opens and closes an empty entity; each pair of
        // backslashes is one escaped backslash.
        let message = try MarkdownV2Parser.parse(bytes)
        #expect(message.text.utf8.count == mb / 2)
        #expect(message.text.utf8.allSatisfy { $0 == UInt8(ascii: "\\") })
        #expect(message.entities.isEmpty)
    }

    @Test("An unclosed run of 3.3 million <b> tags")
    func htmlOpenTags() {
        let bytes = Self.run("<b>", count: 3_333_333)
        #expect(
            throws: ParseError.tdlib("Can't find end tag corresponding to start tag \"b\"", at: 9_999_996, in: bytes)
        ) {
            try HTMLParser.parse(bytes)
        }
    }

    @Test("Runs of <b>x</b> and &lt;, 5 MB each")
    func htmlRuns() throws {
        let bytes = Self.run("<b>x</b>", count: 625_000) + Self.run("&lt;", count: 1_250_000)
        let message = try HTMLParser.parse(bytes)
        #expect(message.text.utf8.count == 625_000 + 1_250_000)
        #expect(message.entities.count == 625_000)
        #expect(message.entities.last == Entity(.bold, offset: 624_999, length: 1))
    }

    @Test("A million nested links are handled without recursion")
    func deepNesting() throws {
        let open = Self.run("[", count: 1_000_000)
        #expect(
            throws: ParseError.tdlib("Can't find end of TextUrl entity at byte offset 999999", at: 999_999, in: open)
        ) {
            try MarkdownV2Parser.parse(open)
        }
        let links = Self.run("[", count: 500_000) + Self.run("]", count: 500_000)
        #expect(try MarkdownV2Parser.parse(links) == Message(text: ""))
    }
}
