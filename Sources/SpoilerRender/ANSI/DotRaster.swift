public import SpoilerCore

/// Particles rasterised at sub-cell resolution: one dot mask, brightness and colour per cell.
///
/// Positions are pixels (origin top-left, y down) that map to cells through the cell
/// size in pixels; each cell is split into ``GlyphSet/dotsPerColumn`` ×
/// ``GlyphSet/dotsPerRow`` dots. A particle lights the dot it falls in if its opacity
/// reaches the lowest of ``levels`` brightness levels; the cell takes the colour of its
/// brightest particle, with the opacity rounded to a level, and adds the particle's
/// opacity to its ``light`` (which picks the glyph of the half-block and ASCII
/// brightness ramps). Rounding positions to dots and opacity to a few levels is what keeps the
/// frame diff small: a twinkling particle changes its cell only when it crosses a dot
/// or a level.
public struct DotRaster: Sendable {
    /// The raster's width in cells (never negative).
    public let columns: Int
    /// The raster's height in cells (never negative).
    public let rows: Int
    /// The glyph set whose dots per cell (``GlyphSet/dotsPerColumn`` × ``GlyphSet/dotsPerRow``)
    /// split each cell.
    public let glyphs: GlyphSet
    /// Pixels per cell.
    public let cellWidth: Double
    /// Pixels per cell vertically (``cellWidth`` is the horizontal size).
    public let cellHeight: Double
    /// Brightness levels (opacity 1/levels … 1).
    public let levels: Int

    /// Dot masks, one per cell, row-major.
    public internal(set) var masks: [UInt8]
    /// The brightest level in each cell (0 = no dot).
    public internal(set) var brightness: [UInt8]
    /// The colour (`0xRRGGBB`) of the brightest particle in each cell.
    public internal(set) var colors: [UInt32]
    /// The sum of the opacities of the particles in each cell, in sixteenths (saturating),
    /// for the brightness ramp: `light[i] ÷ 16` is the light of cell `i` in particles at
    /// full opacity.
    public internal(set) var light: [UInt16]
    /// Cells with at least one dot, in the order they were lit: the first ``litCount``.
    public internal(set) var litCells: [Int32]
    /// How many cells are lit.
    public internal(set) var litCount = 0
    /// The time in seconds that drives the twinkle of cells (``twinklePhase(cell:)``,
    /// ``addEmber(cell:color:)``, ``keepTwinkling(cell:)``), or nil for
    /// none: a still (``plotParticles(of:thinning:)`` sets it to the scene's time, nil
    /// under reduced motion). Default nil.
    public var twinkleTime: Double?

    private let dotScaleX: Double
    private let dotScaleY: Double

    /// An empty raster of `columns` × `rows` cells (a negative count counts as 0), each
    /// `cellWidth` × `cellHeight` pixels and split into `glyphs`' dots, with `levels` brightness
    /// levels. The cell size must be positive and `levels` in 1...255 (checked with a precondition).
    public init(columns: Int, rows: Int, cellWidth: Double, cellHeight: Double, glyphs: GlyphSet, levels: Int = 3) {
        precondition(cellWidth > 0 && cellHeight > 0, "cell size \(cellWidth)×\(cellHeight) must be positive")
        precondition(levels >= 1 && levels <= 255, "levels \(levels) out of 1...255")
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        self.glyphs = glyphs
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        self.levels = levels
        dotScaleX = Double(glyphs.dotsPerColumn) / cellWidth
        dotScaleY = Double(glyphs.dotsPerRow) / cellHeight
        let n = self.columns * self.rows
        masks = Array(repeating: 0, count: n)
        brightness = Array(repeating: 0, count: n)
        colors = Array(repeating: 0, count: n)
        light = Array(repeating: 0, count: n)
        litCells = Array(repeating: 0, count: n)
    }

    /// Removes every dot.
    public mutating func clear() {
        for k in 0..<litCount {
            let i = Int(litCells[k])
            masks[i] = 0
            brightness[i] = 0
            light[i] = 0
        }
        litCount = 0
    }

