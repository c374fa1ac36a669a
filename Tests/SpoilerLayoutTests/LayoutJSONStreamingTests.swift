import SpoilerCore
import SpoilerLayout
import SpoilerTestSupport
import Testing

/// The geometry JSON is written a piece at a time (issue 17): `spoiler layout` of a message
/// with many spoilers holds neither its word boxes nor its JSON whole, and the pieces are
/// the JSON the layout gives.
@Suite struct LayoutJSONStreamingTests {
    /// A message of `count` spoilers, words of mixed scripts, some wrapping.
    static func longMessage(spoilers count: Int) -> Message {
        var text = ""
        var entities: [Entity] = []
        let words = ["ab", "é👍", "中文字", "x\u{301}y", "long-word-that-wraps-here"]
        for k in 0..<count {
            text += "t "
            let start = text.utf16.count
            text += words[k % words.count] + " " + words[(k + 1) % words.count]
            entities.append(Entity(.spoiler, offset: start, length: text.utf16.count - start))
            text += k % 7 == 0 ? "\n" : " "
        }
        return Message(text: text, entities: entities)
    }

    @Test func piecesMakeTheLayoutsJSONAndStaySmall() {
        let message = Self.longMessage(spoilers: 4000)
        for engine in [LayoutEngine(), LayoutEngine(wrapWidth: 30)] {
            for redact in [false, true] {
                let whole = engine.layout(message, includeGraphemes: false).jsonBytes(redact: redact)
                var joined: [UInt8] = []
                var largest = 0
                engine.writeJSON(of: message, redact: redact) { piece in
                    joined += piece
                    largest = max(largest, piece.count)
                }
                #expect(joined == whole)
                #expect(whole.count > 4 << 16, "long enough to need pieces")
                #expect(largest < (1 << 16) + (1 << 14))
            }
        }
    }

    @Test func aLayoutsJSONInPiecesIsItsJSON() {
        let layout = LayoutEngine(wrapWidth: 20).layout(Self.longMessage(spoilers: 3000), includeGraphemes: false)
        var joined: [UInt8] = []
        var largest = 0
        layout.writeJSON(id: Array("7".utf8), redact: false) { piece in
            joined += piece
            largest = max(largest, piece.count)
        }
        #expect(joined == layout.jsonBytes(id: Array("7".utf8)))
        #expect(largest < (1 << 16) + (1 << 15))
    }

    @Test func shortMessagesComeInOnePiece() {
        forAll({ LayoutJSONStreamingTests.longMessage(spoilers: Int($0.next() % 5)) }, count: 20) { message in
            var pieces: [[UInt8]] = []
            LayoutEngine().writeJSON(of: message, redact: false) { pieces.append($0) }
            return pieces == [LayoutEngine().layout(message).jsonBytes()]
        }
    }

    /// The streamed JSON of `message`, joined, and the largest piece.
    static func streamed(_ engine: LayoutEngine, _ message: Message, redact: Bool) -> (json: [UInt8], largest: Int) {
        var joined: [UInt8] = []
        var largest = 0
        engine.writeJSON(of: message, redact: redact) { piece in
            joined += piece
            largest = max(largest, piece.count)
        }
        return (joined, largest)
    }

    /// Where `json` first differs from `expected`, with some text around it; nil when they
    /// are the same (a short message, where `#expect(a == b)` would print both arrays).
    static func difference(_ json: [UInt8], _ expected: [UInt8]) -> String? {
        guard json != expected else { return nil }
        var k = 0
        while k < json.count && k < expected.count && json[k] == expected[k] { k += 1 }
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, k - 40)..<min(bytes.count, k + 40)], as: UTF8.self)
        }
        return "byte \(k) of \(json.count) (expected \(expected.count)): \(around(json)) | expected \(around(expected))"
    }

    /// Byte for byte the whole layout's JSON, on generated messages: every kind of
    /// whitespace, line breaks, wide, combining and control characters, entities anywhere
    /// (splitting clusters, overlapping, out of order), the mono model at several cell sizes
    /// and wrap widths and a BDF font, redacted or not.
    @Test func streamedJSONIsTheWholeLayoutsOnGeneratedMessages() {
        var rng = SplitMix64(seed: 0x1A7)
        let engines =
            PlacementStreamTests.engines + [
                LayoutEngine(model: .mono(cellWidth: 3, cellHeight: 5), wrapWidth: 4),
                LayoutEngine(model: .mono(cellWidth: 1, cellHeight: 1)),
            ]
        var failures: [String] = []
        for round in 0..<6_000 {
            var text = GeometryStreamTests.text(&rng)
            if round % 4 == 0 { text += GeometryStreamTests.text(&rng) + GeometryStreamTests.text(&rng) }
            let entities = GeometryStreamTests.entities(&rng, utf16Count: text.utf16.count)
            let message = Message(text: text, unsortedEntities: entities)
            let engine = engines[round % engines.count]
            let redact = round % 3 == 0
            let whole = engine.layout(message, includeGraphemes: false).jsonBytes(redact: redact)
            if Self.streamed(engine, message, redact: redact).json != whole {
                failures.append(
                    "\(text.debugDescription) \(entities) wrap \(engine.wrapWidth.map(String.init) ?? "none")")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) messages differ, first: \(failures.first ?? "")")
    }

    /// Over 65,536 lines, which are not kept but read again after the size.
    @Test func manyLinesAreWrittenAsTheWholeLayoutsLines() throws {
        let text = String(repeating: "ab ||c d||\n", count: 70_000)
        let message = try LayoutFixtures.message(text)
        for engine in [LayoutEngine(), LayoutEngine(wrapWidth: 2)] {
            let whole = engine.layout(message, includeGraphemes: false).jsonBytes()
            let (json, largest) = Self.streamed(engine, message, redact: false)
            let difference = Self.difference(json, whole)
            #expect(difference == nil, "wrap \(engine.wrapWidth.map(String.init) ?? "none"): \(difference ?? "")")
            #expect(largest < (1 << 16) + (1 << 13))
        }
    }

    /// A hidden word far longer than a piece, with characters that are escaped and
    /// characters of several bytes across the places where its text is cut.
    @Test func longWordsAreWrittenInPieces() {
        // 25 bytes, no whitespace: C0 and C1 controls, bidirectional controls (escaped as
        // `\u…`), a quote and a backslash, and characters of 2, 3 and 4 bytes.
        let unit = "\"é\u{202E}x\u{90}\u{1}漢😀\\e\u{301}\u{2066}y"
        #expect(unit.utf8.count == 25)
        for count in [1, 300, 3_000] {
            let word = String(repeating: unit, count: count)
            let text = "see " + word + " " + word + "\n" + word
            let message = Message(text: text, entities: [Entity(.spoiler, offset: 4, length: text.utf16.count - 4)])
            for engine in [LayoutEngine(), LayoutEngine(wrapWidth: 50)] {
                let whole = engine.layout(message, includeGraphemes: false).jsonBytes()
                let (json, largest) = Self.streamed(engine, message, redact: false)
                let difference = Self.difference(json, whole)
                #expect(
                    difference == nil,
                    "\(count) units, wrap \(engine.wrapWidth.map(String.init) ?? "none"): \(difference ?? "")")
                #expect(largest < (1 << 16) + (1 << 13))
            }
        }
    }
}
