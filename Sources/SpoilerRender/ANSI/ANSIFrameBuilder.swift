public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

/// Draws one frame of a message with its spoiler effect into a ``CellCanvas``.
///
/// The layout must use the `mono` model (a cell grid): grapheme `g` goes to column
/// `g.column`, row `g.line`, offset by the frame's origin. Text outside hidden words is
/// drawn as the layout's `display` (controls already made visible; the canvas enforces
/// it again). A grapheme of a hidden word is drawn only where the scene's reveal shows
/// it at the grapheme's centre (half-shown text is dim); everywhere else in a hidden
/// word, and wherever particles fly outside text, particles are drawn with a
/// ``DotRaster``. Hidden text never reaches the canvas, so it can never reach the
/// terminal.
///
/// Scene word `i` must be `layout.words[i]` (``sceneWords(for:)`` makes them so).
///
/// ```swift
/// var builder = ANSIFrameBuilder(layout: layout, options: ANSIFrameOptions(capability: .trueColor))
/// var canvas = CellCanvas(width: 80, height: 24)
/// builder.draw(scene, into: &canvas)
/// ```
public struct ANSIFrameBuilder: Sendable {
    public let layout: TextLayout
    public var options: ANSIFrameOptions
    /// The scene word group to highlight (Tab focus), if any.
    public var focusedGroup: Int?
    /// Pixels per cell, from the layout's metrics.
    public let cellWidth: Double
    public let cellHeight: Double
    /// The group of each layout word: fragments of one word share it.
    public let groups: [Int]

    private var raster: DotRaster
    private var particles = VisibleParticles()
    private var showsText: [Bool] = []
    private var hiddenCell: [Bool] = []

    /// A builder for `layout` (which should be `mono`; other models are drawn by their
    /// cell grid as if it were one).
    public init(layout: TextLayout, options: ANSIFrameOptions) {
        self.layout = layout
        self.options = options
        cellWidth = Double(max(1, layout.metrics.cellWidth))
        cellHeight = Double(max(1, layout.metrics.lineHeight))
        groups = ANSIFrameBuilder.groups(of: layout)
        let columns = layout.columns ?? Int((Double(layout.width) / cellWidth).rounded(.up))
        let rows = layout.rows ?? layout.lines.count
        raster = DotRaster(
            columns: columns, rows: rows, cellWidth: cellWidth, cellHeight: cellHeight, glyphs: options.glyphs,
            levels: options.brightnessLevels)
    }

    /// The word groups of a layout: words with the same entity and word index share one.
    public static func groups(of layout: TextLayout) -> [Int] {
        var ids: [Int] = []
        var seen: [Int: Int] = [:]
        for w in layout.words {
            let key = w.entity << 32 | w.word
            if let g = seen[key] {
                ids.append(g)
            } else {
                seen[key] = seen.count
                ids.append(seen.count - 1)
            }
        }
        return ids
    }

    /// The scene words for a layout: one per word box, grouped by word.
    public static func sceneWords(for layout: TextLayout) -> [SceneWord] {
        let g = groups(of: layout)
        return layout.words.enumerated().map { i, w in SceneWord(rect: w.rect, graphemes: w.graphemes, group: g[i]) }
    }

    /// The size of the layout in cells.
    public var columns: Int { raster.columns }
    public var rows: Int { raster.rows }

    /// Draws the message and `scene` at `originColumn`, `originRow` of `canvas`, over
    /// what is there (clear the canvas first for a whole frame).
    ///
    /// - Complexity: O(graphemes + particles + cells of the layout).
    public mutating func draw(_ scene: Scene, into canvas: inout CellCanvas, originColumn: Int = 0, originRow: Int = 0) {
        let columns = raster.columns
        let cellCount = columns * raster.rows
        if showsText.count != cellCount {
            showsText = Array(repeating: false, count: cellCount)
            hiddenCell = Array(repeating: false, count: cellCount)
        } else {
            for i in 0..<cellCount {
                showsText[i] = false
                hiddenCell[i] = false
            }
        }
        // Text.
        var hiddenWord = [Bool](repeating: true, count: layout.words.count)
        for w in layout.words.indices where w < scene.words.count { hiddenWord[w] = scene.isHidden(word: w) }
        for g in layout.graphemes where g.columns > 0 && !g.display.isEmpty {
            var style = options.textStyle
            if let w = g.word {
                if w >= hiddenWord.count || hiddenWord[w] {
                    markHidden(column: g.column, row: g.line, columns: g.columns)
                    continue
                }
                let centre = Point(
                    x: (Double(g.column) + Double(g.columns) / 2) * cellWidth, y: (Double(g.line) + 0.5) * cellHeight)
                let v = scene.textVisibility(word: w, at: centre)
                if v < 0.5 {
                    markHidden(column: g.column, row: g.line, columns: g.columns)
                    continue
                }
                if v < 1 { style.attributes.insert(.dim) }
            }
            let used = canvas.put(
                g.display, column: originColumn + g.column, row: originRow + g.line, columns: g.columns, style: style)
            if used > 0 && g.line < raster.rows {
                for c in g.column..<min(g.column + used, columns) { showsText[g.line * columns + c] = true }
            }
        }
        // Particles.
        raster.clear()
        scene.visibleParticles(into: &particles)
        let thinning = UInt32(options.particleThinning ?? defaultThinning)
        for i in 0..<particles.count where thinning <= 1 || particles.id[i] % thinning == 0 {
            let c = particles.color[i]
            raster.plot(
                x: Double(particles.x[i]), y: Double(particles.y[i]), alpha: Double(particles.alpha[i]),
                color: RGBColor(red: UInt8(c >> 16 & 0xFF), green: UInt8(c >> 8 & 0xFF), blue: UInt8(c & 0xFF)))
        }
        let shows = showsText
        raster.draw(
            into: &canvas, originColumn: originColumn, originRow: originRow, capability: options.capability,
            style: CellStyle(background: options.textStyle.background)
        ) { column, row in !shows[row * columns + column] }
        if options.fillHiddenCells {
            let symbol = options.glyphs.maskSymbol
            var style = CellStyle(background: options.textStyle.background)
            style.foreground = options.capability.quantise(Preset.secondaryTextColor)
            for i in 0..<cellCount where hiddenCell[i] && raster.masks[i] == 0 {
                canvas.put(symbol: symbol, column: originColumn + i % columns, row: originRow + i / columns, style: style)
            }
        }
        // Focus.
        if let focus = focusedGroup {
            let background = options.capability.quantise(options.focusBackground)
            for (w, box) in layout.words.enumerated() where groups[w] == focus {
                guard let column = box.column, let count = box.columns else { continue }
                for c in column..<(column + count) {
                    canvas.highlight(
                        column: originColumn + c, row: originRow + box.line, background: background,
                        attributes: options.capability == .none ? .underline : [])
                }
            }
        }
    }

    /// One particle in this many is drawn: about one per 4 px² of a dot, so that a dot
    /// of a cloud at the default density is lit about half the time (a terminal dot is
    /// 16 px² for braille in an 8 × 16 cell, where the effect's dots are 1 px). Which
    /// particles are drawn depends on their serial number only, so it is stable.
    var defaultThinning: Int {
        let dotArea = cellWidth * cellHeight / Double(options.glyphs.dotsPerColumn * options.glyphs.dotsPerRow)
        return max(1, Int(dotArea / 4))
    }

    private mutating func markHidden(column: Int, row: Int, columns count: Int) {
        guard row < raster.rows else { return }
        for c in column..<min(column + count, raster.columns) { hiddenCell[row * raster.columns + c] = true }
    }
}
