import SpoilerCore
import SpoilerLayout
import SpoilerRender
import Testing

/// The lower bound of hidden graphemes never exceeds the layout's count, and counts
/// every ASCII letter under a spoiler.
@Suite struct RenderLimitsCountTests {
    static let cases: [(text: String, entities: [Entity], atLeast: Int)] = [
        ("hi there", [Entity(.spoiler, offset: 3, length: 5)], 5),
        ("hi there", [], 0),
        ("hi there", [Entity(.bold, offset: 0, length: 8)], 0),
        ("a b c", [Entity(.spoiler, offset: 0, length: 5)], 3),
        ("ab  cd", [Entity(.spoiler, offset: 0, length: 2), Entity(.spoiler, offset: 1, length: 5)], 4),
        ("éa😀b", [Entity(.spoiler, offset: 0, length: 5)], 1),  // only the final b is sure
        ("e\u{301}x", [Entity(.spoiler, offset: 0, length: 3)], 1),  // e with a combining accent
        ("abc", [Entity(.spoiler, offset: 1, length: 1)], 1),
        ("abc", [Entity(.spoiler, offset: 0, length: 0)], 0),
    ]

    @Test func lowerBound() {
        let engine = LayoutEngine()
        for c in RenderLimitsCountTests.cases {
            let message = Message(text: c.text, entities: c.entities)
            let atLeast = RenderLimits.hiddenGraphemesAtLeast(in: message)
            #expect(atLeast == c.atLeast, "\(c.text.debugDescription)")
            #expect(atLeast <= RenderLimits.hiddenGraphemes(in: engine.layout(message)), "\(c.text.debugDescription)")
        }
    }

    /// The count the sweep gives, found the slow way: every UTF-16 unit's cover looked up
    /// among all the spoilers.
    static func slowCount(_ message: Message) -> Int {
        let spoilers = message.entities.filter { $0.type == .spoiler && $0.length > 0 }
        var count = 0
        var unit = 0
        let bytes = Array(message.text.utf8)
        for (k, b) in bytes.enumerated() {
            let covered = spoilers.contains { $0.offset <= unit && unit < $0.end }
            if covered && b > 0x20 && b < 0x7F && (k + 1 == bytes.count || bytes[k + 1] < 0x80) { count += 1 }
            if b & 0xC0 != 0x80 { unit += b >= 0xF0 ? 2 : 1 }
        }
        return count
    }

