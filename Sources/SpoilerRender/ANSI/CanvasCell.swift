/// One cell of a ``CellCanvas``: what it shows and how.
///
/// `symbol` is a Unicode scalar value for a one-scalar grapheme, ``CanvasCell/continuation``
/// for the trailing cell of a wide character (ratatui's "skip" cell), or
/// ``CanvasCell/clusterFlag`` | i for the multi-scalar grapheme `clusters[i]` of its canvas.
public struct CanvasCell: Sendable, Hashable {
    /// What the cell shows: a Unicode scalar value, ``continuation`` or ``clusterFlag`` | an
    /// index into the canvas's `clusters` (see above).
    public var symbol: UInt32
    /// Columns the symbol takes: 1 or 2, and 0 for a continuation cell.
    public var width: UInt8
    /// Bold, dim, italic, underline, reverse and strikethrough, as set for this cell.
    public var attributes: CellAttributes
    /// The colour of the symbol.
    public var foreground: CellColor
    /// The colour behind the symbol.
    public var background: CellColor

    /// A cell showing `symbol`, `width` columns wide (1 or 2, 0 for ``continuation``), drawn
    /// with `style`'s colours and attributes.
    @inlinable
    public init(symbol: UInt32, width: UInt8, style: CellStyle) {
        self.symbol = symbol
        self.width = width
        self.attributes = style.attributes
        self.foreground = style.foreground
        self.background = style.background
    }

    /// The trailing cell of a wide character: never written itself.
    public static let continuation: UInt32 = 0
    /// Marks a symbol that indexes the canvas's cluster table.
    public static let clusterFlag: UInt32 = 0x8000_0000

    /// A space with default colours.
    public static let blank = CanvasCell(symbol: 0x20, width: 1, style: .plain)

    /// The style the cell is drawn with.
    @inlinable public var style: CellStyle {
        CellStyle(foreground: foreground, background: background, attributes: attributes)
    }
}
