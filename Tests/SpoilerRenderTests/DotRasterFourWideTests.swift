import SpoilerCore
import SpoilerEffect
import SpoilerLayout
@testable import SpoilerRender
import SpoilerTestSupport
import Testing

/// The four-wide particle loop lights exactly the dots, levels, light, colours and lit
/// cells (in the same order) that the scalar loop does.
@Suite struct DotRasterFourWideTests {
    static func raster(_ layout: TextLayout, _ glyphs: GlyphSet, levels: Int) -> DotRaster {
        DotRaster(
            columns: layout.columns ?? 0, rows: layout.rows ?? 0, cellWidth: 8, cellHeight: 16, glyphs: glyphs,
            levels: levels)
    }

    @Test func fourWideLoopMatchesTheScalarLoopExactly() {
        forAll(
            { rng -> (Message, Int, Double, UInt64, Int, UInt32, Int, Double) in
                var text = ""
                var entities: [Entity] = []
                for s in 0..<(Int(rng.next() % 12) + 1) {
                    text += "w\(s) "
                    let word = String(repeating: "ab漢é", count: Int(rng.next() % 4) + 1)
                    entities.append(Entity(.spoiler, offset: text.utf16.count, length: word.utf16.count))
                    text += word + " "
                }
                let thinning: [UInt32] = [1, 1, 2, 4, 7]
                return (
                    Message(text: text, entities: entities), [16, 30, 80][Int(rng.next() % 3)],
                    [1.0, 5, 20, 100][Int(rng.next() % 4)], rng.next() % 1000, Int(rng.next() % 3),
                    thinning[Int(rng.next() % 5)], [1, 3, 8][Int(rng.next() % 3)], rng.nextUnit() * 3
                )
            }, count: 80
        ) { message, width, density, seed, g, thinning, levels, at in
            let layout = LayoutEngine(wrapWidth: width).layout(message)
            var options = SceneOptions()
            options.density = density
            var scene = SpoilerScene(layout: layout, preset: .dust, options: options, seed: seed)
            scene.advance(to: at)
            let glyphs = GlyphSet.allCases[g]
            var fast = Self.raster(layout, glyphs, levels: levels)
            var reference = Self.raster(layout, glyphs, levels: levels)
            // Twice each, so that the second frame starts from a cleared raster.
            for _ in 0..<2 {
                fast.clear()
                reference.clear()
                fast.plotParticles(of: scene, thinning: thinning, fourWide: true)
                reference.plotParticles(of: scene, thinning: thinning, fourWide: false)
                scene.step(by: 0.05)
            }
            let same =
                fast.masks == reference.masks && fast.brightness == reference.brightness
                && fast.colors == reference.colors && fast.light == reference.light
                && fast.litCount == reference.litCount
                && fast.litCells[0..<fast.litCount] == reference.litCells[0..<reference.litCount]
            if !same { Issue.record("lit \(fast.litCount) vs \(reference.litCount)") }
            return same && reference.litCount > 0 || scene.particles.count == 0
        }
    }
}
