import SpoilerCore
import SpoilerLayout

/// The chunks of a ``ReaderDocument`` that a view has laid out: those on the screen and a
/// few screens around it, stitched into one layout whose rows the view scrolls through.
struct DocumentWindow: Sendable {
    /// A reveal that outlives the window: the chunk, the spoiler entity's index in the
    /// chunk's message, and the word's index in the entity.
    struct RevealKey: Hashable, Sendable {
        var chunk: Int
        var entity: Int
        var word: Int
    }

    let document: any ReaderDocument
    let layoutMessage: @Sendable (TerminalSize, Message) -> TextLayout
    /// The chunks laid out.
    var chunks: Range<Int> = 0..<0
    /// The first layout row of each chunk of the window, and the window's row count at the end.
    var chunkRows: [Int] = [0]
    /// The first entity (in the stitched entities) of each chunk of the window.
    var entityBase: [Int] = [0]
    /// The bytes of each chunk of the window.
    var chunkBytes: [Range<Int>] = []
    /// Whether the window holds the document's last chunk.
    var reachesEnd = true
    /// Whether End waits for the document's index, built off the loop.
    var waitsForEnd = false
    /// The provisional index End went to (chunks found from the end of the document),
    /// until the index says where it is (``ReaderDocument/settledIndex(of:)``).
    var provisionalEnd: Int?
    /// The words revealed anywhere in the document, and whether `r` revealed every one.
    var revealed: Set<RevealKey> = []
    var revealsAll = false
    /// Chunk layouts for `layoutSize`, by chunk index.
    var layouts: [Int: TextLayout] = [:]
    var layoutSize: TerminalSize?

    /// Rows between two chunks: the separator's line breaks less the one that ends a row.
    var gapRows: Int { max(0, document.separator.utf8.count { $0 == 0x0A } - 1) }

    /// Rows between chunk `index` and the one before it: none where it goes on with that
    /// chunk's block (``ReaderChunk/joinsPrevious``).
    func gapRows(before index: Int) -> Int { document.chunk(at: index)?.joinsPrevious == true ? 0 : gapRows }

    /// The layout of chunk `index` at `size` (kept while it is near the window).
    mutating func layout(ofChunk index: Int, size: TerminalSize) -> TextLayout? {
        if layoutSize != size {
            layouts.removeAll()
            layoutSize = size
        }
        if let l = layouts[index] { return l }
        guard let chunk = document.chunk(at: index) else { return nil }
        let l = layoutMessage(size, chunk.message)
        layouts[index] = l
        return l
    }

    /// The rows chunk `index` takes (its layout's, at least one).
    mutating func rows(ofChunk index: Int, size: TerminalSize) -> Int? {
        layout(ofChunk: index, size: size).map { max(1, $0.rows ?? $0.lines.count) }
    }

    /// The window's chunk holding window row `row` (a gap row belongs to the chunk
    /// before it), and the row within the chunk.
    func position(ofRow row: Int) -> (chunk: Int, row: Int) {
        guard !chunks.isEmpty else { return (0, 0) }
        var low = 0
        var high = chunks.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if chunkRows[mid] <= row { low = mid } else { high = mid - 1 }
        }
        return (chunks.lowerBound + low, max(0, row - chunkRows[low]))
    }

    /// The window row of row `row` of chunk `chunk`, if the chunk is in the window.
    func windowRow(chunk: Int, row: Int) -> Int? {
        guard chunks.contains(chunk) else { return nil }
        let k = chunk - chunks.lowerBound
        return chunkRows[k] + min(row, max(0, chunkRows[k + 1] - chunkRows[k] - 1))
    }

    /// Stitches the laid-out chunks `range` into one layout, and the entities to draw
    /// their formatting with; fills in the window's row and entity tables.
    mutating func stitch(_ range: Range<Int>, size: TerminalSize) -> (TextLayout, [Entity]) {
        chunks = range
        chunkRows = []
        entityBase = []
        chunkBytes = []
        var lines: [LayoutLine] = []
        var graphemes: [PlacedGrapheme] = []
        var words: [WordBox] = []
        var entities: [Entity] = []
        var metrics: LayoutMetrics?
        var width = 0
        var columns = 0
        var row = 0
        var utf16 = 0
        let separatorUnits = document.separator.utf16.count
        for (k, index) in range.enumerated() {
            guard let chunk = document.chunk(at: index), let l = layout(ofChunk: index, size: size) else { continue }
            if k > 0 {
                // A chunk that goes on with the block before it follows it after a line break.
                row += chunk.joinsPrevious ? 0 : gapRows
                utf16 += chunk.joinsPrevious ? 1 : separatorUnits
            }
            metrics = l.metrics
            let lineHeight = max(1, l.metrics.lineHeight)
            chunkRows.append(row)
            entityBase.append(entities.count)
            chunkBytes.append(chunk.bytes)
            let wordBase = words.count
            for var e in chunk.message.entities {
                e.offset += utf16
                entities.append(e)
            }
            for var line in l.lines {
                line.index += row
                line.y += row * lineHeight
                line.utf16Offset += utf16
                lines.append(line)
            }
            for var g in l.graphemes {
                g.line += row
                g.utf16Offset += utf16
                if let w = g.word { g.word = w + wordBase }
                graphemes.append(g)
            }
            for var w in l.words {
                w.line += row
                w.rect.y += Double(row * lineHeight)
                w.utf16Offset += utf16
                w.entity += entityBase[k]
                words.append(w)
            }
            width = max(width, l.width)
            columns = max(columns, l.columns ?? 0)
            row += max(1, l.rows ?? l.lines.count)
            utf16 += chunk.message.text.utf16.count
        }
        chunkRows.append(row)
        for i in Array(layouts.keys) where i < range.lowerBound - 4 || i >= range.upperBound + 4 { layouts[i] = nil }
        let m = metrics ?? layoutMessage(size, Message(text: "")).metrics
        let layout = TextLayout(
            metrics: m, width: width, height: row * max(1, m.lineHeight), columns: columns, rows: row,
            lines: lines, graphemes: graphemes, words: words)
        return (layout, entities)
    }

    /// The key of a word of the stitched layout.
    func key(of box: WordBox) -> RevealKey {
        var k = 0
        while k + 1 < entityBase.count && entityBase[k + 1] <= box.entity { k += 1 }
        return RevealKey(chunk: chunks.lowerBound + k, entity: box.entity - entityBase[k], word: box.word)
    }
}