    /// Lights the dot under the pixel (`x`, `y`) with a particle of opacity `alpha` (0…1).
    ///
    /// Points outside the grid, non-finite points and particles too faint for the lowest
    /// level are ignored.
    @inlinable
    public mutating func plot(x: Double, y: Double, alpha: Double, color: UInt32) {
        let level = Int(alpha * Double(levels) + 0.5)
        guard level > 0 else { return }
        let dotX = x * dotScaleXValue
        let dotY = y * dotScaleYValue
        guard dotX >= 0, dotY >= 0, dotX < Double(columns * glyphs.dotsPerColumn),
            dotY < Double(rows * glyphs.dotsPerRow)
        else { return }
        let ix = Int(dotX)
        let iy = Int(dotY)
        let perColumn = glyphs.dotsPerColumn
        let perRow = glyphs.dotsPerRow
        let column = ix / perColumn
        let row = iy / perRow
        let cell = row * columns + column
        light(
            cell: cell, bit: glyphs.bit(dx: ix - column * perColumn, dy: iy - row * perRow),
            level: UInt8(min(level, levels)), alpha: alpha, color: color)
    }

    /// `0xRRGGBB` as a colour.
    @inlinable
    static func rgb(_ c: UInt32) -> RGBColor {
        RGBColor(red: UInt8(c >> 16 & 0xFF), green: UInt8(c >> 8 & 0xFF), blue: UInt8(c & 0xFF))
    }

    @usableFromInline var dotScaleXValue: Double { dotScaleX }
    @usableFromInline var dotScaleYValue: Double { dotScaleY }

    @usableFromInline
    mutating func light(cell: Int, bit: UInt8, level: UInt8, alpha: Double, color: UInt32) {
        if masks[cell] == 0 {
            litCells[litCount] = Int32(cell)
            litCount += 1
        }
        masks[cell] |= bit
        light[cell] = min(light[cell], 0xFF00) + UInt16(min(max(alpha, 0), 1) * 16 + 0.5)
        if level > brightness[cell] {
            brightness[cell] = level
            colors[cell] = color
        }
    }

    /// Draws every lit cell into `canvas` (offset by `originColumn`, `originRow`) whose
    /// `isDrawable` says yes, in `style`'s background and attributes and the particle's
    /// colour scaled to its level, reduced to `capability`, with the glyph
    /// ``GlyphSet/symbol(mask:light:)`` gives its dots and light (with ``twinkleTime``,
    /// ``GlyphSet/symbol(mask:light:phase:)`` and the cell's ``twinklePhase(cell:)``).
    ///
    /// With no colour (``ColorCapability/none``) or 16 colours, the lowest levels are
    /// drawn dim instead.
    public func draw(
        into canvas: inout CellCanvas, originColumn: Int = 0, originRow: Int = 0, capability: ColorCapability,
        style: CellStyle = .plain, isDrawable: (_ column: Int, _ row: Int) -> Bool = { _, _ in true }
    ) {
        for k in 0..<litCount {
            let cell = Int(litCells[k])
            let column = cell % columns
            let row = cell / columns
            guard isDrawable(column, row) else { continue }
            let level = Int(brightness[cell])
            var s = style
            switch capability {
            case .trueColor, .palette256:
                let c = colors[cell]
                let scale = Double(level) / Double(levels)
                s.foreground = capability.quantise(
                    RGBColor(
                        red: UInt8(Double(c >> 16 & 0xFF) * scale), green: UInt8(Double(c >> 8 & 0xFF) * scale),
                        blue: UInt8(Double(c & 0xFF) * scale)))
            case .palette16, .none:
                s.foreground = capability.quantise(DotRaster.rgb(colors[cell]))
                if level * 2 <= levels { s.attributes.insert(.dim) }
            }
            let symbol =
                twinkleTime == nil || !glyphs.usesBrightnessRamp
                ? glyphs.symbol(mask: masks[cell], light: Double(light[cell]) / 16)
                : glyphs.symbol(mask: masks[cell], light: Double(light[cell]) / 16, phase: twinklePhase(cell: cell))
            canvas.put(
                symbol: symbol,
                column: originColumn + column, row: originRow + row,
                style: s)
        }
    }
}
