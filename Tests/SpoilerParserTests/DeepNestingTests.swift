import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

/// The MarkdownV2 and HTML scanners keep their open entities packed (issue 17): offsets
/// as small steps from the entity below, far ones and attributes on the side. Deep
/// nestings with short and long text between the markup must read back exactly, and an
/// entity left open must be named with its own offset.
@Suite struct DeepNestingTests {
    /// A markup language: each entity type's opening and closing markup.
    struct Markup: Sendable {
        var open: @Sendable (EntityType) -> String
        var close: @Sendable (EntityType) -> String
        var url: String?
    }

    static let markdownV2 = Markup(
        open: { pairedMarker($0) }, close: { pairedMarker($0) }, url: nil)
    static let html = Markup(
        open: { "<\(tagName($0))\($0 == .textLink ? " href=\"http://example.com/a\"" : "")>" },
        close: { "</\(tagName($0))>" }, url: "http://example.com/a")

    static func pairedMarker(_ type: EntityType) -> String {
        switch type {
        case .bold: "*"
        case .italic: "_"
        case .underline: "__"
        case .strikethrough: "~"
        default: "||"
        }
    }

    static func tagName(_ type: EntityType) -> String {
        switch type {
        case .bold: "b"
        case .italic: "i"
        case .underline: "u"
        case .strikethrough: "s"
        case .textLink: "a"
        default: "tg-spoiler"
        }
    }

    /// Text between markup: usually a character or two, sometimes hundreds of bytes (past
    /// what a packed step holds), in one- to four-byte characters.
    static func text(_ rng: inout SplitMix64) -> String {
        let pieces = ["a", "é", "中", "👍"]
        let count = rng.next() % 8 == 0 ? Int(rng.next() % 400) + 200 : Int(rng.next() % 3) + 1
        var s = ""
        for _ in 0..<count { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return s
    }

    /// A chain of `depth` nested entities, each with text on both sides of what it holds,
    /// written in `markup`, and the message it reads as.
    static func nesting(_ rng: inout SplitMix64, markup: Markup, types: [EntityType]) -> (String, Message) {
        let depth = Int(rng.next() % 300) + 1
        var source = ""
        var text = ""
        var opened: [(EntityType, Int)] = []
        var entities: [Entity] = []
        for _ in 0..<depth {
            // Not the type just opened: in MarkdownV2 its marker would close it.
            var type = types[Int(rng.next() % UInt64(types.count))]
            if type == opened.last?.0 { type = types[(types.firstIndex(of: type)! + 1) % types.count] }
            source += markup.open(type)
            opened.append((type, text.utf16.count))
            let t = Self.text(&rng)
            source += t
            text += t
        }
        for (type, start) in opened.reversed() {
            let t = Self.text(&rng)
            source += t
            text += t
            source += markup.close(type)
            entities.append(
                Entity(type, offset: start, length: text.utf16.count - start, url: type == .textLink ? markup.url : nil)
            )
        }
        return (source, Message(text: text, entities: entities))
    }

    @Test func deepMarkdownV2NestingsReadBack() {
        forAll(
            {
                Self.nesting(
                    &$0, markup: Self.markdownV2, types: [.bold, .italic, .underline, .strikethrough, .spoiler])
            }, count: 60
        ) {
            source, expected in
            guard let m = try? MarkdownV2Parser.parse(source) else { return false }
            return m.text == expected.text && Set(m.entities) == Set(expected.entities)
                && m.entities.count == expected.entities.count
        }
    }

    @Test func deepHTMLNestingsWithAttributesReadBack() {
        forAll(
            { Self.nesting(&$0, markup: Self.html, types: [.bold, .italic, .underline, .textLink, .spoiler]) },
            count: 60
        ) {
            source, expected in
            guard let m = try? HTMLParser.parse(source) else { return false }
            return m.text == expected.text && Set(m.entities) == Set(expected.entities)
                && m.entities.count == expected.entities.count
        }
    }

    @Test func anEntityLeftOpenDeepDownIsNamedWithItsOffset() {
        // 1000 entities open, a long run of text after the 500th: the innermost, at the
        // end, is the one named.
        var source = String(repeating: "*_~", count: 500) + String(repeating: "é", count: 300)
        source += String(repeating: "*_~", count: 500)
        let offset = source.utf8.count - 1
        #expect(throws: ParseError.self) { try MarkdownV2Parser.parse(source) }
        do {
            _ = try MarkdownV2Parser.parse(source)
        } catch {
            #expect(error.reason.contains("Strikethrough entity at byte offset \(offset)"))
        }
        var html = String(repeating: "<b><i>", count: 400) + String(repeating: "中", count: 200) + "<u>"
        html += String(repeating: "<b><i>", count: 400)
        do {
            _ = try HTMLParser.parse(html + "</b>" + "</u>")
            Issue.record("a mismatched end tag was read")
        } catch {
            #expect(error.reason.contains("expected \"</i>\""))
        }
    }
}
