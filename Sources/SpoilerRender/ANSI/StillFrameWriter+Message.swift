public import SpoilerEffect
public import SpoilerLayout

extension StillFrameWriter {
    /// Rows drawn at a time by ``writeMessage(layout:options:scene:into:)``.
    public static let bandRows = 256

    /// Appends the still frame of a whole laid-out message (`mono`): its text, every hidden
    /// word masked by the scene's dust at time 0 and the mask symbol
    /// (``ANSIFrameOptions/fillHiddenCells`` is turned on), never its text; with colours
    /// and attributes only when `options.capability` has them.
    ///
    /// A layout of more than ``bandRows`` rows is drawn in bands of that many rows, each
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
        let rows = layout.rows ?? layout.lines.count
        var pendingBlank: [UInt8] = []
        var band = 0
        while band == 0 || band < rows {
            let part = rows <= bandRows ? layout : layout.band(rows: band..<min(rows, band + bandRows))
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
    public func band(rows: Range<Int>) -> TextLayout {
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
            metrics: metrics, width: width, height: rows.count * lineHeight, columns: columns, rows: rows.count,
            lines: bandLines, graphemes: bandGraphemes, words: bandWords)
    }
}
