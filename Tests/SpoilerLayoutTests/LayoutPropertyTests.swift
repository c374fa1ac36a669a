import SpoilerCore
import SpoilerLayout
import SpoilerTestSupport
import Testing

/// Properties that hold for every layout (STYLE: property tests).
@Suite struct LayoutPropertyTests {
    struct Input: CustomStringConvertible {
        var message: Message
        var wrapWidth: Int?
        var description: String {
            "wrap \(wrapWidth.map(String.init) ?? "none") \(String(reflecting: message.text)) \(message.entities.map { "\($0.type.rawValue)@\($0.offset)+\($0.length)" })"
        }
    }

    /// Random mixed-script text with up to three entities (mostly spoilers) at random UTF-16
    /// offsets, which may split clusters and surrogate pairs' neighbours, and a random wrap.
    static func input(_ rng: inout SplitMix64, wrapUnit: Int) -> Input {
        let text = randomMixedText(&rng, maxPieces: 16)
        let n = text.utf16.count
        var entities: [Entity] = []
        for _ in 0..<Int(rng.next() % 4) {
            let offset = Int(rng.next() % UInt64(n + 1))
            let length = Int(rng.next() % UInt64(n - offset + 1))
            entities.append(Entity(rng.next() % 5 == 0 ? .bold : .spoiler, offset: offset, length: length))
        }
        let wrap = rng.next() % 3 == 0 ? nil : Int(rng.next() % 12 + 1) * wrapUnit
        return Input(message: Message(text: text, entities: entities), wrapWidth: wrap)
    }

