import SpoilerCore
import SpoilerLayout
import SpoilerParser
import Testing

/// The streamed geometry of the mono model without wrapping
/// (``LayoutEngine/appendStreamedGeometry(utf8:entities:id:redact:to:)``) against the general
/// layout's JSON on generated messages: wherever the stream writes, it must write the same
/// bytes, and ``LayoutEngine/appendGeometryJSON(utf8:entities:id:redact:to:)`` must always.
@Suite struct GeometryStreamTests {
    /// Pieces of text: ASCII words, every kind of whitespace and line break, wide and
    /// combining characters, emoji sequences (ZWJs, skin tones, VS16, alone or joining what
    /// comes before), flags and lone regional indicators, CJK ideographs, Hangul
    /// syllables and their neighbours (U+4DFF, U+A000, U+ABFF, U+D780, a final jamo), controls and format characters.
    static let pieces: [String] = [
        "a", "word", "ok!", " ", "  ", "\t", "\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\u{A0}", "\u{3000}",
        "\u{2007}", "漢字", "日本", "Привет", "é", "e\u{301}", "\u{301}", "😀", "👍🏽", "👩‍👩‍👧", "🇺🇦", "🇺", "#\u{FE0F}\u{20E3}",
        "\u{2764}\u{FE0F}", "\u{1}", "\u{7F}", "\u{200B}", "\u{200D}", "각", "\u{1100}\u{1161}", "ｱ", "||", "`", "\\",
        "\u{1F3FD}", "👨‍💻", "\u{2764}", "🏳️‍🌈", "\u{200D}👧", "🇺🇦🇺", "🇦🇺",
        "\u{FE0F}", "\u{263A}\u{FE0F}", "1\u{FE0F}", "\u{2764}\u{FE0F}\u{FE0F}", "\u{A9}\u{FE0F}", "a\u{FE0F}",
        "\u{4E00}\u{9FFF}", "\u{4DFF}", "\u{A000}", "\u{4E00}\u{301}", "\u{3042}", "中文字",
        "한국어", "\u{D7A3}", "\u{D77F}\u{D780}", "한\u{11AB}", "\u{ABFF}",
    ]

