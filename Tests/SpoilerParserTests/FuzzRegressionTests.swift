import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// Inputs the coverage-guided fuzzer (scripts/fuzz) found, kept under `Fixtures/fuzz/TARGET/`
/// and checked here with the property that broke.
@Suite struct FuzzRegressionTests {
    /// MarkdownV2 lets an entity hold another of its own type (italic in underline in
    /// italic), which the serializer cannot write back (MarkdownV2 has no way to say it; the
    /// README lists it): the text survives the round trip, the inner italic does not.
    @Test func markdownV2SameTypeNesting() throws {
        let bytes = [UInt8](try fixtureData("fuzz/markdownv2/italic-in-underline-in-italic.txt"))
        let message = try MessageParser.parse(bytes, from: .markdownV2)
        #expect(message.entities.map(\.type) == [.italic, .underline, .italic])
        for e in message.entities {
            #expect(e.offset >= 0 && e.length > 0 && e.offset + e.length <= message.utf16Length)
        }
        let back = try MessageParser.parse(MessageSerializer.serialize(message, to: .markdownV2), from: .markdownV2)
        #expect(back.text == message.text)
        #expect(back.entities == Array(message.entities.prefix(2)))
    }

    /// A link around a block quotation that runs to the end of the text and ends with a line
    /// break (`[\n>\n](url)`): the writer ended the quotation at the end of the text, after the
    /// `]` could be written, so it split the link in two. Now such a quotation is ended by its
    /// line break, inside the link, as the fuzzer's input (`[[\n](…)>\n](…)`) wrote it.
    @Test func markdownV2LinkAroundFinalQuotation() throws {
        let bytes = [UInt8](try fixtureData("fuzz/markdownv2/link-around-final-quotation.txt"))
        let message = try MessageParser.parse(bytes, from: .markdownV2)
        #expect(message.text == "\n\n")
        #expect(message.entities.map(\.type) == [.textLink, .blockquote])
        let written = MessageSerializer.serialize(message, to: .markdownV2)
        #expect(written == "[\n>\n](http://t.(t.substrme/)")
        #expect(try MessageParser.parse(written, from: .markdownV2) == message)

        // The same shape with text on each line, an expandable quotation, and bold in place
        // of the link; a quotation with nothing around it still keeps its final line break
        // for what is inside it (`>*b\n>*`).
        let cases = [
            Message(
                text: "a\nb\n",
                entities: [
                    Entity(.textLink, offset: 0, length: 4, url: "http://x.org/"),
                    Entity(.blockquote, offset: 2, length: 2),
                ]),
            Message(
                text: "a\nb\n",
                entities: [Entity(.bold, offset: 0, length: 4), Entity(.expandableBlockquote, offset: 2, length: 2)]),
            Message(
                text: "a\nb\n",
                entities: [Entity(.blockquote, offset: 2, length: 2), Entity(.bold, offset: 2, length: 2)]),
        ]
        for m in cases {
            let markup = MessageSerializer.serialize(m, to: .markdownV2)
            #expect(try MessageParser.parse(markup, from: .markdownV2) == m, "\(markup.debugDescription)")
        }
    }

    /// TDLib trims a link's spaces (NUL among them) before it keeps it, but looks for a user
    /// in it untrimmed: `[a](tg:user?id=5\0…)` is a text link to `tg://user?id=5`, not a
    /// mention. Written back, that link is a mention, as Telegram reads it; the README says so.
    @Test func markdownV2UserLinkWithTrailingNULsIsALink() throws {
        let bytes = [UInt8](try fixtureData("fuzz/markdownv2/user-link-with-nuls.txt"))
        let message = try MessageParser.parse(bytes, from: .markdownV2)
        #expect(
            message == Message(text: "a", entities: [Entity(.textLink, offset: 0, length: 1, url: "tg://user?id=5")]))
        for format in [OutputFormat.markdownV2, .html] {
            let written = MessageSerializer.serialize(message, to: format)
            let back = try MessageParser.parse(written, from: format == .html ? .html : .markdownV2)
            #expect(back == Message(text: "a", entities: [Entity(.textMention, offset: 0, length: 1, userID: 5)]))
        }
    }

    /// The position of a JSON error in an export must not depend on how the input is cut
    /// into reads. yajl once put a NUL inside a string one byte early (at the `y` before
    /// it) when the whole input came in one read, and at the NUL when a read ended just
    /// before it; now every cut gives the NUL's line, column and offset.
    @Test func exportErrorPositionDoesNotDependOnReads() throws {
        let bytes = [UInt8](try fixtureData("fuzz/export/nul-in-key.json"))
        func error(cutAt cut: Int) -> ParseError? {
            let reader = ExportReader()
            var items: [ExportItem] = []
            do {
                try reader.feed(Array(bytes[..<cut]), into: &items)
                try reader.feed(Array(bytes[cut...]), into: &items)
                try reader.finish(into: &items)
            } catch {
                return error
            }
            return nil
        }
        let nul = try #require(bytes.firstIndex(of: 0))
        let expected = TextPosition(utf8Offset: nul, in: bytes)
        #expect(expected.line == 9 && expected.column == 7)
        let whole = try #require(error(cutAt: bytes.count))
        #expect(whole.position == expected)
        for cut in 0..<bytes.count {
            let e = error(cutAt: cut)
            #expect(e?.position == expected, "cut at \(cut)")
            #expect(e?.reason == whole.reason, "cut at \(cut)")
        }
    }

    /// A quote inside a tag's name (`<s=">">`) made the Matrix HTML reader end the tag at a
    /// later `>`, and its attribute loop then stood still on the `>` left inside: the
    /// fuzzer's input never finished. Now the tag is `s="`, as html.parser reads it.
    @Test(.timeLimit(.minutes(1))) func matrixQuoteInTagNameEnds() throws {
        let bytes = [UInt8](try fixtureData("fuzz/matrix/quote-in-tag-name.json"))
        let message = try MessageParser.parse(bytes, from: .matrix)
        #expect(message.text.hasPrefix("x\nquote\ni\n"), "\(message.text.debugDescription)")
        for e in message.entities {
            #expect(e.offset >= 0 && e.length > 0 && e.offset + e.length <= message.utf16Length)
        }
        let small = MatrixParser.message(fromHTML: "a<s=\">\">b")
        #expect(small.text == "a\">b")
    }
}
