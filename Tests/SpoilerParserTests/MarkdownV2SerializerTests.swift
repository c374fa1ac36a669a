import Foundation
import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

/// Random messages that MarkdownV2 and HTML can both say exactly, and a few that only HTML
/// can.
enum MessageGenerator {
    /// Text pieces: mixed scripts, plus every character that is markup somewhere.
    static let markupPieces: [String] = [
        "*", "_", "__", "~", "|", "`", "[", "]", "(", ")", "!", ">", "#", "+", "-", "=", "{", "}", ".", "\\", "<",
        "&", "\"", "'", "&lt;", "\r", "\n",
    ]

    static func randomText(_ rng: inout SplitMix64) -> String {
        var s = ""
        for _ in 0..<Int(rng.next() % 8) + 1 {
            if rng.next() % 3 == 0 {
                s += markupPieces[Int(rng.next() % UInt64(markupPieces.count))]
            } else {
                s += randomMixedText(&rng, maxPieces: 4)
            }
        }
        return s
    }

    static let links = [
        "http://t.me/", "https://telegram.org/blog?x=1#y", "http://example.com/a(b)c\\d", "tg://resolve?domain=x",
    ]
    static let languages = ["swift", "c++", "пайтон", "a\\b"]

    /// A random entity of a type that may go in `context` over [offset, offset + length).
    static func randomEntity(
        _ rng: inout SplitMix64, offset: Int, length: Int, excluded: Set<EntityType>
    ) -> Entity? {
        let types: [EntityType] = [
            .bold, .italic, .underline, .strikethrough, .spoiler, .code, .pre, .textLink, .textMention, .customEmoji,
            .dateTime,
        ].filter { !excluded.contains($0) }
        guard !types.isEmpty else { return nil }
        let type = types[Int(rng.next() % UInt64(types.count))]
        switch type {
        case .pre:
            let language = rng.next() % 2 == 0 ? nil : languages[Int(rng.next() % UInt64(languages.count))]
            return Entity(.pre, offset: offset, length: length, language: language)
        case .textLink:
            return Entity(.textLink, offset: offset, length: length, url: links[Int(rng.next() % UInt64(links.count))])
        case .textMention:
            return Entity(.textMention, offset: offset, length: length, userID: Int64(rng.next() % 1_000_000_000) + 1)
        case .customEmoji:
            return Entity(
                .customEmoji, offset: offset, length: length, customEmojiID: String(Int64(rng.next() >> 1) | 1))
        case .dateTime:
            let flags = rng.next() % 3 == 0 ? 1 : Int(rng.next() % 32) * 2
            return Entity(
                .dateTime, offset: offset, length: length, unixTime: Int64(rng.next() % UInt64(Int32.max)) + 1,
                tdlibDateFlags: flags, dateTimeFormat: TelegramLink.dateTimeFormat(flags: flags))
        default:
            return Entity(type, offset: offset, length: length)
        }
    }

    /// Properly nested entities inside [start, end) of UTF-16 `boundaries` (scalar starts),
    /// none of a splittable type inside another of the same type, nothing inside code.
    static func randomForest(
        _ rng: inout SplitMix64, boundaries: [Int], start: Int, end: Int, excluded: Set<EntityType>, depth: Int,
        into entities: inout [Entity]
    ) {
        let inside = boundaries.filter { $0 >= start && $0 <= end }
        guard depth < 4, inside.count >= 2 else { return }
        var cuts = Set<Int>()
        for _ in 0..<Int(rng.next() % 5) { cuts.insert(inside[Int(rng.next() % UInt64(inside.count))]) }
        let sorted = cuts.sorted()
        var k = 0
        while k + 1 < sorted.count {
            let a = sorted[k]
            let b = sorted[k + 1]
            k += 2
            guard let e = randomEntity(&rng, offset: a, length: b - a, excluded: excluded) else { continue }
            entities.append(e)
            if e.type == .pre {
                // Only `code` can go inside `pre`.
                let allowed = Set(EntityType.allCases).subtracting([.code])
                randomForest(
                    &rng, boundaries: boundaries, start: a, end: b, excluded: allowed, depth: depth + 1, into: &entities
                )
            }
            if e.type == .code || e.type == .pre { continue }
            var inner = excluded
            if [.bold, .italic, .underline, .strikethrough, .spoiler].contains(e.type) { inner.insert(e.type) }
            randomForest(
                &rng, boundaries: boundaries, start: a, end: b, excluded: inner, depth: depth + 1, into: &entities)
        }
    }

