import SpoilerCore
public import SpoilerEffect

extension CellCanvas {
    /// Draws the celebration's pieces that show now, one glyph a piece in the cell its
    /// centre falls in, coloured as the piece, in cells that hold nothing but a space and
    /// touch no glyph on their left or right (text and the dust are never drawn over, and
    /// the space between two words stays a space, so the text reads as it did).
    ///
    /// The celebration's pixels map to cells at `cellWidth` × `cellHeight`, pixel (0, 0)
    /// being the top-left of cell (`originColumn`, `originRow`). Glyphs (see
    /// ``celebrationSymbol(shape:rotation:glyphs:)``): `⬢`/`⬣` for a polygon, `■`/`◆` for
    /// a square and `★` for a star, the first or second by its rotation; `o`, `#` and `*`
    /// with ``GlyphSet/ascii``. Each is one column wide.
    ///
    /// - Complexity: O(pieces).
    public mutating func drawCelebration(
        _ party: Celebration, cellWidth: Double, cellHeight: Double, originColumn: Int = 0, originRow: Int = 0,
        capability: ColorCapability, glyphs: GlyphSet
    ) {
        guard cellWidth > 0, cellHeight > 0 else { return }
        let pieces = party.visibleParticles()
        for i in 0..<pieces.count {
            let px = Double(pieces.x[i]) / cellWidth
            let py = Double(pieces.y[i]) / cellHeight
            guard px.isFinite, py.isFinite, abs(px) < 1e6, abs(py) < 1e6 else { continue }
            let column = originColumn + Int(px.rounded(.down))
            let row = originRow + Int(py.rounded(.down))
            guard column >= 0, column < width, row >= 0, row < height else { continue }
            let cell = self[column, row]
            guard cell.symbol == 0x20, cell.width == 1, isSpace(column - 1, row), isSpace(column + 1, row) else {
                continue
            }
            var style = cell.style
            style.attributes = []
            let c = pieces.color[i]
            style.foreground = capability.quantise(
                RGBColor(red: UInt8(c >> 16 & 0xFF), green: UInt8(c >> 8 & 0xFF), blue: UInt8(c & 0xFF)))
            let symbol = CellCanvas.celebrationSymbol(
                shape: pieces.shape[i], rotation: Double(pieces.rotation[i]), glyphs: glyphs)
            put(symbol: symbol, column: column, row: row, style: style)
        }
    }

    /// Whether the cell at `column`, `row` is a space (or off the canvas).
    private func isSpace(_ column: Int, _ row: Int) -> Bool {
        guard column >= 0, column < width else { return true }
        return self[column, row].symbol == 0x20
    }

    /// The glyph a confetti piece is drawn with: for a square `■` upright and `◆` when
    /// turned within 22.5° of 45°; for a polygon `⬢` and `⬣` likewise within 15° of 30°;
    /// `★` for a star, `•` for a dot. With ``GlyphSet/ascii``: `#`, `o`, `*` and `.`.
    public static func celebrationSymbol(shape: ParticleShape, rotation: Double, glyphs: GlyphSet) -> UInt32 {
        func turned(period: Double) -> Bool {
            guard rotation.isFinite else { return false }
            let r = rotation - period * (rotation / period).rounded(.down)
            return abs(r - period / 2) < period / 4
        }
        switch (shape, glyphs) {
        case (.square, .ascii): return 0x23
        case (.polygon, .ascii): return 0x6F
        case (.star, .ascii): return 0x2A
        case (.dot, .ascii): return 0x2E
        case (.square, _): return turned(period: Double.pi / 2) ? 0x25C6 : 0x25A0
        case (.polygon, _): return turned(period: Double.pi / 3) ? 0x2B23 : 0x2B22
        case (.star, _): return 0x2605
        case (.dot, _): return 0x2022
        }
    }
}
