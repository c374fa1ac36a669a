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

    /// The densities drawn from: the default (twice as likely), below it down to none,
    /// and above it.
    static let densities: [Double] = [0, 0.5, 1, 2, 5, 10, 15, 20, 20, 30, 40, 100, 400]

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
        return Case(
            message: Message(text: text, entities: entities), wrapWidth: widths[Int(rng.next() % 5)], glyphs: glyphs,
            capability: capabilities[Int(rng.next() % 4)],
            density: densities[Int(rng.next() % UInt64(densities.count))],
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

    /// The longest a cell of a hidden word may stay as it is: 0.5 s, five frames 0.1 s
    /// apart. Longer, and the word looks frozen.
    static let longestStill = 0.5

    /// Every cell of every hidden word holds dust in every frame; every such cell
    /// changes at least once in every ``longestStill`` seconds; and no cell outside the
    /// words' rectangles and the shown text holds dust.
    @Test(arguments: GlyphSet.allCases) func everyHiddenWordIsCoveredByMovingDustAndNothingElseIs(_ glyphs: GlyphSet) {
        forAll({ Self.generate(&$0, glyphs: glyphs) }, count: 30) { c in
            let problem = Self.checkCoveredAndMoving(c)
            if let problem { Issue.record("\(problem)") }
            return problem == nil
        }
    }

    /// At every density `--density` allows, from none to 1,000, every cell of every
    /// hidden word holds dust in every frame and keeps changing: a low density makes
    /// sparser dust, never a gap that shows where the text is.
    @Test(arguments: [0, 0.5, 1, 2, 3, 5, 8, 10, 15, 19] as [Double])
    func everyCellHoldsDustAtLowDensities(_ density: Double) {
        forAll(
            { rng -> Case in
                var c = Self.generate(&rng, glyphs: GlyphSet.allCases[Int(rng.next() % 3)])
                c.density = density
                return c
            }, count: 12
        ) { c in
            let problem = Self.checkCoveredAndMoving(c)
            if let problem { Issue.record("\(problem)") }
            return problem == nil
        }
    }

    /// What ``everyHiddenWordIsCoveredByMovingDustAndNothingElseIs(_:)`` checks of one case,
    /// or nil when it holds.
    static func checkCoveredAndMoving(_ c: Case) -> String? {
        // Per word, per cell: what it showed last and the frame since when.
        var previous: [[CanvasCell]?] = []
        var stillSince: [[Int]] = []
        return Self.frames(c) { frame, canvas, layout, scene in
            if previous.isEmpty {
                previous = Array(repeating: nil, count: layout.words.count)
                stillSince = Array(repeating: [], count: layout.words.count)
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
                if let before = previous[w] {
                    for k in now.indices {
                        if before[k] != now[k] {
                            stillSince[w][k] = frame
                        } else if Double(frame - stillSince[w][k]) / 10 >= Self.longestStill - 1e-9 {
                            return
                                "hidden word \(w) \(String(reflecting: box.text)): the cell at column \(cells[k].0), "
                                + "row \(cells[k].1) has not changed since frame \(stillSince[w][k])"
                        }
                    }
                } else {
                    stillSince[w] = Array(repeating: frame, count: now.count)
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
    }
}
