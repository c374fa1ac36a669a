public import SpoilerLayout

extension TextLayout {
    /// The layout's width in terminal cells: its `columns` (`mono`), else its width over
    /// the cell width, rounded up. What ``ANSIFrameBuilder`` draws and a render checks
    /// against ``RenderLimits/maxCells`` before any canvas is made.
    public var cellColumns: Int {
        columns ?? Int((Double(width) / Double(max(1, metrics.cellWidth))).rounded(.up))
    }

    /// The layout's height in terminal cells: its `rows` (`mono`), else its line count.
    public var cellRows: Int { rows ?? lines.count }
}
