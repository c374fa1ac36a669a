import SpoilerCore
import SpoilerRender
import Testing

/// The reader's bottom bar and wheel, drawn into a canvas row and read back.
@Suite struct ReaderBarTests {
    /// Draws `bar` on a one-row canvas `width` wide and returns the canvas.
    static func drawn(
        _ bar: ReaderBar, width: Int = 40, theme: ReaderTheme = .green, capability: ColorCapability = .trueColor,
        glyphs: GlyphSet = .braille
    ) -> CellCanvas {
        var canvas = CellCanvas(width: width, height: 1)
        bar.draw(into: &canvas, row: 0, theme: theme, capability: capability, glyphs: glyphs)
        return canvas
    }

    @Test func theBarShowsThePercentageAndFillsInEighths() {
        let canvas = ReaderBarTests.drawn(ReaderBar(fraction: 0.42, isCompact: false, showsTopButton: false))
        // Track 6..<35 (29 cells): 0.42 × 232 eighths = 97 = 12 cells and one eighth.
        let expected = "  42% " + String(repeating: "█", count: 12) + "▏" + String(repeating: "░", count: 16) + "     "
        #expect(canvas.lines == [expected])
        let accent = CellColor.rgb(ReaderTheme.green.accent!)
        let dim = CellColor.rgb(ReaderTheme.green.dim!)
        let barBackground = CellColor.rgb(ReaderTheme.green.barBackground!)
        #expect(canvas[2, 0].foreground == accent)
        #expect(canvas[6, 0].foreground == accent && canvas[18, 0].foreground == accent)
        #expect(canvas[19, 0].foreground == dim)
        for c in 0..<40 { #expect(canvas[c, 0].background == barBackground, "column \(c)") }
    }

    @Test func theBarIsEmptyAtTheTopAndFullAtTheEnd() {
        let top = ReaderBarTests.drawn(ReaderBar(fraction: 0, isCompact: false, showsTopButton: false))
        #expect(top.lines == ["   0% " + String(repeating: "░", count: 29) + "     "])
        let end = ReaderBarTests.drawn(ReaderBar(fraction: 1, isCompact: false, showsTopButton: true))
        #expect(end.lines == [" 100% " + String(repeating: "█", count: 29) + " [↑] "])
        #expect(end[37, 0].attributes.contains(.bold))
    }

    @Test func theButtonIsWhereTheLayoutSays() {
        let bar = ReaderBar(fraction: 1, isCompact: false, showsTopButton: true)
        let layout = bar.layout(width: 40)
        #expect(layout.topButton == 36..<39)
        #expect(layout.percent == 1..<5)
        #expect(layout.track == 6..<35)
        #expect(layout.wheel == nil)
        let canvas = ReaderBarTests.drawn(bar)
        #expect(layout.topButton!.map { canvas.text(of: canvas[$0, 0]) }.joined() == "[↑]")
        #expect(ReaderBar(fraction: 0.5, isCompact: false, showsTopButton: false).layout(width: 40).topButton == nil)
    }

    @Test func theWheelSitsAtTheLowerRightWithThePercentage() {
        let bar = ReaderBar(fraction: 0.5, isCompact: true, showsTopButton: false)
        #expect(bar.layout(width: 40).wheel == 32..<34)
        #expect(bar.layout(width: 40).track == nil)
        let canvas = ReaderBarTests.drawn(bar)
        // Half read: the right half of the ring lit (⡱), the left half dim (⢎).
        #expect(canvas.lines == [String(repeating: " ", count: 32) + "⢎⡱  50% "])
        #expect(canvas[32, 0].foreground == .rgb(ReaderTheme.green.dim!))
        #expect(canvas[33, 0].foreground == .rgb(ReaderTheme.green.accent!))
        // Over the screen's background, not the bar's.
        #expect(canvas[0, 0].background == .rgb(ReaderTheme.green.background!))
        let end = ReaderBarTests.drawn(ReaderBar(fraction: 1, isCompact: true, showsTopButton: true))
        #expect(end.lines == [String(repeating: " ", count: 28) + "[↑] ⢎⡱ 100% "])
        #expect(ReaderBar(fraction: 1, isCompact: true, showsTopButton: true).layout(width: 40).topButton == 28..<31)
    }

    @Test func theRingLightsOneDotPerEighthClockwise() {
        var previous = -1
        var looks: Set<[UInt32]> = []
        for step in 0...100 {
            let bar = ReaderBar(fraction: Double(step) / 100, isCompact: true, showsTopButton: false)
            #expect(bar.litDots >= previous)
            previous = bar.litDots
            let canvas = ReaderBarTests.drawn(bar)
            looks.insert([
                canvas[32, 0].symbol, canvas[32, 0].foreground.raw, canvas[33, 0].symbol, canvas[33, 0].foreground.raw,
            ])
        }
        #expect(ReaderBar(fraction: 0.124, isCompact: true, showsTopButton: false).litDots == 0)
        #expect(ReaderBar(fraction: 0.125, isCompact: true, showsTopButton: false).litDots == 1)
        #expect(ReaderBar(fraction: 1, isCompact: true, showsTopButton: false).litDots == 8)
        // 12.5 %: only the top-right dot (dot 1 of the right cell, U+2801).
        let first = ReaderBarTests.drawn(ReaderBar(fraction: 0.13, isCompact: true, showsTopButton: false))
        #expect(first[33, 0].symbol == 0x2801)
        // 62.5 %: the whole right half and the bottom dot of the left half (dot 8, 0x80).
        let five = ReaderBarTests.drawn(ReaderBar(fraction: 0.63, isCompact: true, showsTopButton: false))
        #expect(five[32, 0].symbol == 0x2880 && five[33, 0].symbol == 0x2871)
        #expect(looks.count == 9, "one look per eighth")
    }

    @Test func percentagesRoundDownSoOnlyTheEndIsAHundred() {
        #expect(ReaderBar(fraction: 0.999, isCompact: false, showsTopButton: false).percent == 99)
        #expect(ReaderBar(fraction: 1, isCompact: false, showsTopButton: false).percent == 100)
        #expect(ReaderBar(fraction: 0.009, isCompact: false, showsTopButton: false).percent == 0)
        #expect(ReaderBar(fraction: .nan, isCompact: false, showsTopButton: false).percent == 0)
        #expect(ReaderBar(fraction: 7, isCompact: false, showsTopButton: false).percent == 100)
        #expect(ReaderBar(fraction: -1, isCompact: false, showsTopButton: false).percent == 0)
    }

    @Test func asciiGlyphsAndNoColourStillShowTheProgress() {
        let canvas = ReaderBarTests.drawn(
            ReaderBar(fraction: 0.5, isCompact: false, showsTopButton: false), theme: .mono, capability: .none,
            glyphs: .ascii)
        // 14½ of 29 cells: the half cell counts as filled.
        #expect(
            canvas.lines == ["  50% " + String(repeating: "#", count: 15) + String(repeating: "-", count: 14) + "     "]
        )
        for c in 0..<40 {
            #expect(canvas[c, 0].foreground == .default && canvas[c, 0].background == .default)
        }
        // The green theme on a terminal without colour draws in its colours too.
        let green = ReaderBarTests.drawn(
            ReaderBar(fraction: 0.5, isCompact: true, showsTopButton: false), capability: .none)
        #expect(green.cells.allSatisfy { $0.foreground == .default && $0.background == .default })
        let wheel = ReaderBarTests.drawn(
            ReaderBar(fraction: 0.5, isCompact: true, showsTopButton: false), glyphs: .blocks)
        #expect(wheel.lines == [String(repeating: " ", count: 33) + "◑  50% "])
    }

