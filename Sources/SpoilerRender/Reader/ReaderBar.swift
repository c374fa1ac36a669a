/// The reader's progress indicator on the bottom row: a bar with the percentage read,
/// or, after a while without input, a small circular wheel with the percentage at the
/// lower right; with an "↑" button beside either at the end of the text.
///
/// Pure drawing into a ``CellCanvas``: ``layout(width:)`` says where each part goes (the
/// caller hit-tests clicks with it), ``draw(into:row:theme:capability:glyphs:)`` draws
/// it. Columns are 0-based cells of the canvas row.
///
/// The bar (width W ≥ 16): one blank column, the percentage right-aligned in four
/// columns, a blank, the track, a blank, `[↑]` (or blanks), one blank. The track fills
/// from the left in eighths of a cell (`▏`…`█`) over `░`, or `#` over `-` with ASCII
/// glyphs. The wheel: a ring of eight braille dots lit clockwise from the top, one dot
/// per eighth read (`◔ ◑ ◕ ●` with block glyphs, none with ASCII), a blank and the
/// percentage, with `[↑]` to its left.
///
/// ```swift
/// let bar = ReaderBar(fraction: 0.42, isCompact: false, showsTopButton: false)
/// bar.draw(into: &canvas, row: canvas.height - 1, theme: .green, capability: .trueColor, glyphs: .braille)
/// ```
public struct ReaderBar: Sendable, Hashable {
    /// How much has been read, 0 … 1 (clamped).
    public var fraction: Double
    /// The small wheel instead of the bar.
    public var isCompact: Bool
    /// Whether the "↑" (back to the top) button shows.
    public var showsTopButton: Bool

    /// A bar showing `fraction` read (clamped to 0 … 1; NaN counts as 0), as the small wheel
    /// when `isCompact`, with the "↑" button when `showsTopButton`.
    public init(fraction: Double, isCompact: Bool, showsTopButton: Bool) {
        self.fraction = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        self.isCompact = isCompact
        self.showsTopButton = showsTopButton
    }

    /// The percentage shown: rounded down, so 100 only when all is read.
    public var percent: Int {
        fraction >= 1 ? 100 : min(99, Int(fraction * 100))
    }

    /// Where the parts of the indicator go on a row `width` cells wide.
    public struct Layout: Sendable, Hashable {
        /// The columns of the percentage text (four, right-aligned: `  7%`, `100%`).
        public var percent: Range<Int>?
        /// The columns of the bar's track (the bar only, when there is room).
        public var track: Range<Int>?
        /// The columns of the wheel (the compact form only).
        public var wheel: Range<Int>?
        /// The columns of the `[↑]` button, when it shows.
        public var topButton: Range<Int>?
    }

    /// The columns of each part on a row `width` cells wide.
    public func layout(width: Int) -> Layout {
        var l = Layout()
        if isCompact {
            // "[↑] ⢎⡱ 42% " at the right edge.
            let percentStart = width - 5
            guard percentStart >= 0 else { return l }
            l.percent = percentStart..<(percentStart + 4)
            let wheelStart = percentStart - 3
            if wheelStart >= 0 { l.wheel = wheelStart..<(wheelStart + 2) }
            let buttonStart = percentStart - 7
            if showsTopButton && buttonStart >= 0 { l.topButton = buttonStart..<(buttonStart + 3) }
            return l
        }
        if width < 5 { return l }
        l.percent = 1..<5
        if showsTopButton && width >= 10 { l.topButton = (width - 4)..<(width - 1) }
        let trackEnd = width - 5
        if trackEnd - 6 >= 4 { l.track = 6..<trackEnd }
        return l
    }

