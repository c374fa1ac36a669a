import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

/// What a person sees of hidden words in live terminal frames: every cell of every
/// hidden word holds dust in every frame, each word's dust keeps changing, and no dust
/// lies outside the words' rectangles.
@Suite struct DustCoverageTests {
    /// One generated message and how it is shown.
    struct Case: CustomStringConvertible {
        var message: Message
        var wrapWidth: Int?
        var glyphs: GlyphSet
        var capability: ColorCapability
        var density: Double
        var seed: UInt64
        /// A word revealed at 0.3 s and hidden again at 0.6 s, if any.
        var revealed: Int?

        var description: String {
            "Case(text: \(String(reflecting: message.text)), entities: \(message.entities.map { "\($0.offset)+\($0.length)" }), "
                + "wrap: \(wrapWidth.map(String.init) ?? "none"), glyphs: \(glyphs), capability: \(capability), "
                + "density: \(density), seed: \(seed), revealed: \(revealed.map(String.init) ?? "none"))"
        }
    }

    /// Graphemes a hidden word is made of: Latin, Cyrillic, wide CJK and emoji, combining marks.
    static let graphemes = ["a", "Z", "q", "ж", "Щ", "漢", "字", "😀", "🎬", "é", "e\u{301}", "1", "!", "?"]

    /// A message of 1–20 spoilers of 1–12 graphemes each, separated by plain words.
    static func generate(_ rng: inout SplitMix64, glyphs: GlyphSet) -> Case {
        let spoilers = Int(rng.next() % 20) + 1
        var text = ""
        var entities: [Entity] = []
        for s in 0..<spoilers {
            if s > 0 || rng.next() % 2 == 0 { text += rng.next() % 3 == 0 ? "and " : "w\(s) " }
            let count = Int(rng.next() % 12) + 1
            var word = ""
            for _ in 0..<count { word += graphemes[Int(rng.next() % UInt64(graphemes.count))] }
            entities.append(Entity(.spoiler, offset: text.utf16.count, length: word.utf16.count))
            text += word + " "
        }
        let widths: [Int?] = [nil, 16, 24, 40, 80]
        let capabilities: [ColorCapability] = [.trueColor, .palette256, .palette16, .none]
        let densities: [Double] = [20, 20, 30, 40, 100, 400]
        return Case(
            message: Message(text: text, entities: entities), wrapWidth: widths[Int(rng.next() % 5)], glyphs: glyphs,
            capability: capabilities[Int(rng.next() % 4)], density: densities[Int(rng.next() % 6)],
            seed: rng.next() % 10_000, revealed: rng.next() % 3 == 0 ? Int(rng.next() % UInt64(spoilers)) : nil)
    }

    /// The frames of `c` from 0 to 2 s, 0.1 s apart, as a live player draws them
    /// (one builder, one scene advanced in place), each checked by `check` against the
    /// layout and scene of that moment.
    static func frames(
        _ c: Case, _ check: (_ frame: Int, _ canvas: CellCanvas, _ layout: TextLayout, _ scene: SpoilerScene) -> String?
    ) -> String? {
        let layout = LayoutEngine(wrapWidth: c.wrapWidth).layout(c.message)
        var options = SceneOptions()
        options.density = c.density
        var scene = SpoilerScene(layout: layout, preset: .dust, options: options, seed: c.seed)
        if let w = c.revealed {
            scene.reveal(word: w, at: 0.3)
            scene.hide(word: w, at: 0.6)
        }
        var builder = ANSIFrameBuilder(
            layout: layout, options: ANSIFrameOptions(capability: c.capability, glyphs: c.glyphs))
        var canvas = CellCanvas(width: builder.columns, height: builder.rows)
        for frame in 0...20 {
            scene.advance(to: Double(frame) / 10)
            canvas.clear()
            builder.draw(scene, into: &canvas)
            if let problem = check(frame, canvas, layout, scene) { return "frame \(frame): \(problem)" }
        }
        return nil
    }

    /// The cells of each layout word, as (column, row) pairs.
    static func cells(of box: WordBox) -> [(Int, Int)] {
        guard let column = box.column, let count = box.columns else { return [] }
        return (column..<(column + count)).map { ($0, box.line) }
    }

    /// The longest a hidden word's dust may stay as it is. A word of one cell has few
    /// particles, and a cell's glyph can stay put for a few frames while they drift
    /// inside one dot or one step of the ramp; longer, and the word looks frozen.
    /// Checked for every braille word, and for half-block and ASCII words of three
    /// cells or more.
    static let longestStill = 1.5

    /// Every cell of every hidden word holds dust in every frame; every hidden word's
    /// dust changes at least once in every ``longestStill`` seconds; and no cell outside
    /// the words' rectangles and the shown text holds dust.
    @Test(arguments: GlyphSet.allCases) func everyHiddenWordIsCoveredByMovingDustAndNothingElseIs(_ glyphs: GlyphSet) {
        forAll({ Self.generate(&$0, glyphs: glyphs) }, count: 30) { c in
            var previous: [[CanvasCell]?] = []
            var stillSince: [Int] = []
            let problem = Self.frames(c) { frame, canvas, layout, scene in
                if previous.isEmpty {
                    previous = Array(repeating: nil, count: layout.words.count)
                    stillSince = Array(repeating: 0, count: layout.words.count)
                }
                var inWord = [Bool](repeating: false, count: canvas.width * canvas.height)
                for (w, box) in layout.words.enumerated() {
                    let cells = Self.cells(of: box)
                    for (column, row) in cells { inWord[row * canvas.width + column] = true }
                    guard scene.isHidden(word: w) else {
                        previous[w] = nil
                        continue
                    }
                    for (column, row) in cells where canvas[column, row].symbol == 0x20 {
                        return
                            "hidden word \(w) \(String(reflecting: box.text)) has no dust at column \(column), row \(row)"
                    }
                    let now = cells.map { canvas[$0.0, $0.1] }
                    // A ramp cell is one glyph of four or seven: a word of one or two such
                    // cells can hold its glyphs longer (see the CHANGELOG's known limits).
                    let checksMotion = !c.glyphs.usesBrightnessRamp || cells.count >= 3
                    if checksMotion, let before = previous[w], before == now {
                        if Double(frame - stillSince[w]) / 10 >= Self.longestStill - 1e-9 {
                            return
                                "hidden word \(w) \(String(reflecting: box.text)) has not changed since frame \(stillSince[w])"
                        }
                    } else {
                        stillSince[w] = frame
                    }
                    previous[w] = now
                }
                for g in layout.graphemes where g.word == nil {
                    for column in g.column..<(g.column + max(g.columns, 1)) where column < canvas.width {
                        inWord[g.line * canvas.width + column] = true
                    }
                }
                for row in 0..<canvas.height {
                    for column in 0..<canvas.width where !inWord[row * canvas.width + column] {
                        let symbol = canvas[column, row].symbol
                        if symbol != 0x20 && symbol != CanvasCell.continuation {
                            return "dust at column \(column), row \(row), outside every word"
                        }
                    }
                }
                return nil
            }
            if let problem { Issue.record("\(problem)") }
            return problem == nil
        }
    }
}
