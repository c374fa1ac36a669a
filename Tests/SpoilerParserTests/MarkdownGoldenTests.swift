import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// One document that exercises every spoiler rule, with its HTML, CommonMark, Message and
/// Markdown-from-Message renderings kept as golden files in `Fixtures/markdown/golden/`.
@Suite struct MarkdownGoldenTests {
    static let input: [UInt8] = (try? Array(fixtureData("markdown/golden/spoilers.md"))) ?? []

    @Test func html() {
        #expect(!Self.input.isEmpty)
        expectMatchesFixture(
            String(decoding: MarkdownRenderer.html(Self.input), as: UTF8.self), "markdown/golden/spoilers.html")
    }

    @Test func commonMark() {
        expectMatchesFixture(
            String(decoding: MarkdownRenderer.commonMark(Self.input), as: UTF8.self),
            "markdown/golden/spoilers.commonmark.md")
    }

    @Test func plainText() {
        expectMatchesFixture(
            String(decoding: MarkdownRenderer.plainText(Self.input), as: UTF8.self), "markdown/golden/spoilers.txt")
    }

    @Test func message() throws {
        let m = try MessageParser.parse(Self.input, from: .markdown)
        var lines = [m.text, "---"]
        for e in m.entities {
            var line = "\(e.type.rawValue) \(e.offset)+\(e.length) \(m.text(of: e).map { String($0) }.debugDescription)"
            if let url = e.url { line += " url=\(url)" }
            if let language = e.language { line += " language=\(language)" }
            lines.append(line)
        }
        expectMatchesFixture(lines.joined(separator: "\n") + "\n", "markdown/golden/spoilers.message.txt")
        let written = MessageSerializer.serialize(m, to: .markdown)
        expectMatchesFixture(written + "\n", "markdown/golden/spoilers.from-message.md")
        // Nested spoilers and the heading's bold are the only things Markdown cannot say
        // again; everything else reads back the same.
        let back = try MessageParser.parse(written, from: .markdown)
        #expect(back.text == m.text)
        #expect(Set(back.entities.map(\.type)) == Set(m.entities.map(\.type)))
    }
}
