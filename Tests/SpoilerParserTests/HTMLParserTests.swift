import Foundation
import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

@Suite("Telegram HTML")
struct HTMLParserTests {
    @Test(
        "Errors carry TDLib's message and the byte position",
        arguments: [
            ErrorCase(
                input: "<b>bold", reason: "Can't find end tag corresponding to start tag \"b\"", utf8Offset: 0, line: 1,
                column: 1),
            ErrorCase(
                input: "a\n<i>x</b>", reason: "Unmatched end tag at byte offset 6, expected \"</i>\", found \"</b>\"",
                utf8Offset: 6, line: 2, column: 5),
            ErrorCase(
                input: "🎬 <abc>", reason: "Unsupported start tag \"abc\" at byte offset 5", utf8Offset: 5, line: 1,
                column: 6),
            ErrorCase(
                input: "<a href=t.me x=1,>", reason: "Unexpected end of name token at byte offset 15", utf8Offset: 15,
                line: 1, column: 16),
            ErrorCase(
                input: "x &lt; y\n<b", reason: "Unclosed start tag at byte offset 9", utf8Offset: 9, line: 2, column: 1),
            ErrorCase(
                input: "<tg-emoji emoji-id=\"0\">👍</tg-emoji>", reason: "Invalid custom emoji identifier specified",
                utf8Offset: 0, line: 1, column: 1),
            ErrorCase(
                input: "<tg-time unix=\"1\" format=\"q\">now</tg-time>", reason: "Invalid date format used",
                utf8Offset: 0, line: 1, column: 1),
            ErrorCase(
                input: "<span class=\"x\">y</span>",
                reason: "Tag \"span\" must have class \"tg-spoiler\" at byte offset 0", utf8Offset: 0, line: 1,
                column: 1),
            ErrorCase(
                input: "<i =1>", reason: "Empty attribute name in the tag \"i\" at byte offset 0", utf8Offset: 0,
                line: 1, column: 1),
            ErrorCase(input: "a</b>", reason: "Unexpected end tag at byte offset 1", utf8Offset: 1, line: 1, column: 2),
            ErrorCase(
                input: "<b>x</b   y>", reason: "Unclosed end tag at byte offset 4", utf8Offset: 4, line: 1, column: 5),
            ErrorCase(
                input: "&#xD800;<b>x</b>",
                reason:
                    "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched surrogate code units",
                utf8Offset: 16, line: 1, column: 17),
        ])
    func errors(_ c: ErrorCase) {
        c.expectRejected { bytes throws(ParseError) in try HTMLParser.parse(bytes) }
    }

    @Test("TDLib's answers to inputs found by differential testing")
    func oracleFixtures() {
        expectOracleFixtures("html/tdlib-oracle.jsonl", moreThan: 80)
    }

    @Test("Every tag of the subset")
    func tags() throws {
        let input = """
            <b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ins>n</ins><s>s</s><strike>k</strike>\
            <del>d</del><tg-spoiler>h</tg-spoiler><span class="tg-spoiler">p</span><a href="https://t.me/x">l</a>\
            <a href="tg://user?id=7">m</a><code>c</code><pre>r</pre><pre><code class="language-swift">w</code></pre>\
            <blockquote>q</blockquote><blockquote expandable>x</blockquote><tg-emoji emoji-id="5">👍</tg-emoji>\
            <tg-time unix="1700000000" format="wDT">t</tg-time> &lt;&gt;&amp;&quot;&#169;&#x1F600;
            """
        let message = try HTMLParser.parse(Array(input.utf8))
        #expect(message.text == "bsieunskdhplmcrwqx👍t <>&\"©😀")
        let types = message.entities.map(\.type)
        #expect(
            types == [
                .bold, .bold, .italic, .italic, .underline, .underline, .strikethrough, .strikethrough, .strikethrough,
                .spoiler, .spoiler, .textLink, .textMention, .code, .pre, .pre, .blockquote, .expandableBlockquote,
                .customEmoji, .dateTime,
            ])
        #expect(message.entities[11].url == "https://t.me/x")
        #expect(message.entities[12].userID == 7)
        #expect(message.entities[15].language == "swift")
        #expect(message.entities[18] == Entity(.customEmoji, offset: 18, length: 2, customEmojiID: "5"))
        #expect(
            message.entities[19]
                == Entity(
                    .dateTime, offset: 20, length: 1, unixTime: 1_700_000_000, tdlibDateFlags: 52,
                    dateTimeFormat: "wDT"))
    }

    static let markupAlphabet: [String] = [
        "<b>", "</b>", "<i>", "</i>", "<u>", "<s>", "</s>", "<code>", "</code>", "<pre>", "</pre>", "<a href=\"t.me\">",
        "<a>", "</a>", "<tg-spoiler>", "</tg-spoiler>", "<span class=\"tg-spoiler\">", "</span>", "<blockquote>",
        "<blockquote expandable>", "</blockquote>", "&lt;", "&amp;", "&#", "x", "&", "<", ">", "/", " ", "\"", "'",
        "=", "é", "😀", "\n", "<tg-emoji emoji-id=\"5\">", "</tg-emoji>", "<tg-time unix=\"5\">", "</tg-time>",
        "<code class=\"language-py\">", "</>", "&#x", "1", "F", ";", "D800",
    ]

    static func randomMarkup(_ rng: inout SplitMix64) -> String {
        var s = ""
        for _ in 0..<Int(rng.next() % 24) {
            s += markupAlphabet[Int(rng.next() % UInt64(markupAlphabet.count))]
        }
        return s
    }

    static let byteAlphabet: [UInt8] =
        Array("<>/=\"' abi&#x;\nAXl1-".utf8) + [0x00, 0x0B, 0x0D, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80]

    static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
        (0..<Int(rng.next() % 48)).map { _ in byteAlphabet[Int(rng.next() % UInt64(byteAlphabet.count))] }
    }

    @Test("Random markup never traps and gives well-formed messages")
    func fuzz() {
        forAll(Self.randomMarkup, count: 3000) { MarkdownV2ParserTests.parsesCleanly(Array($0.utf8), as: .html) }
    }

    @Test("Random bytes of the markup alphabet never trap")
    func fuzzBytes() {
        forAll(Self.randomBytes, count: 3000) { MarkdownV2ParserTests.parsesCleanly($0, as: .html) }
    }
}
