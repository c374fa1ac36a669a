public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout

extension StillFrameWriter {
    /// About how many UTF-8 bytes of a message ``writeMessage(_:engine:options:scene:write:)``
    /// lays out and draws at a time.
    public static let pieceBytes = 16_384

    /// Writes the still frame of `message` laid out by `engine`, as
    /// ``writeMessage(layout:options:scene:into:)`` does, handing the bytes to `write` a
    /// piece at a time; the formatting drawn is the message's entities.
    ///
    /// A message of at most ``pieceBytes`` bytes, or one laid out with a font, is laid out
    /// whole and drawn by ``writeMessage(layout:options:scene:into:)``, byte for byte; so,
    /// for now, is an unwrapped message with a tab. A longer `mono` message is laid out and
    /// drawn in pieces of about ``pieceBytes`` bytes, each piece with a scene of its own
    /// words (made by `scene` from the piece's layout), so that time grows linearly with the
    /// message and memory stays within the message plus one piece, however long a line is:
    /// - unwrapped, the pieces are cut after a newline or a space (else between two ASCII
    ///   characters) and each continues its row where the previous piece stopped (tabs keep
    ///   their stops);
    /// - wrapped, every row of a piece but its last is written, and the next piece starts
    ///   where that last row starts, so that rows break where they break in the whole
    ///   layout (a piece that makes a single row is taken twice as long).
    ///
    /// Hidden text is never written.
    ///
    /// - Parameters:
    ///   - message: the message; its entities are its formatting and spoilers.
    ///   - engine: lays out the message (or its pieces).
    ///   - options: the look (its `fillHiddenCells` is set, its `formatting` replaced).
    ///   - scene: makes the scene for a layout (``SpoilerScene/init(layout:preset:options:seed:)``).
    ///   - write: takes each run of bytes, in order.
    /// - Complexity: O(n) time for n bytes of text (a run of more than ``pieceBytes`` bytes
    ///   with no newline, space or two ASCII characters in a row is laid out as one piece).
    public static func writeMessage(
        _ message: Message, engine: LayoutEngine, options: ANSIFrameOptions,
        scene makeScene: (TextLayout) -> SpoilerScene, write: ([UInt8]) -> Void
    ) {
        var options = options
        options.formatting = message.entities
        var text = message.text
        // Tabs are left to the whole layout for now: a piece's tab stops do not yet always
        // match the whole line's.
        guard case .mono = engine.model, text.utf8.count > pieceBytes,
            engine.wrapWidth != nil || !text.utf8.contains(0x09)
        else {
            var out: [UInt8] = []
            writeMessage(layout: engine.layout(message), options: options, scene: makeScene, into: &out)
            write(out)
            return
        }
        text.makeContiguousUTF8()
        options.fillHiddenCells = true
        if engine.wrapWidth != nil {
            writeWrapped(
                text, entities: message.entities, engine: engine, options: options, scene: makeScene, write: write)
            return
        }
        _ = text.utf8.withContiguousStorageIfAvailable { p in
            var pieces = MessagePieces(bytes: p, entities: message.entities)
            var rows = RowWriter(capability: options.capability)
            var rowColumn = 0
            var out: [UInt8] = []
            while let piece = pieces.next() {
                // Spaces before the piece put its first column where the row stands, modulo
                // the tab stop, so that its tabs end where they would in the whole line.
                let pad = rowColumn % 8
                let pieceText = String(repeating: " ", count: pad) + String(decoding: piece.bytes, as: UTF8.self)
                let entities = piece.entities.map { e -> Entity in
                    var e = e
                    e.offset += pad
                    return e
                }
                let layout = engine.layout(Message(text: pieceText, unsortedEntities: entities))
                options.formatting = entities
                var builder = ANSIFrameBuilder(layout: layout, options: options)
                var canvas = CellCanvas(width: builder.columns, height: builder.rows)
                builder.draw(makeScene(layout), into: &canvas)
                let rowCount = max(1, layout.rows ?? layout.lines.count)
                let cellWidth = max(1, layout.metrics.cellWidth)
                for r in 0..<min(rowCount, canvas.height) {
                    if r > 0 { rows.endRow(into: &out) }
                    // Only the line's own cells: the canvas's blanks past its end are not
                    // spaces of the text, and must not be held for the next piece.
                    let lineEnd =
                        r < layout.lines.count && layout.lines[r].index == r
                        ? (layout.lines[r].width + cellWidth - 1) / cellWidth : canvas.width
                    rows.append(canvas, row: r, from: r == 0 ? pad : 0, to: lineEnd)
                }
                let lastWidth = (layout.lines.last?.width ?? 0) / max(1, layout.metrics.cellWidth)
                rowColumn = rowCount > 1 ? lastWidth : rowColumn + max(0, lastWidth - pad)
                if !out.isEmpty {
                    write(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            rows.endRow(into: &out)
            if !out.isEmpty { write(out) }
        }
    }
}

extension StillFrameWriter {
    /// The still frame of a long wrapped `mono` message, a piece at a time: each piece's
    /// rows but its last are written, and the next piece starts where that row starts.
    static func writeWrapped(
        _ text: String, entities: [Entity], engine: LayoutEngine, options: ANSIFrameOptions,
        scene makeScene: (TextLayout) -> SpoilerScene, write: ([UInt8]) -> Void
    ) {
        var options = options
        var text = text
        text.makeContiguousUTF8()
        _ = text.utf8.withContiguousStorageIfAvailable { p in
            var pieces = MessagePieces(bytes: p, entities: entities)
            var rows = RowWriter(capability: options.capability)
            var out: [UInt8] = []
            var wroteRow = false
            var size = pieceBytes
            while true {
                let (start, utf16Start) = (pieces.start, pieces.utf16Start)
                guard let piece = pieces.next(size: size) else { break }
                let isLast = pieces.start == p.count
                let pieceText = String(decoding: piece.bytes, as: UTF8.self)
                let layout = engine.layout(Message(text: pieceText, unsortedEntities: piece.entities))
                let rowCount = max(1, layout.rows ?? layout.lines.count)
                // A piece within one row: take more, so that a row ends inside it.
                if !isLast && rowCount < 2 {
                    pieces.rewind(to: start, utf16: utf16Start)
                    size *= 2
                    continue
                }
                size = pieceBytes
                let kept = isLast ? rowCount : rowCount - 1
                options.formatting = piece.entities
                var builder = ANSIFrameBuilder(layout: layout, options: options)
                var canvas = CellCanvas(width: builder.columns, height: builder.rows)
                builder.draw(makeScene(layout), into: &canvas)
                for r in 0..<min(kept, canvas.height) {
                    if wroteRow { rows.endRow(into: &out) }
                    rows.append(canvas, row: r, from: 0, to: canvas.width)
                    wroteRow = true
                }
                if !isLast {
                    // The next piece starts with the first unit of the row left out.
                    let units = layout.lines.first { $0.index == kept }?.utf16Offset ?? pieceText.utf16.count
                    let bytes = pieceText.utf8.distance(
                        from: pieceText.startIndex, to: pieceText.utf16.index(pieceText.startIndex, offsetBy: units))
                    pieces.rewind(to: start + bytes, utf16: utf16Start + units)
                }
                if !out.isEmpty {
                    write(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            rows.endRow(into: &out)
            if !out.isEmpty { write(out) }
        }
    }
}

/// The rows of a still frame written cell by cell from canvases drawn piece by piece:
/// trailing blanks of a row and trailing blank rows are held back until something follows.
struct RowWriter {
    var encoder: ANSIEncoder
    let capability: ColorCapability
    /// The bytes of the row being written, and whether it has anything but blanks.
    var row: [UInt8] = []
    var hasContent = false
    var styled = false
    /// Blank cells held back in this row; blank rows held back before it.
    var blanks = 0
    var blankRows = 0
    /// Cells written (a count of the work, for tests).
    var cells = 0

    init(capability: ColorCapability) {
        self.capability = capability
        encoder = ANSIEncoder(capability: capability, synchronized: false)
    }

    /// Appends row `r` of `canvas` from column `from` up to column `to` to the row being
    /// written.
    mutating func append(_ canvas: CellCanvas, row r: Int, from: Int, to end: Int) {
        var column = max(0, from)
        let end = min(end, canvas.width)
        while column < end {
            let cell = canvas[column, r]
            if cell.width == 0 {
                column += 1
                continue
            }
            if cell == .blank {
                blanks += 1
                column += 1
                continue
            }
            while blanks > 0 {
                put(.blank, canvas)
                blanks -= 1
            }
            put(cell, canvas)
            hasContent = true
            column += Int(cell.width)
        }
    }

    private mutating func put(_ cell: CanvasCell, _ canvas: CellCanvas) {
        cells += 1
        if capability != .none {
            let before = row.count
            encoder.setPen(cell.style, into: &row)
            if row.count != before { styled = true }
        }
        if cell.symbol & CanvasCell.clusterFlag != 0 {
            row.append(contentsOf: canvas.clusters[Int(cell.symbol & ~CanvasCell.clusterFlag)].utf8)
        } else {
            ANSI.appendUTF8(cell.symbol, to: &row)
        }
    }

    /// Ends the row being written: appends it to `out` after the blank rows held back, or
    /// holds it back if it is blank.
    mutating func endRow(into out: inout [UInt8]) {
        defer {
            row.removeAll(keepingCapacity: true)
            hasContent = false
            styled = false
            blanks = 0
        }
        guard hasContent else {
            blankRows += 1
            return
        }
        out.append(contentsOf: repeatElement(0x0A, count: blankRows))
        blankRows = 0
        out.append(contentsOf: row)
        if styled || (capability != .none && encoder.pen != nil && encoder.pen != .plain) {
            out.append(contentsOf: ANSI.resetPen)
            encoder.invalidate()
        }
        out.append(0x0A)
    }
}

/// A message's UTF-8 cut into pieces of about ``StillFrameWriter/pieceBytes`` bytes at
/// grapheme boundaries, each with the entities that overlap it (clipped, offsets from the
/// piece's start).
struct MessagePieces {
    struct Piece {
        var bytes: UnsafeBufferPointer<UInt8>
        var entities: [Entity]
    }

    let bytes: UnsafeBufferPointer<UInt8>
    /// In canonical order (by offset).
    let entities: [Entity]
    var start = 0
    var utf16Start = 0
    /// The next entity not yet taken, and those taken that may reach further.
    var nextEntity = 0
    var open: [Entity] = []
    let size: Int

    init(bytes: UnsafeBufferPointer<UInt8>, entities: [Entity], size: Int = StillFrameWriter.pieceBytes) {
        self.bytes = bytes
        self.entities = entities
        self.size = max(1, size)
    }

    mutating func next(size: Int? = nil) -> Piece? {
        let n = bytes.count
        guard start < n else { return nil }
        let end = cut(after: start, size: size ?? self.size)
        var units = 0
        for i in start..<end {
            let b = bytes[i]
            if b & 0xC0 != 0x80 { units += 1 }
            if b >= 0xF0 { units += 1 }
        }
        let u0 = utf16Start
        let u1 = u0 + units
        open.removeAll { $0.offset + $0.length <= u0 }
        while nextEntity < entities.count && entities[nextEntity].offset < u1 {
            let e = entities[nextEntity]
            if e.offset + e.length > u0 { open.append(e) }
            nextEntity += 1
        }
        var clipped: [Entity] = []
        for e in open where e.offset < u1 && e.offset + e.length > u0 {
            var c = e
            c.offset = max(e.offset, u0) - u0
            c.length = min(e.offset + e.length, u1) - max(e.offset, u0)
            clipped.append(c)
        }
        let piece = Piece(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]), entities: clipped)
        start = end
        utf16Start = u1
        return piece
    }

    /// The most cells a piece spans: its lines times its longest line, counted in bytes (a
    /// tab as 8), which is at least the cells of its canvas.
    static let maxCells = 1 << 17

    /// Where the piece starting at `s` ends: as ``naturalCut(after:size:)`` says, or after
    /// an earlier newline when the piece would span more than ``maxCells`` (a long line
    /// among many short ones), but never before its first newline.
    func cut(after s: Int, size: Int) -> Int {
        let end = naturalCut(after: s, size: size)
        var longest = 0
        var line = 0
        var lines = 0
        var fitting: Int?
        for i in s..<end {
            let b = bytes[i]
            guard b == 0x0A else {
                line += b == 0x09 ? 8 : 1
                continue
            }
            longest = max(longest, line)
            line = 0
            lines += 1
            // The piece cut after this newline spans `lines` lines and the empty one after it.
            // (At most 2³¹ bytes a message: the product does not overflow.)
            guard (longest + 1) * (lines + 1) <= MessagePieces.maxCells else { return fitting ?? i + 1 }
            fitting = i + 1
        }
        longest = max(longest, line)
        return (longest + 1) * (lines + 1) <= MessagePieces.maxCells ? end : (fitting ?? end)
    }

    /// Where the piece starting at `s` ends for its size: after the last newline in its
    /// first `size` bytes, else after the first space from there (within another `size`
    /// bytes), else between the first two ASCII characters from there, else at the next
    /// newline.
    func naturalCut(after s: Int, size: Int) -> Int {
        let n = bytes.count
        let target = s + size
        if target >= n { return n }
        var i = target
        while i > s {
            if bytes[i - 1] == 0x0A { return i }
            i -= 1
        }
        let limit = min(n, target + size)
        i = target
        while i < limit {
            if bytes[i - 1] == 0x20 && bytes[i] < 0x80 { return i }
            i += 1
        }
        i = target
        while i < n {
            let a = bytes[i - 1]
            let b = bytes[i]
            if a == 0x0A || (a < 0x80 && b < 0x80 && !(a == 0x0D && b == 0x0A)) { return i }
            i += 1
        }
        return n
    }

    /// Goes back to byte `byte` (UTF-16 unit `utf16`) of the piece last taken, so that the
    /// next piece starts there.
    mutating func rewind(to byte: Int, utf16: Int) {
        start = byte
        utf16Start = utf16
    }
}