    static func boundaries(of text: String) -> [Int] {
        var result: [Int] = []
        var u = 0
        for s in text.unicodeScalars {
            result.append(u)
            u += s.utf16.count
        }
        result.append(u)
        return result
    }

    /// A message with properly nested entities and block quotations on whole lines, as
    /// TDLib orders them.
    static func randomMessage(_ rng: inout SplitMix64) -> Message {
        var text = ""
        var quotations: [Entity] = []
        for line in 0..<Int(rng.next() % 4) + 1 {
            var body = randomText(&rng)
            body = body.replacingOccurrences(of: "\n", with: " ")
            let isLast = rng.next() % 3 == 0
            let lineText = isLast || line == 3 ? body : body + "\n"
            let start = text.utf16.count
            text += lineText
            if rng.next() % 3 == 0 {
                let type: EntityType = rng.next() % 2 == 0 ? .blockquote : .expandableBlockquote
                quotations.append(Entity(type, offset: start, length: lineText.utf16.count))
            }
            if isLast { break }
        }
        // Join neighbouring quoted lines now and then, as one quotation of several lines.
        var joined: [Entity] = []
        for q in quotations {
            if var last = joined.last, last.end == q.offset, rng.next() % 2 == 0 {
                last.length += q.length
                joined[joined.count - 1] = last
            } else {
                joined.append(q)
            }
        }
        let bounds = boundaries(of: text)
        let units = Array(text.utf16)
        var entities = joined
        var gaps: [(Int, Int, Bool)] = []
        var at = 0
        for q in joined {
            if q.offset > at { gaps.append((at, q.offset, false)) }
            // Entities inside a quotation end before its final line break.
            gaps.append((q.offset, units[q.end - 1] == 0x0A ? q.end - 1 : q.end, true))
            at = q.end
        }
        if at < text.utf16.count { gaps.append((at, text.utf16.count, false)) }
        for (a, b, _) in gaps where b > a {
            randomForest(&rng, boundaries: bounds, start: a, end: b, excluded: [], depth: 0, into: &entities)
        }
        return Message(text: text, unsortedEntities: TDLibEntityOrder.sorted(entities))
    }
}

/// `message` with entities that TDLib's order leaves tied (same offset, length and type
/// priority, such as two links of one range) put in one fixed order: TDLib sorts them with
/// `std::sort`, which leaves their order unspecified.
func withTiesOrdered(_ message: Message) -> Message {
    let entities = message.entities.sorted { a, b in
        if TDLibEntityOrder.precedes(a, b) { return true }
        if TDLibEntityOrder.precedes(b, a) { return false }
        return Message(text: "", unsortedEntities: [a]).jsonString < Message(text: "", unsortedEntities: [b]).jsonString
    }
    return Message(text: message.text, unsortedEntities: entities)
}

/// Whether `serialize(message)` parses back as `message` (ties aside); records what differs.
func readsBack(
    _ message: Message, serialize: (Message) -> String, parse: ([UInt8]) throws(ParseError) -> Message
) -> Bool {
    let markup = serialize(message)
    let back: Message
    do {
        back = try parse(Array(markup.utf8))
    } catch {
        Issue.record("\(String(reflecting: markup)) is rejected: \(error.reason)")
        return false
    }
    guard withTiesOrdered(back) == withTiesOrdered(message) else {
        Issue.record("\(String(reflecting: markup)) reads back as \(back.jsonString), not \(message.jsonString)")
        return false
    }
    return true
}

