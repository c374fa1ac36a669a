extension CellCanvas {
    /// The grapheme cell (`column`, `row`) shows, as a host copies it into a screen buffer of
    /// its own: one character, a multi-scalar cluster (an emoji sequence), or "" for the
    /// trailing cell of a wide character.
    ///
    /// Control characters of the message were replaced by visible symbols when the cell was
    /// stored, so the string is safe to write to a terminal.
    ///
    /// - Parameters:
    ///   - column: The cell's column from 0.
    ///   - row: The cell's row from 0.
    /// - Returns: The cell's text.
    public func text(column: Int, row: Int) -> String {
        let symbol = self[column, row].symbol
        if symbol == CanvasCell.continuation { return "" }
        if symbol & CanvasCell.clusterFlag != 0 {
            let i = Int(symbol & ~CanvasCell.clusterFlag)
            return clusters.indices.contains(i) ? clusters[i] : "\u{FFFD}"
        }
        return Unicode.Scalar(symbol).map { String(Character($0)) } ?? "\u{FFFD}"
    }

    /// The text of row `row`: every cell's ``text(column:row:)``, trailing spaces dropped.
    ///
    /// - Parameter row: The row from 0.
    /// - Returns: What a person reads on that row, without colours.
    public func text(row: Int) -> String {
        var line = ""
        for column in 0..<width { line += text(column: column, row: row) }
        while line.last == " " { line.removeLast() }
        return line
    }
}
