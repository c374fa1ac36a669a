import SpoilerCore
import SpoilerLayout

/// Draws the text of a layout into SVG.
///
/// `mono`: one `<text>` per run (consecutive graphemes of one line with the same
/// formatting), its glyphs placed on the cell grid by an `x` list, so that a browser
/// selects, searches and reads the run as words. A grapheme of more than one UTF-16 unit
/// (an emoji, a letter with a combining mark) gets a `<text>` of its own, since an `x`
/// list positions every unit and would pull a cluster apart. Bitmap fonts: glyph pixels,
/// one `<path>` per grapheme. Bold, italic, underline and strikethrough are drawn as a
/// terminal draws them (``FormattingSweep``): a bold weight (a bitmap glyph doubled one
/// pixel to the right), an italic style (a bitmap glyph slanted about its baseline), and
/// one-pixel lines under the run and through its middle.
struct SVGText {
    let layout: TextLayout
    let font: BitmapFont?
    let style: SVGStyle
    /// The formatting of each grapheme of `layout`, by index.
    let attributes: [CellAttributes]

    init(layout: TextLayout, font: BitmapFont?, style: SVGStyle, formatting: [Entity]) {
        self.layout = layout
        self.font = font
        self.style = style
        var sweep = FormattingSweep(formatting)
        attributes = layout.graphemes.map { sweep.attributes(at: $0.utf16Offset) }
    }

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
            w.raw("\" xml:space=\"preserve\"")
        }
        w.raw(">\n")
    }

    /// Draws every grapheme for which `include` holds.
    ///
    /// Whitespace and zero-width graphemes draw nothing of their own; a space after a
    /// run's words stays in it, so that a reader or a search sees the words apart.
    func draw(_ w: inout SVGWriter, where include: (PlacedGrapheme) -> Bool) {
        var run: [Int] = []
        func flush(_ w: inout SVGWriter) {
            if !run.isEmpty { drawRun(&w, run) }
            run.removeAll(keepingCapacity: true)
        }
        for (i, g) in layout.graphemes.enumerated() {
            guard include(g), g.line >= 0, g.line < layout.lines.count else {
                flush(&w)
                continue
            }
            if let font {
                flush(&w)
                drawGlyph(&w, g, font: font, attributes: attributes[i])
                continue
            }
            if g.display.isEmpty { continue }
            if let first = run.first {
                let previous = layout.graphemes[run[run.count - 1]]
                // A space keeps the words of a run apart for a reader whatever its formatting,
                // unless its own line (underline, strikethrough) would show.
                let lines: CellAttributes = [.underline, .strikethrough]
                let sameLook =
                    attributes[i] == attributes[first]
                    || (isBlank(g) && attributes[i].isDisjoint(with: lines)
                        && attributes[first].isDisjoint(with: lines))
                let joins =
                    g.line == previous.line && sameLook && isSingleUnit(g)
                    && isSingleUnit(layout.graphemes[first]) && run[run.count - 1] == i - 1
                if !joins { flush(&w) }
            }
            if run.isEmpty && isBlank(g) { continue }
            run.append(i)
            if !isSingleUnit(g) { flush(&w) }
        }
        flush(&w)
    }

    /// Whether a grapheme draws nothing (spaces, a tab's spaces).
    private func isBlank(_ g: PlacedGrapheme) -> Bool {
        g.display.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    /// Whether every UTF-16 unit of the grapheme's display is a character of its own that
    /// an `x` list can place (one unit, or a tab's spaces).
    private func isSingleUnit(_ g: PlacedGrapheme) -> Bool {
        g.display.utf16.count == 1 || (isBlank(g) && g.display.unicodeScalars.allSatisfy { $0 == " " })
    }

    /// One `<text>` for the graphemes at `indices` (one line, one formatting).
    private func drawRun(_ w: inout SVGWriter, _ indices: [Int]) {
        let first = layout.graphemes[indices[0]]
        let a = attributes[indices[0]]
        let top = layout.lines[first.line].y
        w.raw("<text x=\"")
        var n = 0
        for i in indices {
            let g = layout.graphemes[i]
            let units = g.display.utf16.count
            let step = units > 1 ? g.width / units : 0
            for k in 0..<(isSingleUnit(g) ? units : 1) {
                if n > 0 { w.raw(" ") }
                w.number(g.x + k * step)
                n += 1
            }
        }
        w.raw("\" y=\"")
        w.number(top + layout.metrics.ascent)
        w.raw("\"")
        if a.contains(.bold) { w.raw(" font-weight=\"bold\"") }
        if a.contains(.italic) { w.raw(" font-style=\"italic\"") }
        w.raw(">")
        for i in indices { w.text(layout.graphemes[i].display) }
        w.raw("</text>\n")
        let last = layout.graphemes[indices[indices.count - 1]]
        decorations(&w, a, x: first.x, width: last.x + last.width - first.x, top: top)
    }

    /// Underline and strikethrough: one-pixel lines across `width` pixels from `x`.
    private func decorations(_ w: inout SVGWriter, _ a: CellAttributes, x: Int, width: Int, top: Int) {
        let ascent = font?.ascent ?? layout.metrics.ascent
        var rows: [Int] = []
        if a.contains(.underline) { rows.append(top + ascent + 1) }
        if a.contains(.strikethrough) { rows.append(top + ascent - max(ascent * 3 / 10, 1)) }
        for y in rows {
            w.raw("<rect x=\"")
            w.number(x)
            w.raw("\" y=\"")
            w.number(y)
            w.raw("\" width=\"")
            w.number(width)
            w.raw("\" height=\"1\"/>\n")
        }
    }

    private func drawGlyph(_ w: inout SVGWriter, _ g: PlacedGrapheme, font: BitmapFont, attributes a: CellAttributes) {
        let top = layout.lines[g.line].y
        if g.display.isEmpty || isBlank(g) {
            decorations(&w, a, x: g.x, width: g.width, top: top)
            return
        }
        var d: [UInt8] = []
        let passes = a.contains(.bold) ? [0, 1] : [0]
        if let glyph = font.glyph(forGrapheme: g.display) {
            // One path of horizontal runs: M x y h n v 1 h -n z (twice, a pixel apart, for bold).
            for shift in passes {
                var runStart = -1
                var runY = 0
                var last = -2
                func flush() {
                    if runStart >= 0 {
                        let n = last - runStart + 1
                        d.append(contentsOf: "M\(g.x + runStart + shift) \(top + runY)h\(n)v1h-\(n)z".utf8)
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
            }
        } else {
            // A replacement box: the outline of the default advance × line height.
            let bw = max(g.width, 2)
            let bh = font.lineHeight
            d.append(
                contentsOf: "M\(g.x) \(top)h\(bw)v\(bh)h-\(bw)zM\(g.x + 1) \(top + 1)v\(bh - 2)h\(bw - 2)v-\(bh - 2)z"
                    .utf8)
        }
        if !d.isEmpty {
            w.raw("<path d=\"")
            w.bytes.append(contentsOf: d)
            w.raw("\"")
            if a.contains(.italic) {
                // Slanted about the baseline, as a terminal's synthetic italic.
                let base = top + font.ascent
                w.raw(" transform=\"translate(0 ")
                w.number(base)
                w.raw(") skewX(-12) translate(0 -")
                w.number(base)
                w.raw(")\"")
            }
            w.raw("/>\n")
        }
        decorations(&w, a, x: g.x, width: g.width, top: top)
    }
}