    static func text(_ rng: inout SplitMix64) -> String {
        var s = ""
        for _ in 0..<Int(rng.next() % 24) { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return s
    }

    /// Entities for `text`: spoilers and code anywhere (splitting clusters, past the end,
    /// overlapping, out of order), most often in canonical order without overlaps.
    static func entities(_ rng: inout SplitMix64, utf16Count n: Int) -> [Entity] {
        var entities: [Entity] = []
        var at = -1
        for _ in 0..<Int(rng.next() % 7) {
            let offset: Int
            switch rng.next() % 8 {
            case 0: offset = Int(rng.next() % UInt64(n + 3)) - 1
            default: offset = at + Int(rng.next() % 5)
            }
            let length = Int(rng.next() % 9) - (rng.next() % 10 == 0 ? 3 : 0)
            entities.append(Entity(rng.next() % 4 == 0 ? .code : .spoiler, offset: offset, length: length))
            at = offset + max(0, length)
        }
        if rng.next() % 3 == 0 { entities.sort(by: Entity.canonicalOrder) }
        return entities
    }

    static let engines: [LayoutEngine] = [
        LayoutEngine(), LayoutEngine(model: .mono(cellWidth: 3, cellHeight: 5)),
        LayoutEngine(model: .mono(cellWidth: 1, cellHeight: 1)), LayoutEngine(wrapWidth: 7),
    ]

    /// The general layout's JSON.
    static func general(
        _ engine: LayoutEngine, _ text: [UInt8], _ entities: [Entity], id: [UInt8]?, redact: Bool
    ) -> [UInt8] {
        text.withUnsafeBufferPointer { text in
            engine.layout(utf8: text, entities: entities, includeGraphemes: false).jsonBytes(id: id, redact: redact)
        }
    }

    /// The streamed JSON, or nil where the stream declines.
    static func streamed(
        _ engine: LayoutEngine, _ text: [UInt8], _ entities: [Entity], id: [UInt8]?, redact: Bool
    ) -> [UInt8]? {
        var out = JSONOutputBuffer()
        let written = text.withUnsafeBufferPointer { text in
            func run(_ id: UnsafeBufferPointer<UInt8>?) -> Bool {
                engine.appendStreamedGeometry(utf8: text, entities: entities, id: id, redact: redact, to: &out)
            }
            return id.map { id in id.withUnsafeBufferPointer { run($0) } } ?? run(nil)
        }
        guard written else {
            #expect(out.count == 0, "the stream wrote \(out.count) bytes and declined")
            return nil
        }
        return out.withUnsafeBytes { Array($0) }
    }

    @Test func streamedGeometryIsTheGeneralLayoutsJSON() {
        var rng = SplitMix64(seed: 0x6E0)
        var taken = 0
        var failures: [String] = []
        for round in 0..<6_000 {
            let text = Self.text(&rng)
            let bytes = Array(text.utf8)
            let entities = Self.entities(&rng, utf16Count: text.utf16.count)
            let engine = Self.engines[round % Self.engines.count]
            let id: [UInt8]? = round % 3 == 0 ? nil : Array("\(round)".utf8)
            let redact = round % 5 == 0
            let expected = Self.general(engine, bytes, entities, id: id, redact: redact)
            if let streamed = Self.streamed(engine, bytes, entities, id: id, redact: redact) {
                taken += 1
                if streamed != expected { failures.append("\(text.debugDescription) \(entities)") }
            }
            var out = JSONOutputBuffer()
            bytes.withUnsafeBufferPointer { text in
                engine.appendGeometryJSON(utf8: text, entities: entities, id: nil, redact: redact, to: &out)
            }
            if out.withUnsafeBytes({ Array($0) }) != Self.general(engine, bytes, entities, id: nil, redact: redact) {
                failures.append("appendGeometryJSON: \(text.debugDescription) \(entities)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) messages differ, first: \(failures.first ?? "")")
        // The generator must reach the stream often, or the test proves little.
        #expect(taken > 2_000, "only \(taken) messages took the stream")
    }

    /// Messages of plain markup, as `spoiler layout --ndjson` meets them.
    @Test func plainMarkupMessagesStreamAsTheyLayOut() throws {
        var rng = SplitMix64(seed: 0x6E1)
        var failures: [String] = []
        var taken = 0
        for _ in 0..<3_000 {
            let message = try PlainParser.parse(Self.text(&rng))
            let bytes = Array(message.text.utf8)
            let expected = Self.general(LayoutEngine(), bytes, message.entities, id: [0x37], redact: false)
            if let streamed = Self.streamed(LayoutEngine(), bytes, message.entities, id: [0x37], redact: false) {
                taken += 1
                if streamed != expected { failures.append(message.text.debugDescription) }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) messages differ, first: \(failures.first ?? "")")
        #expect(taken > 2_500, "only \(taken) messages took the stream")
    }

    /// Cells of 2²⁰ pixels, so that words past the 2,048th column have coordinates of 2³¹
    /// and more: their objects go through the checked writer (coordinates as doubles) and
    /// the others through the unchecked one, in one message, and both write what the
    /// general layout writes.
    @Test func wordsPast2To31PixelsAreWrittenAsTheGeneralLayoutWritesThem() throws {
        let engine = LayoutEngine(model: .mono(cellWidth: 1 << 20, cellHeight: 1 << 20))
        for (pad, redact) in [(10, false), (2_047, false), (2_048, true), (3_000, false), (5_000, true)] {
            let text = "||near|| " + String(repeating: "a", count: pad) + " ||far away||\n||next line||"
            let message = try PlainParser.parse(text)
            let bytes = Array(message.text.utf8)
            let streamed = try #require(
                Self.streamed(engine, bytes, message.entities, id: [0x31], redact: redact), "declined at \(pad)")
            let general = Self.general(engine, bytes, message.entities, id: [0x31], redact: redact)
            #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: general, as: UTF8.self), "\(pad)")
        }
    }

    @Test func longMessagesAndOtherModelsTakeTheGeneralWay() {
        let many = Array(String(repeating: "a\n", count: 40).utf8)
        #expect(Self.streamed(LayoutEngine(), many, [], id: nil, redact: false) == nil)
        let short = Array("a b".utf8)
        #expect(Self.streamed(LayoutEngine(wrapWidth: 80), short, [], id: nil, redact: false) == nil)
        #expect(Self.streamed(LayoutEngine(), short, [], id: nil, redact: false) != nil)
        let overlapping = [Entity(.spoiler, offset: 0, length: 3), Entity(.spoiler, offset: 1, length: 1)]
        #expect(Self.streamed(LayoutEngine(), short, overlapping, id: nil, redact: false) == nil)
    }
}
