import Foundation
import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

/// One input that must fail with TDLib's message at a position.
struct ErrorCase: CustomTestStringConvertible, Sendable {
    var input: String
    var reason: String
    var utf8Offset: Int
    var line: Int
    var column: Int

    var testDescription: String { String(reflecting: input) }

    /// Expects `parse` to reject `input` with a syntax error carrying this case's reason
    /// and position.
    func expectRejected(
        by parse: ([UInt8]) throws(ParseError) -> Message, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(sourceLocation: sourceLocation) {
            try parse(Array(input.utf8))
        } throws: { error in
            guard let e = error as? ParseError else { return false }
            #expect(e.reason == reason, sourceLocation: sourceLocation)
            #expect(e.kind == .syntax, sourceLocation: sourceLocation)
            #expect(e.position?.utf8Offset == utf8Offset, sourceLocation: sourceLocation)
            #expect(e.position?.line == line, sourceLocation: sourceLocation)
            #expect(e.position?.column == column, sourceLocation: sourceLocation)
            return true
        }
    }
}

/// Checks every TDLib answer kept in `Fixtures/<path>` (inputs found by differential
/// testing against TDLib), expecting more than `minimumCount` of them.
func expectOracleFixtures(_ path: String, moreThan minimumCount: Int) {
    let vectors = ConformanceVector.load(fixturesRoot.appendingPathComponent(path))
    #expect(vectors.count > minimumCount)
    for vector in vectors {
        if let why = vector.mismatch() { Issue.record("\(vector): \(why)") }
    }
}

@Suite("MarkdownV2")
struct MarkdownV2ParserTests {
    @Test(
        "Errors carry TDLib's message and the byte position",
        arguments: [
            ErrorCase(
                input: "a ||secret", reason: "Can't find end of Spoiler entity at byte offset 2", utf8Offset: 2,
                line: 1, column: 3),
            ErrorCase(
                input: "🎬 *bold", reason: "Can't find end of Bold entity at byte offset 5", utf8Offset: 5, line: 1,
                column: 6),
            ErrorCase(
                input: "ok\nnot ok.", reason: "Character '.' is reserved and must be escaped with the preceding '\\'",
                utf8Offset: 9, line: 2, column: 7),
            ErrorCase(
                input: "x\n\n_a__", reason: "Can't find end of Underline entity at byte offset 5", utf8Offset: 5,
                line: 3, column: 3),
            ErrorCase(
                input: "[link](t.me", reason: "Can't find end of a URL at byte offset 7", utf8Offset: 7, line: 1,
                column: 8),
            ErrorCase(
                input: "ж ![👍]", reason: "The entity must contain a tg://emoji or tg://time URL", utf8Offset: 10,
                line: 1, column: 11),
            ErrorCase(
                input: "![👍](tg://emoji?id=0)", reason: "Invalid tg://emoji or tg://time URL specified", utf8Offset: 8,
                line: 1, column: 9),
            ErrorCase(
                input: ">quote *bold\nafter*", reason: "Can't find end of Bold entity at byte offset 7", utf8Offset: 7,
                line: 1, column: 8),
            ErrorCase(
                input: "```python\ncode", reason: "Can't find end of PreCode entity at byte offset 0", utf8Offset: 0,
                line: 1, column: 1),
        ])
    func errors(_ c: ErrorCase) {
        c.expectRejected { bytes throws(ParseError) in try MarkdownV2Parser.parse(bytes) }
    }

    @Test("TDLib's answers to inputs found by differential testing")
    func oracleFixtures() {
        expectOracleFixtures("markdownv2/tdlib-oracle.jsonl", moreThan: 100)
    }

    @Test("Offsets count UTF-16 code units")
    func utf16Offsets() throws {
        let message = try MarkdownV2Parser.parse(Array("😀 *Привет* __漢字__ ||👩‍👩‍👧||".utf8))
        #expect(message.text == "😀 Привет 漢字 👩‍👩‍👧")
        #expect(
            message.entities == [
                Entity(.bold, offset: 3, length: 6), Entity(.underline, offset: 10, length: 2),
                Entity(.spoiler, offset: 13, length: 8),
            ])
    }

    @Test("Block quotations, expandable ones, links and custom emoji")
    func richEntities() throws {
        let input = ">quote *bold*\n>more||\n[a](tg://user?id=42) ![👍](tg://emoji?id=5368324170671202286)"
        let message = try MarkdownV2Parser.parse(Array(input.utf8))
        #expect(message.text == "quote bold\nmore\na 👍")
        #expect(
            message.entities == [
                Entity(.expandableBlockquote, offset: 0, length: 16), Entity(.bold, offset: 6, length: 4),
                Entity(.textMention, offset: 16, length: 1, userID: 42),
                Entity(.customEmoji, offset: 18, length: 2, customEmojiID: "5368324170671202286"),
            ])
    }

    /// The bytes of MarkdownV2 markup, escapes, line breaks and multi-byte text.
    static let markupAlphabet: [String] = [
        "*", "_", "__", "~", "|", "||", "`", "```", "[", "]", "(", ")", "!", ">", "\\", "\n", "\r", " ", "a", "é",
        "😀", "漢", ".", "#", "tg://emoji?id=1", "tg://user?id=7", "t.me", "tg://time?unix=9&format=dt", "py\n",
    ]

    static func randomMarkup(_ rng: inout SplitMix64) -> String {
        var s = ""
        for _ in 0..<Int(rng.next() % 40) {
            s += markupAlphabet[Int(rng.next() % UInt64(markupAlphabet.count))]
        }
        return s
    }

    static let byteAlphabet: [UInt8] =
        Array("*_~|`[]()!>\\\n\r ab.#=+-{}".utf8) + [0x00, 0x0B, 0xC3, 0xA9, 0xF0, 0x9F, 0x98, 0x80]

    static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
        (0..<Int(rng.next() % 48)).map { _ in byteAlphabet[Int(rng.next() % UInt64(byteAlphabet.count))] }
    }

    /// Parses `bytes` through ``MessageParser`` (which rejects invalid UTF-8 first, as the
    /// command line does): either a well-formed message or an error with a position.
    static func parsesCleanly(_ bytes: [UInt8], as format: InputFormat) -> Bool {
        do {
            return isWellFormed(try MessageParser.parse(bytes, from: format))
        } catch {
            return error.position.map { $0.utf8Offset <= bytes.count } ?? false
        }
    }

    @Test("Random markup never traps and gives well-formed messages")
    func fuzz() {
        forAll(Self.randomMarkup, count: 3000) { Self.parsesCleanly(Array($0.utf8), as: .markdownV2) }
    }

    @Test("Random bytes of the markup alphabet never trap")
    func fuzzBytes() {
        forAll(Self.randomBytes, count: 3000) { Self.parsesCleanly($0, as: .markdownV2) }
    }
}

/// Entities in canonical order, non-empty, inside the text and on scalar boundaries.
func isWellFormed(_ message: Message) -> Bool {
    guard Message.sorted(message.entities) == message.entities else { return false }
    let length = message.utf16Length
    for e in message.entities {
        guard e.length > 0, e.offset >= 0, e.end <= length, message.text(of: e) != nil else { return false }
    }
    return true
}
