/// A grid of cells that a frame is drawn into before it is encoded for a terminal
/// (ratatui's `Buffer`): width × height cells in one flat array, row after row.
///
/// Coordinates are cells: column 0 is the left edge, row 0 the top. Drawing outside the
/// grid is clipped. A wide character takes its cell and the next, which becomes a
/// continuation cell; overwriting either half of a wide character blanks the other half,
/// so the grid never holds half a character.
public struct CellCanvas: Sendable {
    /// The number of columns; change it with ``resize(width:height:)``.
    public private(set) var width: Int
    /// The number of rows; change it with ``resize(width:height:)``.
    public private(set) var height: Int
    /// The cells, row-major: the cell at (column, row) is `cells[row * width + column]`.
    public var cells: [CanvasCell]
    /// Multi-scalar graphemes, indexed by the low bits of a cell's symbol.
    public private(set) var clusters: [String] = []

    /// A canvas of blank cells.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "canvas size \(width)×\(height) is negative")
        self.width = width
        self.height = height
        cells = Array(repeating: .blank, count: width * height)
    }

    /// Blanks every cell, keeping the storage.
    public mutating func clear() {
        for i in cells.indices { cells[i] = .blank }
        clusters.removeAll(keepingCapacity: true)
    }

    /// Changes the size and blanks every cell.
    public mutating func resize(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "canvas size \(width)×\(height) is negative")
        self.width = width
        self.height = height
        cells = Array(repeating: .blank, count: width * height)
        clusters.removeAll(keepingCapacity: true)
    }

    /// The cell at `column`, `row` (which must be inside the grid).
    @inlinable
    public subscript(column: Int, row: Int) -> CanvasCell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    /// Stores one grapheme at `column`, `row` taking `columns` cells (1 or 2).
    ///
    /// Control and bidirectional scalars are replaced by visible symbols
    /// (``TerminalSafety``). An empty `text` or zero `columns` (a zero-width grapheme)
    /// stores nothing; a wide grapheme that does not fit before the right edge is
    /// stored as a blank cell.
    /// - Returns: the columns taken (0, 1 or 2).
    @discardableResult
    public mutating func put(_ text: String, column: Int, row: Int, columns: Int = 1, style: CellStyle) -> Int {
        guard row >= 0, row < height, column >= 0, column < width, columns > 0, !text.isEmpty else { return 0 }
        let wide = columns >= 2
        if wide && column + 1 >= width {
            put(symbol: 0x20, column: column, row: row, style: style)
            return 1
        }
        let scalars = text.unicodeScalars
        var symbol: UInt32
        if scalars.count == 1, let s = scalars.first {
            symbol = TerminalSafety.visible(s.value)
        } else {
            symbol = CanvasCell.clusterFlag | UInt32(clusters.count)
            clusters.append(TerminalSafety.visibleText(text))
        }
        if symbol == CanvasCell.continuation { symbol = 0x2400 }
        store(CanvasCell(symbol: symbol, width: wide ? 2 : 1, style: style), at: column, row: row)
        if wide {
            store(CanvasCell(symbol: CanvasCell.continuation, width: 0, style: style), at: column + 1, row: row)
        }
        return wide ? 2 : 1
    }

    /// Stores a one-column symbol (a Unicode scalar value) at `column`, `row`.
    ///
    /// Unsafe scalars are replaced as in ``put(_:column:row:columns:style:)``.
    @inlinable
    public mutating func put(symbol: UInt32, column: Int, row: Int, style: CellStyle) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        var s = TerminalSafety.visible(symbol)
        if s == CanvasCell.continuation || s >= CanvasCell.clusterFlag || s > 0x10FFFF { s = 0xFFFD }
        store(CanvasCell(symbol: s, width: 1, style: style), at: column, row: row)
    }

    /// Stores a one-scalar grapheme `columns` (1 or 2) wide at `column`, `row`; as
    /// ``put(_:column:row:columns:style:)`` without the string.
    /// - Returns: the columns taken (0, 1 or 2).
    @discardableResult
    public mutating func put(symbol: UInt32, columns: Int, column: Int, row: Int, style: CellStyle) -> Int {
        guard row >= 0, row < height, column >= 0, column < width, columns > 0 else { return 0 }
        if columns == 1 {
            put(symbol: symbol, column: column, row: row, style: style)
            return 1
        }
        if column + 1 >= width {
            put(symbol: 0x20, column: column, row: row, style: style)
            return 1
        }
        var s = TerminalSafety.visible(symbol)
        if s == CanvasCell.continuation || s >= CanvasCell.clusterFlag || s > 0x10FFFF { s = 0xFFFD }
        store(CanvasCell(symbol: s, width: 2, style: style), at: column, row: row)
        store(CanvasCell(symbol: CanvasCell.continuation, width: 0, style: style), at: column + 1, row: row)
        return 2
    }

    /// Writes a string of one-column graphemes from `column` on; returns the column after it.
    @discardableResult
    public mutating func write(_ text: String, column: Int, row: Int, style: CellStyle) -> Int {
        var c = column
        for g in text { c += put(String(g), column: c, row: row, columns: 1, style: style) }
        return c
    }

    /// Sets the style of the cell at `column`, `row`, keeping its symbol.
    @inlinable
    public mutating func setStyle(_ style: CellStyle, column: Int, row: Int) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        let i = row * width + column
        cells[i].foreground = style.foreground
        cells[i].background = style.background
        cells[i].attributes = style.attributes
    }

    /// Gives the cell at `column`, `row` a background and adds attributes, keeping its
    /// symbol and text colour (the focus highlight).
    @inlinable
    public mutating func highlight(column: Int, row: Int, background: CellColor, attributes: CellAttributes = []) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        let i = row * width + column
        cells[i].background = background
        cells[i].attributes.formUnion(attributes)
    }

    /// Stores `cell`, blanking the other half of any wide character it overwrites.
    @usableFromInline
    mutating func store(_ cell: CanvasCell, at column: Int, row: Int) {
        let i = row * width + column
        let old = cells[i]
        if old.width == 1 && cell.width == 1 {
            cells[i] = cell
            return
        }
        if old.width == 0 && column > 0 && cell.width != 0 {
            // Overwriting the right half of a wide character: blank its left half.
            cells[i - 1] = CanvasCell(symbol: 0x20, width: 1, style: cells[i - 1].style)
        }
        if old.width == 2 && column + 1 < width && cell.width != 2 {
            // Overwriting the left half of a wide character: blank its right half.
            cells[i + 1] = CanvasCell(symbol: 0x20, width: 1, style: cells[i + 1].style)
        }
        cells[i] = cell
    }

    /// The text a cell shows ("" for a continuation cell).
    public func text(of cell: CanvasCell) -> String {
        if cell.symbol == CanvasCell.continuation { return "" }
        if cell.symbol & CanvasCell.clusterFlag != 0 { return clusters[Int(cell.symbol & ~CanvasCell.clusterFlag)] }
        return String(Unicode.Scalar(cell.symbol).map(Character.init) ?? "\u{FFFD}")
    }

    /// The grid as lines of text, trailing spaces kept (for tests and still frames).
    public var lines: [String] {
        (0..<height).map { row in
            var s = ""
            for column in 0..<width { s += text(of: self[column, row]) }
            return s
        }
    }

    /// Whether a cell of this canvas and a cell of `other` look the same.
    @inlinable
    func cell(_ i: Int, equals j: Int, of other: CellCanvas) -> Bool {
        let a = cells[i]
        let b = other.cells[j]
        if a == b {
            if a.symbol & CanvasCell.clusterFlag == 0 { return true }
            return clusters[Int(a.symbol & ~CanvasCell.clusterFlag)]
                == other.clusters[Int(b.symbol & ~CanvasCell.clusterFlag)]
        }
        if a.symbol & CanvasCell.clusterFlag != 0 && b.symbol & CanvasCell.clusterFlag != 0 && a.width == b.width
            && a.foreground == b.foreground && a.background == b.background && a.attributes == b.attributes
        {
            return clusters[Int(a.symbol & ~CanvasCell.clusterFlag)]
                == other.clusters[Int(b.symbol & ~CanvasCell.clusterFlag)]
        }
        return false
    }
}
