import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

@Suite struct ANSIDotRasterTests {
    @Test(arguments: GlyphSet.allCases) func brailleBlocksAndASCIIGlyphs(_ glyphs: GlyphSet) {
        var raster = DotRaster(columns: 2, rows: 1, cellWidth: 8, cellHeight: 16, glyphs: glyphs)
        raster.plot(x: 1, y: 1, alpha: 1, color: 0xFFFFFF)  // top-left dot of cell 0
        raster.plot(x: 7, y: 15, alpha: 1, color: 0xFFFFFF)  // bottom-right dot of cell 0
        raster.plot(x: 9, y: 15, alpha: 0.05, color: 0xFFFFFF)  // too faint
        var canvas = CellCanvas(width: 2, height: 1)
        raster.draw(into: &canvas, capability: .none)
        // Braille shows the two dots; the ramps show a light of 2 (two particles at full
        // opacity): ▒ (steps of 1.5) and - (steps of 0.75).
        let expected: [GlyphSet: String] = [.braille: "⢁ ", .blocks: "▒ ", .ascii: "- "]
        #expect(canvas.lines[0] == expected[glyphs])
    }

    /// The fast particle loop gives the dots that `visibleParticles` plus the safe
    /// `plot` give, kept to each word's cells, on scenes with reveals, hides and every
    /// glyph set.
    @Test func plottingASceneMatchesTheReference() {
        let message = Message(
            text: "one two three four five six seven eight nine ten eleven",
            entities: [Entity(.spoiler, offset: 4, length: 14), Entity(.spoiler, offset: 30, length: 16)])
        let layout = LayoutEngine(wrapWidth: 20).layout(message)
        forAll(
            { rng -> (Double, Double?, Double?, UInt64, Int) in
                let at = rng.nextUnit() * 3
                let reveal = rng.next() % 2 == 0 ? rng.nextUnit() * 2 : nil
                let hide = reveal != nil && rng.next() % 2 == 0 ? reveal! + rng.nextUnit() : nil
                return (at, reveal, hide, rng.next() % 1000, Int(rng.next() % 3))
            }, count: 60
        ) { at, reveal, hide, seed, g in
            let glyphs = GlyphSet.allCases[g]
            var scene = SpoilerScene(layout: layout, preset: .dust, seed: seed)
            if let reveal { scene.reveal(word: 0, origin: SpoilerPoint(x: 40, y: 8), at: reveal) }
            if let hide { scene.hide(word: 0, at: hide) }
            scene.advance(to: at)
            let columns = layout.columns ?? 0
            let rows = layout.rows ?? 0
            var fast = DotRaster(columns: columns, rows: rows, cellWidth: 8, cellHeight: 16, glyphs: glyphs)
            fast.plotParticles(of: scene)
            var reference = DotRaster(columns: columns, rows: rows, cellWidth: 8, cellHeight: 16, glyphs: glyphs)
            let visible = scene.visibleParticles()
            for i in 0..<visible.count {
                // The dust keeps to its word's cells: nothing outside them, a particle on
                // the right or bottom edge in the last column or row.
                let r = scene.words[Int(visible.word[i])].rect
                let x = Double(visible.x[i])
                let y = Double(visible.y[i])
                guard x >= r.minX, x <= r.maxX, y >= r.minY, y <= r.maxY else { continue }
                reference.plot(
                    x: min(x, r.maxX - 1e-3), y: min(y, r.maxY - 1e-3), alpha: Double(visible.alpha[i]),
                    color: visible.color[i])
            }
            // Float and Double arithmetic may round a value at a level boundary apart.
            var differences = 0
            for i in 0..<(columns * rows)
            where fast.masks[i] != reference.masks[i] || fast.brightness[i] != reference.brightness[i] {
                differences += 1
            }
            return differences <= 1 && fast.litCount > 0 || visible.count == 0
        }
    }
}
