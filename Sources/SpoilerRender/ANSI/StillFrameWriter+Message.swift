public import SpoilerEffect
public import SpoilerLayout

extension StillFrameWriter {
    /// Rows drawn at a time by ``writeMessage(layout:options:scene:into:)``.
    public static let bandRows = 256

    /// The most cells (columns × rows) of one band of
    /// ``writeMessage(layout:options:scene:into:)``: a layout wider than 512 columns is
    /// drawn in bands of fewer rows (one at least), so that a long line among many rows
    /// does not make a canvas of billions of cells.
    public static let bandCells = 1 << 17

    /// Appends the still frame of a whole laid-out message (`mono`): its text, every hidden
    /// word masked by the scene's dust at time 0 and the mask symbol
    /// (``ANSIFrameOptions/fillHiddenCells`` is turned on), never its text; with colours
    /// and attributes only when `options.capability` has them.
    ///
    /// A layout of more than ``bandRows`` rows is drawn in bands of that many rows (a layout
    /// wider than ``bandCells`` ÷ ``bandRows`` columns: in bands as wide as their widest
    /// row, of as many rows as fit ``bandCells``), each
    /// with a scene of its own words only (made by `scene` from the band's layout, its rows
    /// starting at 0), so that time and memory grow with the message's length and the
    /// particles alive at once stay bounded; a shorter one is drawn in one piece, exactly as
    /// ``ANSIFrameBuilder`` draws it. Trailing blank rows of the whole frame are left out.
    ///
    /// - Parameters:
    ///   - layout: the message laid out in `mono` cells.
    ///   - options: the look (its `fillHiddenCells` is set here).
    ///   - scene: makes the scene for a layout (``SpoilerScene/init(layout:preset:options:seed:)``).
    ///   - out: where the bytes go.
    /// - Complexity: O(graphemes + cells + particles) of the message, in memory O(layout +
    ///   one band).
    public static func writeMessage(
        layout: TextLayout, options: ANSIFrameOptions, scene makeScene: (TextLayout) -> SpoilerScene,
        into out: inout [UInt8]
    ) {
        var options = options
        options.fillHiddenCells = true
        let rows = layout.cellRows
        let cellWidth = Double(max(1, layout.metrics.cellWidth))
        let columns = max(1, layout.cellColumns)
        // Up to 512 columns, bands of `bandRows` rows as wide as the layout; wider, each
        // band as wide as its widest row and as tall as fits `bandCells`.
        let isWide = columns * StillFrameWriter.bandRows > StillFrameWriter.bandCells
        func rowColumns(_ r: Int) -> Int {
            r < layout.lines.count && layout.lines[r].index == r
                ? Int((Double(layout.lines[r].width) / cellWidth).rounded(.up)) : columns
        }
        var pendingBlank: [UInt8] = []
        var band = 0
        while band == 0 || band < rows {
            var bandRows = StillFrameWriter.bandRows
            var bandColumns = columns
            if isWide {
                bandRows = 1
                bandColumns = max(1, rowColumns(band))
                while band + bandRows < rows && bandRows < StillFrameWriter.bandRows {
                    let wider = max(bandColumns, rowColumns(band + bandRows))
                    guard wider * (bandRows + 1) <= StillFrameWriter.bandCells else { break }
                    bandColumns = wider
                    bandRows += 1
                }
            }
            let part =
                rows <= bandRows
                ? layout : layout.band(rows: band..<min(rows, band + bandRows), columns: isWide ? bandColumns : nil)
            var builder = ANSIFrameBuilder(layout: part, options: options)
            var canvas = CellCanvas(width: builder.columns, height: builder.rows)
            builder.draw(makeScene(part), into: &canvas)
            var bytes: [UInt8] = []
            write(canvas, capability: options.capability, into: &bytes, keepsBlankRows: true)
            // Blank rows are held back until something follows them.
            var end = bytes.count
            while end > 0 && bytes[end - 1] == 0x0A && (end == 1 || bytes[end - 2] == 0x0A) { end -= 1 }
            if end > 0 {
                out.append(contentsOf: pendingBlank)
                pendingBlank.removeAll()
                out.append(contentsOf: bytes[0..<end])
            }
            pendingBlank.append(contentsOf: bytes[end...])
            band += bandRows
            if rows <= bandRows { break }
        }
    }
}

extension TextLayout {
    /// The rows `rows` of a `mono` layout as a layout of their own: rows and pixels start
    /// at 0, the words are those on the rows (renumbered in order, keeping their entity
    /// and word indices), the graphemes those on the rows.
    ///
    /// The lines, graphemes and words must be in row order, as the layout engine makes them.
    ///
    /// - Complexity: O(log graphemes + graphemes, words and lines on the rows).
    public func band(rows: Range<Int>) -> TextLayout { band(rows: rows, columns: nil) }

    /// The rows `rows` of a `mono` layout as ``band(rows:)`` gives them, `columns` cells wide
    /// (the widest of them at least) instead of as wide as the whole layout when given.
    ///
    /// - Complexity: O(log graphemes + graphemes, words and lines on the rows).
    public func band(rows: Range<Int>, columns bandColumns: Int?) -> TextLayout {
        let lineHeight = max(1, metrics.lineHeight)
        func firstIndex<T>(_ items: [T], row: Int, _ line: (T) -> Int) -> Int {
            var low = 0
            var high = items.count
            while low < high {
                let mid = (low + high) / 2
                if line(items[mid]) < row { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let g0 = firstIndex(graphemes, row: rows.lowerBound) { $0.line }
        let g1 = firstIndex(graphemes, row: rows.upperBound) { $0.line }
        let w0 = firstIndex(words, row: rows.lowerBound) { $0.line }
        let w1 = firstIndex(words, row: rows.upperBound) { $0.line }
        let dy = rows.lowerBound * lineHeight
        var bandWords = Array(words[w0..<w1])
        for i in bandWords.indices {
            bandWords[i].line -= rows.lowerBound
            bandWords[i].rect.y -= Double(dy)
        }
        var bandGraphemes = Array(graphemes[g0..<g1])
        for i in bandGraphemes.indices {
            bandGraphemes[i].line -= rows.lowerBound
            if let w = bandGraphemes[i].word { bandGraphemes[i].word = w - w0 }
        }
        let l0 = firstIndex(lines, row: rows.lowerBound) { $0.index }
        let l1 = firstIndex(lines, row: rows.upperBound) { $0.index }
        let bandLines = lines[l0..<l1].map { line -> LayoutLine in
            var l = line
            l.index -= rows.lowerBound
            l.y -= dy
            return l
        }
        return TextLayout(
            metrics: metrics, width: bandColumns.map { $0 * max(1, metrics.cellWidth) } ?? width,
            height: rows.count * lineHeight, columns: bandColumns ?? columns, rows: rows.count,
            lines: bandLines, graphemes: bandGraphemes, words: bandWords)
    }
}
