/// Writes a canvas as lines of text for output that is not a live terminal (a pipe, a
/// file): no cursor movement, each row ended by a newline, trailing blanks dropped.
///
/// With a capability other than ``ColorCapability/none`` the cells carry SGR colours
/// and attributes (each line ends with `CSI 0 m`, like `ls --color=always`); with
/// `none` the output has no escape sequences at all.
public enum StillFrameWriter {
    /// Appends the rows of `canvas` to `out`; rows past the last non-blank one are left out
    /// unless `keepsBlankRows` (for a band of a longer frame).
    public static func write(
        _ canvas: CellCanvas, capability: ColorCapability, into out: inout [UInt8], keepsBlankRows: Bool = false
    ) {
        var lastRow = canvas.height - 1
        while !keepsBlankRows && lastRow >= 0 && isBlankRow(canvas, lastRow) { lastRow -= 1 }
        guard lastRow >= 0 else { return }
        var encoder = ANSIEncoder(capability: capability, synchronized: false)
        for row in 0...lastRow {
            var end = canvas.width
            while end > 0 && canvas[end - 1, row] == .blank { end -= 1 }
            var column = 0
            var styled = false
            while column < end {
                let cell = canvas[column, row]
                if cell.width == 0 {
                    column += 1
                    continue
                }
                if capability != .none {
                    var pen: [UInt8] = []
                    encoder.setPen(cell.style, into: &pen)
                    if !pen.isEmpty { styled = true }
                    out.append(contentsOf: pen)
                }
                if cell.symbol & CanvasCell.clusterFlag != 0 {
                    out.append(contentsOf: canvas.clusters[Int(cell.symbol & ~CanvasCell.clusterFlag)].utf8)
                } else {
                    ANSI.appendUTF8(cell.symbol, to: &out)
                }
                column += Int(cell.width)
            }
            if styled || (capability != .none && row == lastRow && encoder.pen != nil && encoder.pen != .plain) {
                out.append(contentsOf: ANSI.resetPen)
                encoder.invalidate()
            }
            out.append(0x0A)
        }
    }

    private static func isBlankRow(_ canvas: CellCanvas, _ row: Int) -> Bool {
        for column in 0..<canvas.width where canvas[column, row] != .blank { return false }
        return true
    }
}
