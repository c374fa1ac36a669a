import SpoilerCore
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
    /// The layout the builder draws, as given to ``init(layout:options:)`` (without its
    /// graphemes after ``dropGraphemes()``).
    public private(set) var layout: TextLayout
    /// How frames are drawn. `capability`, `textStyle`, `focusBackground`, `fillHiddenCells` and
    /// `particleThinning` are read at each ``draw(_:into:originColumn:originRow:rows:)``;
    /// `glyphs`, `brightnessLevels` and `formatting` only when the builder is made.
    public var options: ANSIFrameOptions
    /// The scene word group to highlight (Tab focus), if any.
    public var focusedGroup: Int?
    /// Pixels per cell, from the layout's metrics.
    public let cellWidth: Double
    /// Pixels per cell vertically: the layout's line height (at least 1).
    public let cellHeight: Double
    /// The group of each layout word: fragments of one word share it.
    public let groups: [Int]

    private var raster: DotRaster
    /// The layout's graphemes reduced to what drawing needs, without strings.
    private let glyphs: [GlyphCell]
    /// Displays of more than one scalar, indexed by `GlyphCell.cluster`.
    private let clusterDisplays: [String]
    private var showsText: [Bool] = []
    private var hiddenCell: [Bool] = []
    /// The index in `glyphs` of the first glyph on each row, and the count at the end;
    /// nil if the glyphs are not in row order (then every row is drawn).
    private let glyphRowStart: [Int]?

    /// A builder for `layout` (which should be `mono`; other models are drawn by their
    /// cell grid as if it were one).
    public init(layout: TextLayout, options: ANSIFrameOptions) {
        self.layout = layout
        self.options = options
        cellWidth = Double(max(1, layout.metrics.cellWidth))
        cellHeight = Double(max(1, layout.metrics.lineHeight))
        groups = SceneWord.words(of: layout).map(\.group)
        var cells: [GlyphCell] = []
        var clusters: [String] = []
        cells.reserveCapacity(layout.graphemes.count)
        var formatting = FormattingSweep(options.formatting)
        for g in layout.graphemes where g.columns > 0 && !g.display.isEmpty {
            let scalars = g.display.unicodeScalars
            var cell = GlyphCell(
                column: Int32(g.column), row: Int32(g.line), columns: Int8(min(g.columns, 2)),
                word: Int32(g.word ?? -1),
                symbol: 0, cluster: -1, attributes: formatting.attributes(at: g.utf16Offset).rawValue, stored: 0)
            if scalars.count == 1, let v = scalars.first?.value {
                cell.symbol = TerminalSafety.visible(v)
                // What CellCanvas.put(symbol:column:row:style:) stores for it.
                var stored = TerminalSafety.visible(cell.symbol)
                if stored == CanvasCell.continuation || stored >= CanvasCell.clusterFlag || stored > 0x10FFFF {
                    stored = 0xFFFD
                }
                cell.stored = stored
            } else {
                cell.cluster = Int32(clusters.count)
                clusters.append(g.display)
            }
            cells.append(cell)
        }
        glyphs = cells
        clusterDisplays = clusters
        let columns = layout.cellColumns
        let rows = layout.cellRows
        // Glyphs come row by row (the layout's order): where each row's run starts.
        let inRowOrder = zip(cells, cells.dropFirst()).allSatisfy { $0.row <= $1.row }
        if inRowOrder && rows >= 0 && cells.allSatisfy({ $0.row >= 0 && Int($0.row) < rows }) {
            var starts = [Int](repeating: cells.count, count: rows + 1)
            for (i, g) in cells.enumerated().reversed() { starts[Int(g.row)] = i }
            for r in stride(from: rows - 1, through: 0, by: -1) where starts[r] > starts[r + 1] {
                starts[r] = starts[r + 1]
            }
            glyphRowStart = starts
        } else {
            glyphRowStart = nil
        }
        raster = DotRaster(
            columns: columns, rows: rows, cellWidth: cellWidth, cellHeight: cellHeight, glyphs: options.glyphs,
            levels: options.brightnessLevels)
    }

    /// Lets go of the layout's graphemes (``layout``'s ``TextLayout/graphemes`` becomes
    /// empty; its lines and words stay). Drawing never reads them once the builder is made:
    /// it keeps what it needs of each in a few bytes. A host that keeps the builder of a
    /// very long layout saves about a hundred bytes a grapheme.
    public mutating func dropGraphemes() {
        layout.graphemes = []
    }

    /// The scene words for a layout: one per word box, grouped by word
    /// (``SceneWord/words(of:)``).
    public static func sceneWords(for layout: TextLayout) -> [SceneWord] {
        SceneWord.words(of: layout)
    }

    /// The size of the layout in cells.
    public var columns: Int { raster.columns }
    /// The height of the layout in cells (its width is ``columns``).
    public var rows: Int { raster.rows }

    /// Draws the message and `scene` at `originColumn`, `originRow` of `canvas`, over
    /// what is there (clear the canvas first for a whole frame).
    ///
    /// - Parameter rows: the layout rows to draw (the ones on the screen of a long
    ///   document); nil: all. Particles are drawn wherever they are.
    /// - Complexity: O(graphemes + particles + cells) of the rows drawn (after a first
    ///   call that sets up O(cells of the layout)).
    public mutating func draw(
        _ scene: SpoilerScene, into canvas: inout CellCanvas, originColumn: Int = 0, originRow: Int = 0,
        rows drawnRows: Range<Int>? = nil
    ) {
        let columns = raster.columns
        let cellCount = columns * raster.rows
        var rowRange = 0..<raster.rows
        if let r = drawnRows, glyphRowStart != nil {
            let low = min(max(0, r.lowerBound), raster.rows)
            rowRange = low..<max(low, min(raster.rows, r.upperBound))
        }
        if showsText.count != cellCount {
            showsText = Array(repeating: false, count: cellCount)
            hiddenCell = Array(repeating: false, count: cellCount)
        } else {
            let cleared = (rowRange.lowerBound * columns)..<(rowRange.upperBound * columns)
            showsText.withUnsafeMutableBufferPointer { b in for i in cleared { b[i] = false } }
            hiddenCell.withUnsafeMutableBufferPointer { b in for i in cleared { b[i] = false } }
        }
        // Text.
        // Whether each word is hidden, asked of the scene only for words on the rows drawn
        // (0 unknown, 1 hidden, 2 shown).
        var hiddenWord = [UInt8](repeating: 0, count: layout.words.count)
        let rows = raster.rows
        let firstGlyph = glyphRowStart?[rowRange.lowerBound] ?? 0
        let endGlyph = glyphRowStart?[rowRange.upperBound] ?? glyphs.count
        var k = firstGlyph
        while k < endGlyph {
            // Plain one-column glyphs and hidden ones, the bulk of a message, go straight
            // into the canvas's cells; the rest take the general path below.
            k = drawPlainGlyphs(
                from: k, to: endGlyph, of: scene, hiddenWord: &hiddenWord, into: &canvas, originColumn: originColumn,
                originRow: originRow)
            guard k < endGlyph else { break }
            let g = glyphs[k]
            k += 1
            var style = options.textStyle
            style.attributes.formUnion(CellAttributes(rawValue: g.attributes))
            let column = Int(g.column)
            let row = Int(g.row)
            let width = Int(g.columns)
            if g.word >= 0 {
                let w = Int(g.word)
                if w < hiddenWord.count && hiddenWord[w] == 0 {
                    hiddenWord[w] = w < scene.words.count && !scene.isHidden(word: w) ? 2 : 1
                }
                if w >= hiddenWord.count || hiddenWord[w] == 1 {
                    markHidden(column: column, row: row, columns: width)
                    continue
                }
                let centre = SpoilerPoint(
                    x: (Double(column) + Double(width) / 2) * cellWidth, y: (Double(row) + 0.5) * cellHeight)
                let v = scene.textVisibility(word: w, at: centre)
                if v < 0.5 {
                    markHidden(column: column, row: row, columns: width)
                    continue
                }
                if v < 1 { style.attributes.insert(.dim) }
            }
            let used: Int
            if g.cluster >= 0 {
                used = canvas.put(
                    clusterDisplays[Int(g.cluster)], column: originColumn + column, row: originRow + row,
                    columns: width, style: style)
            } else {
                used = canvas.put(
                    symbol: g.symbol, columns: width, column: originColumn + column, row: originRow + row, style: style)
            }
            if used > 0 && row < rows {
                for c in column..<min(column + used, columns) { showsText[row * columns + c] = true }
            }
        }
        // Particles.
        raster.clear()
        raster.plotParticles(
            of: scene, thinning: UInt32(clamping: max(1, options.particleThinning ?? defaultThinning(for: scene))))
        if !options.fillHiddenCells {
            // Live frames: an ember in each hidden cell that no particle lights, and every
            // hidden cell changing at each twinkle phase.
            let ember = emberColor(of: scene)
            for i in (rowRange.lowerBound * columns)..<(rowRange.upperBound * columns) where hiddenCell[i] {
                if raster.masks[i] == 0 { raster.addEmber(cell: i, color: ember) }
                raster.keepTwinkling(cell: i)
            }
        }
        let shows = showsText
        raster.draw(
            into: &canvas, originColumn: originColumn, originRow: originRow, capability: options.capability,
            style: CellStyle(background: options.textStyle.background)
        ) { column, row in rowRange.contains(row) && !shows[row * columns + column] }
        if options.fillHiddenCells {
            let symbol = options.glyphs.maskSymbol
            var style = CellStyle(background: options.textStyle.background)
            style.foreground = options.capability.quantise(Preset.secondaryTextColor)
            for i in (rowRange.lowerBound * columns)..<(rowRange.upperBound * columns)
            where hiddenCell[i] && raster.masks[i] == 0 {
                canvas.put(
                    symbol: symbol, column: originColumn + i % columns, row: originRow + i / columns, style: style)
            }
        }
        // Focus.
        if let focus = focusedGroup {
            // With 16 colours a dark grey would come out black, the usual background:
            // take bright black (8) and underline too; with none, underline only.
            let background: CellColor
            let attributes: CellAttributes
            switch options.capability {
            case .trueColor, .palette256:
                background = options.capability.quantise(options.focusBackground)
                attributes = []
            case .palette16:
                background = .indexed(8)
                attributes = .underline
            case .none:
                background = .default
                attributes = .underline
            }
            for (w, box) in layout.words.enumerated() where groups[w] == focus {
                guard let column = box.column, let count = box.columns else { continue }
                for c in column..<(column + count) {
                    canvas.highlight(
                        column: originColumn + c, row: originRow + box.line, background: background,
                        attributes: attributes)
                }
            }
        }
    }

    /// One particle in this many is drawn when ``ANSIFrameOptions/particleThinning`` is
    /// nil: as many as leave about ``particlesPerCell`` particles a cell.
    ///
    /// The effect's dots are 1 px, a terminal cell is about 8 × 16 px: drawing every
    /// particle would light every dot of a braille cell (`⣿`) and top every ramp, and
    /// saturated dust does not move. A word's expected particles per cell are its
    /// emitter's birth rates times their lifetimes (Core Animation's multipliers
    /// included) over its area; the densest word's set the thinning, so it follows `--density` and the
    /// preset and does not change from frame to frame. It is the same for every word,
    /// and a word's birth rate is proportional to its graphemes, so each word's dust keeps
    /// the effect's proportions.
    func defaultThinning(for scene: SpoilerScene) -> Int {
        // The densest word sets it, so that no word saturates (a word of wide
        // characters has as many particles per grapheme over twice the cells).
        var perCell = 0.0
        for (w, e) in scene.emitters.enumerated() where w < scene.words.count {
            var perSecond = 0.0
            for c in e.emitterCells { perSecond += max(c.birthRate, 0) * max(c.lifetime, 0) }
            let live = max(e.birthRate, 0) * max(e.lifetime, 0) * perSecond
            let area = scene.words[w].rect.width * scene.words[w].rect.height
            if area > 0 && live.isFinite { perCell = max(perCell, live / area * cellWidth * cellHeight) }
        }
        return max(1, min(Int((perCell / ANSIFrameBuilder.particlesPerCell).rounded()), 1 << 20))
    }

    /// The colour of the embers of hidden cells without particles
    /// (``DotRaster/addEmber(cell:color:)``): the scene's particle colour, or its preset's
    /// first cell's colour (`0xRRGGBB`).
    func emberColor(of scene: SpoilerScene) -> UInt32 {
        let c =
            scene.options.particleColor ?? scene.preset.emitter.emitterCells.first?.color ?? Preset.secondaryTextColor
        return UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue)
    }

    /// About how many particles the automatic thinning leaves in a cell of a hidden word.
    ///
    /// Five: they light about half of a braille cell's eight dots, so that dots come and
    /// go as particles move and fade, and put a half-block or ASCII cell in the middle of
    /// its ramp (``GlyphSet/rampStep``). With fewer, a cell would too often keep none and
    /// show one particle that the fallback found (see
    /// ``DotRaster/plotParticles(of:thinning:)``), whose glyph changes little.
    public static let particlesPerCell = 5.0

    /// One grapheme to draw: its cell, width, word (-1: not hidden), and its display as
    /// a scalar value or an index into the cluster table.
    struct GlyphCell: Sendable {
        var column: Int32
        var row: Int32
        var columns: Int8
        var word: Int32
        var symbol: UInt32
        var cluster: Int32
        /// The formatting of the text at this glyph (``CellAttributes``).
        var attributes: UInt8
        /// The symbol a one-column cell of it holds (``symbol`` as the canvas stores it).
        var stored: UInt32
    }

    /// Draws glyphs `start..<end` of ``glyphs`` for as long as each is either of a hidden
    /// word (marked hidden, nothing drawn) or a one-scalar, one-column glyph outside
    /// hidden words that lands inside `canvas` on a one-column cell (stored as
    /// ``CellCanvas/put(symbol:column:row:style:)`` would store it); returns the index of
    /// the first glyph that is neither (`end` if none), for the general path.
    ///
    /// The frame's text pass, without a uniqueness check or a bounds check per cell.
    private mutating func drawPlainGlyphs(
        from start: Int, to end: Int, of scene: SpoilerScene, hiddenWord: inout [UInt8], into canvas: inout CellCanvas,
        originColumn: Int, originRow: Int
    ) -> Int {
        let base = options.textStyle
        let canvasWidth = canvas.width
        let canvasHeight = canvas.height
        let columns = raster.columns
        let rows = raster.rows
        let sceneWords = scene.words.count
        var k = start
        glyphs.withUnsafeBufferPointer { glyphs in
            canvas.cells.withUnsafeMutableBufferPointer { cells in
                showsText.withUnsafeMutableBufferPointer { showsText in
                    hiddenCell.withUnsafeMutableBufferPointer { hiddenCell in
                        hiddenWord.withUnsafeMutableBufferPointer { hiddenWord in
                            while k < end {
                                let g = glyphs[k]
                                let column = Int(g.column)
                                let row = Int(g.row)
                                if g.word >= 0 {
                                    let w = Int(g.word)
                                    if w < hiddenWord.count && hiddenWord[w] == 0 {
                                        hiddenWord[w] = w < sceneWords && !scene.isHidden(word: w) ? 2 : 1
                                    }
                                    guard w >= hiddenWord.count || hiddenWord[w] == 1 else { return }
                                    if row < rows {
                                        for c in column..<min(column + Int(g.columns), columns) {
                                            hiddenCell[row &* columns &+ c] = true
                                        }
                                    }
                                    k += 1
                                    continue
                                }
                                let x = originColumn &+ column
                                let y = originRow &+ row
                                guard g.cluster < 0, g.columns == 1, x >= 0, x < canvasWidth, y >= 0, y < canvasHeight
                                else { return }
                                let i = y &* canvasWidth &+ x
                                guard cells[i].width == 1 else { return }
                                var style = base
                                if g.attributes != 0 {
                                    style.attributes.formUnion(CellAttributes(rawValue: g.attributes))
                                }
                                cells[i] = CanvasCell(symbol: g.stored, width: 1, style: style)
                                if row < rows && column < columns { showsText[row &* columns &+ column] = true }
                                k += 1
                            }
                        }
                    }
                }
            }
        }
        return k
    }

    private mutating func markHidden(column: Int, row: Int, columns count: Int) {
        guard row < raster.rows else { return }
        for c in column..<min(column + count, raster.columns) { hiddenCell[row * raster.columns + c] = true }
    }
}