    /// Draws the indicator on `row` of `canvas`: the bar over the whole row (in the
    /// theme's bar background), or the wheel at its right end over the screen background.
    ///
    /// - Parameters:
    ///   - theme: the colours, reduced to `capability`.
    ///   - glyphs: braille and blocks draw the track in eighths and the wheel; ASCII
    ///     draws `#`, `-` and no wheel.
    public func draw(
        into canvas: inout CellCanvas, row: Int, theme: ReaderTheme, capability: ColorCapability, glyphs: GlyphSet
    ) {
        guard row >= 0, row < canvas.height else { return }
        let width = canvas.width
        let l = layout(width: width)
        let background = isCompact ? theme.background : theme.barBackground
        let bg = theme.color(background, capability)
        let plain = CellStyle(background: bg)
        for c in 0..<width { canvas.put(symbol: 0x20, column: c, row: row, style: plain) }
        let accent = CellStyle(foreground: theme.color(theme.accent, capability), background: bg)
        let dim = CellStyle(foreground: theme.color(theme.dim, capability), background: bg)
        if let p = l.percent {
            let text = "\(percent)%"
            let start = p.upperBound - text.count
            canvas.write(text, column: max(p.lowerBound, start), row: row, style: accent)
        }
        if let t = l.track { drawTrack(t, into: &canvas, row: row, fill: accent, rest: dim, glyphs: glyphs) }
        if let w = l.wheel { drawWheel(w, into: &canvas, row: row, lit: accent, unlit: dim, glyphs: glyphs) }
        if let b = l.topButton {
            var style = accent
            style.attributes = .bold
            canvas.write("[↑]", column: b.lowerBound, row: row, style: style)
        }
    }

    /// The track: whole cells of fill, one partial cell in eighths, the rest as track.
    private func drawTrack(
        _ t: Range<Int>, into canvas: inout CellCanvas, row: Int, fill: CellStyle, rest: CellStyle, glyphs: GlyphSet
    ) {
        let eighths = Int((fraction * Double(t.count * 8)).rounded(.down))
        for (i, c) in t.enumerated() {
            let filled = min(max(eighths - i * 8, 0), 8)
            if glyphs == .ascii {
                canvas.put(symbol: filled >= 4 ? 0x23 : 0x2D, column: c, row: row, style: filled >= 4 ? fill : rest)
            } else if filled == 0 {
                canvas.put(symbol: 0x2591, column: c, row: row, style: rest)  // ░
            } else {
                // ▏ (U+258F, one eighth) … ▉ (U+2589, seven eighths), █ (U+2588) whole.
                canvas.put(symbol: filled == 8 ? 0x2588 : 0x2590 - UInt32(filled), column: c, row: row, style: fill)
            }
        }
    }

    /// The dots of the braille ring, clockwise from the top, as (x, y) in the 4 × 4 dots
    /// of two cells.
    static let ring: [(x: Int, y: Int)] = [(2, 0), (3, 1), (3, 2), (2, 3), (1, 3), (0, 2), (0, 1), (1, 0)]

    /// How many of the ring's eight dots are lit: one per eighth read.
    public var litDots: Int { fraction >= 1 ? 8 : Int(fraction * 8) }

    private func drawWheel(
        _ w: Range<Int>, into canvas: inout CellCanvas, row: Int, lit: CellStyle, unlit: CellStyle, glyphs: GlyphSet
    ) {
        switch glyphs {
        case .braille:
            var litMask: [UInt8] = [0, 0]
            var allMask: [UInt8] = [0, 0]
            for (i, d) in ReaderBar.ring.enumerated() {
                let bit = GlyphSet.braille.bit(dx: d.x % 2, dy: d.y)
                allMask[d.x / 2] |= bit
                if i < litDots { litMask[d.x / 2] |= bit }
            }
            // A cell with lit dots shows only those, bright; one without shows its half of
            // the ring dim (one colour a cell).
            for half in 0..<2 {
                let isLit = litMask[half] != 0
                canvas.put(
                    symbol: 0x2800 + UInt32(isLit ? litMask[half] : allMask[half]), column: w.lowerBound + half,
                    row: row, style: isLit ? lit : unlit)
            }
        case .blocks:
            // ○ ◔ ◑ ◕ ●, by quarters.
            let pies: [UInt32] = [0x25CB, 0x25D4, 0x25D1, 0x25D5, 0x25CF]
            let quarter = fraction >= 1 ? 4 : Int(fraction * 4)
            canvas.put(symbol: pies[quarter], column: w.lowerBound + 1, row: row, style: quarter == 0 ? unlit : lit)
        case .ascii:
            break
        }
    }
}

extension CellCanvas {
    /// Sets every cell to a blank in `style` (a screen's background colour).
    public mutating func fill(_ style: CellStyle) {
        let blank = CanvasCell(symbol: 0x20, width: 1, style: style)
        for i in cells.indices { cells[i] = blank }
    }
}