    /// Entities in order (read in place) and out of order (sorted by index), mixed kinds.
    @Test func theCountIsTheSameInOrderOrNot() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<300 {
            let pieces = ["a", "b ", "é", "😀", "  ", "x\u{301}"]
            var text = ""
            for _ in 0..<Int(rng.next() % 30) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
            let n = text.utf16.count
            var entities: [Entity] = []
            for _ in 0..<Int(rng.next() % 6) where n > 0 {
                let offset = Int(rng.next() % UInt64(n))
                let type: EntityType = rng.next() % 3 == 0 ? .bold : .spoiler
                entities.append(Entity(type, offset: offset, length: Int(rng.next() % UInt64(n - offset + 1))))
            }
            let ordered = Message(text: text, entities: entities)
            let shuffled = Message(text: text, unsortedEntities: ordered.entities.reversed())
            let expected = Self.slowCount(ordered)
            #expect(RenderLimits.hiddenGraphemesAtLeast(in: ordered) == expected, "\(text.debugDescription)")
            #expect(RenderLimits.hiddenGraphemesAtLeast(in: shuffled) == expected, "\(text.debugDescription)")
        }
    }

    /// A text past ``RenderLimits/maxTextBytes`` is refused before the layout, whatever
    /// its spoilers; one at the limit is not.
    @Test func theTextIsLimitedToo() {
        let atLimit = Message(text: String(repeating: "a", count: RenderLimits.maxTextBytes))
        let over = Message(text: String(repeating: "é", count: RenderLimits.maxTextBytes / 2 + 1))
        #expect(RenderLimits.problem(message: atLimit, density: 20, format: "svg") == nil)
        #expect(
            RenderLimits.problem(message: over, density: 0, format: "cast")
                == "a text of 65538 bytes: --format cast draws at most 65536 (64 KiB); "
                + "use --format html or split the message")
        // The hidden text's limit, found first, is the one named.
        let both = Message(
            text: String(repeating: "ab ", count: 25_000), entities: [Entity(.spoiler, offset: 0, length: 75_000)])
        #expect(RenderLimits.problem(message: both, density: 20, format: "svg")?.contains("hidden graphemes") == true)
    }

    @Test func problems() {
        let layout = LayoutEngine().layout(
            Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]))
        #expect(RenderLimits.problem(layout: layout, frames: 60, density: 20, format: "svg") == nil)
        #expect(
            RenderLimits.problem(layout: layout, frames: 30_000, density: 20, format: "json")
                == "5 hidden graphemes over 30000 frames: --format json animates at most 65536 grapheme-frames; "
                + "lower --duration or --fps, use --format html or split the message")
        #expect(RenderLimits.problem(layout: layout, frames: 30_000, density: 0, format: "json") == nil)
    }

    /// An animation holds two scenes and a record: a quarter of the hidden graphemes of a
    /// still, however few its frames.
    @Test func animationsTakeHalfTheHiddenGraphemes() {
        let text = String(repeating: "x", count: RenderLimits.maxAnimatedHiddenGraphemes + 1)
        let layout = LayoutEngine().layout(
            Message(text: text, entities: [Entity(.spoiler, offset: 0, length: text.utf16.count)]))
        #expect(RenderLimits.problem(layout: layout, frames: 0, density: 20, format: "svg") == nil)
        #expect(
            RenderLimits.problem(layout: layout, frames: 1, density: 20, format: "svg")
                == "1025 hidden graphemes: --format svg animates at most 1024; use --format html or split the message")
        #expect(RenderLimits.problem(layout: layout, frames: 1, density: 19.9, format: "svg") == nil)
    }

    /// With reduced motion the still pattern's dots grow with the hidden words' area: a
    /// double-width grapheme weighs twice a single-width one, density nothing.
    @Test func reducedMotionWeighsTheHiddenArea() {
        func layout(_ hidden: String) -> TextLayout {
            LayoutEngine().layout(
                Message(text: hidden, entities: [Entity(.spoiler, offset: 0, length: hidden.utf16.count)]))
        }
        let narrow = layout(String(repeating: "x", count: 600))  // 600 cells of 8 × 16 px
        let wide = layout(String(repeating: "映", count: 600))  // 1,200 cells
        #expect(RenderLimits.reducedMotionWeight(in: narrow) == 873)  // ⌈600 × 128 ÷ 88⌉
        #expect(RenderLimits.reducedMotionWeight(in: wide) == 1746)
        #expect(RenderLimits.problem(layout: wide, frames: 2, density: 20, format: "svg") == nil)
        #expect(RenderLimits.problem(layout: narrow, frames: 2, density: 20, reducedMotion: true, format: "svg") == nil)
        #expect(
            RenderLimits.problem(layout: wide, frames: 2, density: 1, reducedMotion: true, format: "svg")
                == "1746 hidden graphemes' worth of dots (--reduced-motion: one per 4 px² of a hidden word): "
                + "--format svg animates at most 1024; use --format html or split the message")
    }

    /// The screen of a terminal render: columns × rows, overflow included.
    @Test func theScreenIsLimited() {
        #expect(RenderLimits.problem(columns: 512, rows: 256, format: "cast") == nil)
        #expect(
            RenderLimits.problem(columns: 512, rows: 257, format: "cast")
                == "a screen of 512x257 cells: --format cast draws at most 131072 cells; wrap the text with --width N, "
                + "use --format html or split the message")
        #expect(RenderLimits.problem(columns: Int.max, rows: 2, format: "ansi") != nil)
        #expect(RenderLimits.problem(columns: 0, rows: Int.max, format: "ansi") == nil)
    }
}