    static func check(_ layout: TextLayout, _ input: Input) -> Bool {
        let text = input.message.text
        let utf16Count = text.utf16.count
        // Graphemes tile the text, in order, and say exactly what it says.
        var offset = 0
        for g in layout.graphemes {
            guard g.utf16Offset == offset, g.utf16Length > 0 else { return false }
            offset += g.utf16Length
        }
        guard offset == utf16Count, layout.graphemes.map(\.text).joined() == text else { return false }
        guard layout.graphemes.count == text.count else { return false }
        // No raw control character is ever drawn.
        for g in layout.graphemes {
            for s in g.display.unicodeScalars
            where s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value)
                || (0x2066...0x2069).contains(s.value)
            {
                return false
            }
        }
        // Lines are in order and in range.
        guard layout.lines.count >= 1, layout.height == layout.lines.count * layout.metrics.lineHeight else {
            return false
        }
        var lineEnd = 0
        for (i, line) in layout.lines.enumerated() {
            guard line.index == i, line.utf16Offset >= lineEnd, line.utf16Length >= 0,
                line.utf16Offset + line.utf16Length <= utf16Count, line.width <= layout.width,
                line.y == i * layout.metrics.lineHeight
            else { return false }
            lineEnd = line.utf16Offset + line.utf16Length
        }
        // Graphemes stay on their line and inside the layout.
        for g in layout.graphemes {
            guard g.line >= 0, g.line < layout.lines.count, g.x >= 0, g.width >= 0, g.x + g.width <= layout.width
            else { return false }
        }
        // Wrapping: no line is wider than the wrap width, unless one grapheme alone is.
        if let wrap = input.wrapWidth {
            let scale = layout.metrics.model == .mono ? layout.metrics.cellWidth : 1
            for line in layout.lines where line.width > wrap * scale {
                let onLine = layout.graphemes.filter { $0.line == line.index && $0.width > 0 }
                guard onLine.contains(where: { $0.width > wrap * scale }) else { return false }
            }
        }
        // Word boxes: inside the bounds, offsets in range, inside their entity's line,
        // no overlap on a line, and their text is their graphemes'.
        let bounds = SpoilerRect(x: 0, y: 0, width: Double(layout.width), height: Double(layout.height))
        for (i, w) in layout.words.enumerated() {
            guard w.rect.minX >= bounds.minX, w.rect.minY >= bounds.minY, w.rect.maxX <= bounds.maxX,
                w.rect.maxY <= bounds.maxY, w.rect.width >= 0,
                w.rect.y == Double(w.line * layout.metrics.lineHeight),
                w.rect.height == Double(layout.metrics.lineHeight)
            else { return false }
            guard w.utf16Offset >= 0, w.utf16Length > 0, w.utf16Offset + w.utf16Length <= utf16Count else {
                return false
            }
            let e = input.message.entities[w.entity]
            guard e.type == .spoiler, w.utf16Offset < e.offset + e.length, w.utf16Offset + w.utf16Length > e.offset
            else { return false }
            let mine = layout.graphemes.filter {
                $0.utf16Offset >= w.utf16Offset && $0.utf16Offset < w.utf16Offset + w.utf16Length
            }
            guard mine.count == w.graphemes, mine.map(\.text).joined() == w.text,
                mine.allSatisfy({ $0.line == w.line })
            else { return false }
            if layout.metrics.model == .mono {
                guard let c = w.column, let n = w.columns, Double(c * layout.metrics.cellWidth) == w.rect.x,
                    Double(n * layout.metrics.cellWidth) == w.rect.width
                else { return false }
            }
            for other in layout.words[(i + 1)...] where other.line == w.line && other.entity == w.entity {
                if other.rect.minX < w.rect.maxX && w.rect.minX < other.rect.maxX && other.rect.width > 0
                    && w.rect.width > 0
                {
                    return false
                }
            }
        }
        // A grapheme's word box holds it.
        for g in layout.graphemes {
            guard let i = g.word else { continue }
            let w = layout.words[i]
            guard g.utf16Offset >= w.utf16Offset, g.utf16Offset + g.utf16Length <= w.utf16Offset + w.utf16Length,
                g.line == w.line
            else { return false }
        }
        // Every non-whitespace grapheme that an entity touches is in a word.
        for e in input.message.entities where e.type == .spoiler && e.length > 0 {
            for g in layout.graphemes
            where g.utf16Offset < e.offset + e.length && g.utf16Offset + g.utf16Length > e.offset
                && !g.text.unicodeScalars.allSatisfy({ $0.properties.isWhitespace })
            {
                guard g.word != nil else { return false }
            }
        }
        // Redacted geometry holds no hidden word's text.
        let redacted = String(decoding: layout.jsonBytes(redact: true), as: UTF8.self)
        if redacted.contains("\"text\"") { return false }
        return true
    }

    @Test func monoLayoutsHoldTheirInvariants() {
        forAll({ Self.input(&$0, wrapUnit: 1) }, count: 1500) { input in
            Self.check(LayoutEngine(wrapWidth: input.wrapWidth).layout(input.message), input)
        }
    }

    @Test func fontLayoutsHoldTheirInvariants() throws {
        let font = try BitmapFont.parse(LayoutFixtures.fixtureBytes("tiny.bdf"), file: "tiny.bdf")
        forAll({ Self.input(&$0, wrapUnit: 6) }, count: 800) { input in
            Self.check(LayoutEngine(model: .font(font), wrapWidth: input.wrapWidth).layout(input.message), input)
        }
    }

    @Test func geometryIsTheSameWithAndWithoutGraphemes() {
        forAll({ Self.input(&$0, wrapUnit: 1) }, count: 300) { input in
            let engine = LayoutEngine(wrapWidth: input.wrapWidth)
            var full = engine.layout(input.message)
            full.graphemes = []
            return full == engine.layout(input.message, includeGraphemes: false)
        }
    }

    @Test func clustersAreSwiftsCharacters() {
        // Swift's String and utf8proc implement the same UAX #29 rules (apart from the
        // Indic conjunct rule GB9c, which no piece here exercises), so the layout's clusters,
        // fast paths included, must be the string's Characters.
        let pieces =
            mixedScriptPieces + [
                "가", "각", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{D7B0}", "\u{D7CB}", "\u{200D}", "\u{FE0F}",
                "\u{1F3FD}", "\u{1F1FA}", "\u{301}", "\u{903}", "\u{600}", "\r", "\r\n", "\u{1B}", "\u{85}",
                "\u{200B}", "❤", "🔥", "👩", "x", "\u{3000}", "\u{A0}",
            ]
        forAll(
            { rng -> String in
                (0..<Int(rng.next() % 12 + 1)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            }, count: 2000
        ) { text in
            LayoutEngine().layout(Message(text: text)).graphemes.map(\.text) == text.map(String.init)
        }
    }

    @Test func asciiFastPathAgreesWithTheScanner() {
        // The same ASCII text laid out alone, and with a non-ASCII grapheme after every
        // character (which sends every cluster through the utf8proc scanner), gives the
        // same columns for the ASCII characters.
        forAll(
            { rng -> String in
                String(
                    (0..<Int(rng.next() % 40 + 1)).map { _ in Character(Unicode.Scalar(UInt8(rng.next() % 95 + 32))) })
            }, count: 300
        ) { text in
            let plain = LayoutEngine().layout(Message(text: text)).graphemes.map(\.columns)
            let mixed = LayoutEngine().layout(Message(text: text.map { "\($0)ж" }.joined())).graphemes
            return plain == stride(from: 0, to: mixed.count, by: 2).map { mixed[$0].columns }
        }
    }
}