@Suite("MarkdownV2 serializer")
struct MarkdownV2SerializerTests {
    static func roundTrips(_ message: Message) -> Bool {
        readsBack(
            message, serialize: MarkdownV2Serializer.serialize,
            parse: { bytes throws(ParseError) in try MarkdownV2Parser.parse(bytes) })
    }

    @Test("Generated messages read back the same")
    func property() {
        forAll(MessageGenerator.randomMessage, count: 2000) { Self.roundTrips($0) }
    }

    /// The HTML vectors are left out: some hold what MarkdownV2 cannot say (a quotation in
    /// the middle of a line, `code` inside `pre`).
    @Test("Every accepted TDLib MarkdownV2 vector reads back the same")
    func conformanceMessages() {
        var count = 0
        for vector in ConformanceTests.vectors where vector.ok && vector.format == .markdownV2 {
            let message = Message(text: vector.text ?? "", unsortedEntities: vector.entities)
            #expect(Self.roundTrips(message), "\(vector)")
            count += 1
        }
        #expect(count == 200)
    }

    @Test("Escapes every reserved character")
    func escaping() {
        let message = Message(text: "1+1=2. (a) [b] {c} #d -e !f |g ~h `i *j _k >l \\m")
        #expect(
            MarkdownV2Serializer.serialize(message)
                == "1\\+1\\=2\\. \\(a\\) \\[b\\] \\{c\\} \\#d \\-e \\!f \\|g \\~h \\`i \\*j \\_k \\>l \\\\m")
        #expect(Self.roundTrips(message))
    }

    @Test("Keeps neighbouring italic and code apart")
    func separators() {
        let message = Message(
            text: "abcd",
            entities: [
                Entity(.italic, offset: 0, length: 1), Entity(.italic, offset: 1, length: 1),
                Entity(.code, offset: 2, length: 1), Entity(.code, offset: 3, length: 1),
            ])
        #expect(MarkdownV2Serializer.serialize(message) == "_a_[]_b_`c`[]`d`")
        #expect(Self.roundTrips(message))
    }

    @Test("Splits crossing entities and widens quotations to whole lines")
    func unrepresentable() throws {
        let crossing = Message(
            text: "abc", entities: [Entity(.bold, offset: 0, length: 2), Entity(.italic, offset: 1, length: 2)])
        #expect(MarkdownV2Serializer.serialize(crossing) == "*a_b_*_c_")
        let back = try MarkdownV2Parser.parse(Array(MarkdownV2Serializer.serialize(crossing).utf8))
        #expect(
            back.entities == [
                Entity(.bold, offset: 0, length: 2), Entity(.italic, offset: 1, length: 1),
                Entity(.italic, offset: 2, length: 1),
            ])

        let midLine = Message(text: "one two\nthree", entities: [Entity(.blockquote, offset: 4, length: 2)])
        #expect(MarkdownV2Serializer.serialize(midLine) == ">one two\nthree")
        #expect(
            try MarkdownV2Parser.parse(Array(MarkdownV2Serializer.serialize(midLine).utf8)).entities
                == [Entity(.blockquote, offset: 0, length: 8)])

        let insideCode = Message(
            text: "code", entities: [Entity(.code, offset: 0, length: 4), Entity(.bold, offset: 1, length: 2)])
        #expect(MarkdownV2Serializer.serialize(insideCode) == "`code`")
    }

    @Test("Quotations: several lines, expandable, two in a row")
    func quotations() {
        let message = Message(
            text: "a\nb\nc\nd",
            entities: [
                Entity(.expandableBlockquote, offset: 0, length: 4), Entity(.bold, offset: 2, length: 1),
                Entity(.blockquote, offset: 4, length: 3),
            ])
        #expect(MarkdownV2Serializer.serialize(message) == ">a\n>*b*||\n[]>c\n>d")
        #expect(Self.roundTrips(message))
    }
}