    @Test func narrowRowsNeverTrapAndKeepPartsApart() {
        for width in 0...24 {
            for compact in [false, true] {
                for button in [false, true] {
                    let bar = ReaderBar(fraction: 0.7, isCompact: compact, showsTopButton: button)
                    let l = bar.layout(width: width)
                    let parts = [l.percent, l.track, l.wheel, l.topButton].compactMap { $0 }
                    for p in parts { #expect(p.lowerBound >= 0 && p.upperBound <= width, "width \(width)") }
                    for (i, a) in parts.enumerated() {
                        for b in parts[(i + 1)...] { #expect(!a.overlaps(b), "width \(width): \(a) \(b)") }
                    }
                    var canvas = CellCanvas(width: width, height: 2)
                    bar.draw(into: &canvas, row: 1, theme: .amber, capability: .palette256, glyphs: .braille)
                    bar.draw(into: &canvas, row: 5, theme: .amber, capability: .palette256, glyphs: .braille)
                    #expect(canvas.lines[0] == String(repeating: " ", count: width))
                }
            }
        }
    }

    @Test func themesAreFoundByName() {
        #expect(ReaderTheme.builtIn["green"] == .green)
        #expect(ReaderTheme.builtIn["none"] == .mono)
        #expect(ReaderTheme.builtInNames == ReaderTheme.builtIn.keys.sorted())
        let style = ReaderTheme.green.textStyle(.palette256)
        #expect(style.foreground == .indexed(Palette.nearest256(ReaderTheme.green.text!)))
        #expect(ReaderTheme.mono.textStyle(.trueColor) == .plain)
    }
}
