import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTestSupport
import Testing

/// Drawing only some rows of a layout (the screen of a long document) gives exactly
/// those rows of the whole frame.
@Suite struct ANSIFrameBuilderRowsTests {
    @Test func someRowsAreTheSameRowsOfTheWholeFrame() throws {
        forAll({ rng -> (String, Int, Int, Int, Bool) in
            var text = ""
            for _ in 0..<Int(rng.next() % 6 + 1) {
                text += randomMixedText(&rng) + (rng.next() % 2 == 0 ? "\n" : " ||")
            }
            let width = Int(rng.next() % 25) + 4
            return (text, width, Int(rng.next() % 12), Int(rng.next() % 12), rng.next() % 2 == 0)
        }) { input in
            let (text, width, a, b, revealSome) = input
            guard let message = try? MessageParser.parse(Array(text.utf8), from: .plain) else { return true }
            let layout = LayoutEngine(wrapWidth: width).layout(message)
            var scene = SpoilerScene(layout: layout, preset: .dust, seed: 3)
            if revealSome, !scene.words.isEmpty { scene.reveal(word: 0) }
            scene.advance(to: 1.5)
            var builder = ANSIFrameBuilder(layout: layout, options: ANSIFrameOptions(capability: .trueColor))
            let height = builder.rows + 2
            var whole = CellCanvas(width: builder.columns, height: height)
            builder.draw(scene, into: &whole)
            // The same builder again, so that state left by the whole frame is exercised.
            let rows = min(a, b)..<max(a, b)
            var part = CellCanvas(width: builder.columns, height: height)
            builder.draw(scene, into: &part, rows: rows)
            for row in 0..<height {
                for column in 0..<whole.width {
                    let expected = rows.contains(row) ? whole[column, row] : CanvasCell.blank
                    let got = part[column, row]
                    if got.symbol & CanvasCell.clusterFlag != 0 || expected.symbol & CanvasCell.clusterFlag != 0 {
                        if part.text(of: got) != whole.text(of: expected) && rows.contains(row) { return false }
                        continue
                    }
                    if got != expected { return false }
                }
            }
            return true
        }
    }

    @Test func rowsOutsideTheLayoutDrawNothing() {
        let message = Message(text: "one\ntwo secret\nthree", entities: [Entity(.spoiler, offset: 8, length: 6)])
        let layout = LayoutEngine().layout(message)
        var builder = ANSIFrameBuilder(layout: layout, options: ANSIFrameOptions(capability: .none))
        let scene = SpoilerScene(layout: layout, preset: .dust, seed: 1)
        var canvas = CellCanvas(width: 10, height: 3)
        for rows in [5..<9, 3..<3, -4..<0, 2..<1000] {
            canvas.clear()
            builder.draw(scene, into: &canvas, rows: rows)
            #expect(canvas.lines[0] == String(repeating: " ", count: 10), "\(rows)")
            #expect(!canvas.lines.joined().contains("secret"))
        }
        canvas.clear()
        builder.draw(scene, into: &canvas, rows: 1..<2)
        #expect(canvas.lines[0].allSatisfy { $0 == " " } && canvas.lines[2].allSatisfy { $0 == " " })
        #expect(canvas.lines[1].hasPrefix("two "))
        #expect(!canvas.lines[1].contains("secret"))
    }
}
