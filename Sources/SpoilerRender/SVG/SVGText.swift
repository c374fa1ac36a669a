import SpoilerCore
import SpoilerLayout

/// Draws the text of a layout into SVG: `<text>` per grapheme in a monospace family for
/// `mono`, glyph pixels as one `<path>` per grapheme for bitmap fonts.
struct SVGText {
    let layout: TextLayout
    let font: BitmapFont?
    let style: SVGStyle

    /// The font size that makes a monospace font's advance (0.6 em for DejaVu Sans Mono,
    /// Menlo and Consolas) fill one cell.
    var fontSize: Double { Double(layout.metrics.cellWidth) / 0.6 }

    /// Opens a group with the text's paint (and `mask`, if given).
    func open(_ w: inout SVGWriter, mask: String? = nil) {
        w.raw("<g")
        if let mask {
            w.raw(" mask=\"url(#")
            w.raw(mask)
            w.raw(")\"")
        }
        w.raw(" fill=\"")
        w.color(style.text)
        w.raw("\"")
        if font == nil {
            w.raw(" font-family=\"")
            w.text(style.fontFamily)
            w.raw("\" font-size=\"")
            w.number(fontSize)
            w.raw("\"")
        }
        w.raw(">\n")
    }

    /// Draws every grapheme for which `include` holds.
    ///
    /// Whitespace and zero-width graphemes draw nothing.
    func draw(_ w: inout SVGWriter, where include: (PlacedGrapheme) -> Bool) {
        for g in layout.graphemes where include(g) {
            guard g.line >= 0, g.line < layout.lines.count else { continue }
            let top = layout.lines[g.line].y
            if let font {
                drawGlyph(&w, g, font: font, top: top)
                continue
            }
            let shown = g.display
            if shown.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { continue }
            w.raw("<text x=\"")
            w.number(g.x)
            w.raw("\" y=\"")
            w.number(top + layout.metrics.ascent)
            w.raw("\">")
            w.text(shown)
            w.raw("</text>\n")
        }
    }

    private func drawGlyph(_ w: inout SVGWriter, _ g: PlacedGrapheme, font: BitmapFont, top: Int) {
        if g.display.isEmpty || g.display.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) { return }
        var d: [UInt8] = []
        if let glyph = font.glyph(forGrapheme: g.display) {
            // One path of horizontal runs: M x y h n v 1 h -n z.
            var runStart = -1
            var runY = 0
            var last = -2
            func flush() {
                if runStart >= 0 {
                    let n = last - runStart + 1
                    d.append(contentsOf: "M\(g.x + runStart) \(top + runY)h\(n)v1h-\(n)z".utf8)
                }
                runStart = -1
            }
            glyph.forEachInkedPixel(ascent: font.ascent) { px, py in
                if py == runY && px == last + 1 && runStart >= 0 {
                    last = px
                } else {
                    flush()
                    runStart = px
                    runY = py
                    last = px
                }
            }
            flush()
        } else {
            // A replacement box: the outline of the default advance × line height.
            let bw = max(g.width, 2)
            let bh = font.lineHeight
            d.append(
                contentsOf: "M\(g.x) \(top)h\(bw)v\(bh)h-\(bw)zM\(g.x + 1) \(top + 1)v\(bh - 2)h\(bw - 2)v-\(bh - 2)z"
                    .utf8)
        }
        guard !d.isEmpty else { return }
        w.raw("<path d=\"")
        w.bytes.append(contentsOf: d)
        w.raw("\"/>\n")
    }
}
