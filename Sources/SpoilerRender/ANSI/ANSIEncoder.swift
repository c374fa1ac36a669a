/// Turns canvases into the bytes that bring a terminal from one frame to the next.
///
/// The encoder remembers where the terminal's cursor is and which SGR colours and
/// attributes are in effect after the bytes it produced, so that consecutive frames
/// write only the cells that changed (termbox's `tb_present`, ratatui's `BufferDiff`),
/// move the cursor with the shortest of the absolute and relative sequences, and skip
/// SGR parameters that would not change anything. Each non-empty frame is wrapped in
/// synchronized output (DEC private mode 2026: `CSI ? 2026 h` … `CSI ? 2026 l`), so a
/// terminal that supports it shows the frame at once; others ignore the mode.
///
/// The encoder assumes nothing else writes to the terminal between its frames; after
/// anything else has (a resize, a shell command), call ``invalidate()``.
///
/// ```swift
/// var encoder = ANSIEncoder(capability: .trueColor)
/// var out: [UInt8] = []
/// encoder.encodeFrame(from: previous, to: next, into: &out)   // previous nil: a full frame
/// ```
public struct ANSIEncoder: Sendable {
    /// The colours the output may use; cells are expected to hold colours already reduced to it.
    public var capability: ColorCapability
    /// Whether each frame is wrapped in DEC mode 2026 synchronized output.
    public var synchronized: Bool
    /// The screen cell (0-based) where the canvas's top-left cell goes: cursor positions
    /// are offset by it, so a canvas can be drawn into a rectangle of a larger screen.
    ///
    /// Default 0, 0 (the canvas is the screen).
    public var originColumn = 0
    /// The screen row (0-based) of the canvas's top row; see ``originColumn``.
    public var originRow = 0
    /// Whether a frame without a previous one (or after a change of size) starts by
    /// clearing the whole screen (`CSI 2 J`), then writes the non-blank cells. Without
    /// it (a canvas that is only a rectangle of someone else's screen), every cell of the
    /// canvas is written, blanks too, and nothing outside it is touched.
    ///
    /// Default true.
    public var clearsScreen = true

    /// The cursor after the bytes written so far, or nil when unknown.
    public private(set) var cursorColumn: Int?
    /// The cursor's row (0-based, in canvas rows) after the bytes written so far, or nil when
    /// unknown; see ``cursorColumn``.
    public private(set) var cursorRow: Int?
    /// The pen (SGR state) after the bytes written so far, or nil when unknown.
    public private(set) var pen: CellStyle?

    /// An encoder for a terminal showing `capability`'s colours, wrapping each frame in DEC mode
    /// 2026 synchronized output unless `synchronized` is false. The cursor and pen start unknown,
    /// so the first frame sets both.
    public init(capability: ColorCapability, synchronized: Bool = true) {
        self.capability = capability
        self.synchronized = synchronized
    }

    /// Forgets the cursor position and pen, so the next frame sets both explicitly.
    public mutating func invalidate() {
        cursorColumn = nil
        cursorRow = nil
        pen = nil
    }

    /// Appends to `out` the bytes that turn a screen showing `previous` into `next`.
    ///
    /// With `previous` nil, or of another size, the screen is cleared (`CSI 2 J`) and
    /// every non-blank cell is written; with ``clearsScreen`` off, every cell is written
    /// instead and nothing else is cleared. When no cell changed, nothing is appended.
    /// - Complexity: O(cells) comparisons; output proportional to the changed cells.
    public mutating func encodeFrame(from previous: CellCanvas?, to next: CellCanvas, into out: inout [UInt8]) {
        let start = out.count
        if synchronized { out.append(contentsOf: ANSI.beginSynchronized) }
        let bodyStart = out.count
        if let previous, previous.width == next.width, previous.height == next.height {
            encodeChanges(from: previous, to: next, into: &out)
        } else if !clearsScreen {
            // A cell that no real cell equals, so that every cell is written.
            var unknown = CellCanvas(width: next.width, height: next.height)
            for i in unknown.cells.indices { unknown.cells[i].symbol = 0x7FFF_FFFF }
            encodeChanges(from: unknown, to: next, into: &out)
        } else {
            setPen(.plain, into: &out)
            out.append(contentsOf: ANSI.clearScreen)
            cursorColumn = 0
            cursorRow = 0
            let blank = CellCanvas(width: next.width, height: next.height)
            encodeChanges(from: blank, to: next, into: &out)
        }
        if out.count == bodyStart {
            out.removeSubrange(start...)
            return
        }
        if synchronized { out.append(contentsOf: ANSI.endSynchronized) }
    }

    /// Appends every cell of `next`, changed or not: the full redraw that frame diffs are
    /// measured against.
    public mutating func encodeFullRedraw(_ next: CellCanvas, into out: inout [UInt8]) {
        if synchronized { out.append(contentsOf: ANSI.beginSynchronized) }
        for row in 0..<next.height {
            var column = 0
            while column < next.width {
                let cell = next.cells[row * next.width + column]
                if cell.width == 0 {
                    column += 1
                    continue
                }
                emit(cell, of: next, column: column, row: row, into: &out)
                column += Int(cell.width)
            }
        }
        if synchronized { out.append(contentsOf: ANSI.endSynchronized) }
    }

    /// The changed cells, in order, with ratatui's handling of wide characters: the cell
    /// after a wide character is skipped, and cells that a wide character used to cover
    /// are written again even when they compare equal.
    mutating func encodeChanges(from previous: CellCanvas, to next: CellCanvas, into out: inout [UInt8]) {
        let width = next.width
        let count = width * next.height
        var toSkip = 0
        var invalidated = 0
        var i = 0
        while i < count {
            // Skip runs of equal one-column cells quickly (the common case).
            let (current, old, same) = next.cells.withUnsafeBufferPointer { a in
                previous.cells.withUnsafeBufferPointer { b in
                    var j = i
                    if toSkip == 0 && invalidated == 0 {
                        while j < count {
                            let x = a[j]
                            let y = b[j]
                            if x.symbol != y.symbol || x.width != 1 || y.width != 1 || x.foreground != y.foreground
                                || x.background != y.background || x.attributes != y.attributes
                                || x.symbol & CanvasCell.clusterFlag != 0
                            {
                                break
                            }
                            j += 1
                        }
                    }
                    i = j
                    guard j < count else { return (CanvasCell.blank, CanvasCell.blank, true) }
                    return (a[j], b[j], false)
                }
            }
            if same && i >= count { break }
            if current.width != 0 && toSkip == 0 && (invalidated > 0 || !next.cell(i, equals: i, of: previous)) {
                emit(current, of: next, column: i % width, row: i / width, into: &out)
            }
            toSkip = max(Int(current.width), 1) - 1
            let affected = max(Int(current.width), Int(old.width), 1)
            invalidated = max(affected, invalidated) - 1
            i += 1
        }
    }

    /// Moves the cursor, sets the pen and writes one cell.
    @inline(__always)
    mutating func emit(_ cell: CanvasCell, of canvas: CellCanvas, column: Int, row: Int, into out: inout [UInt8]) {
        rewriteGap(upTo: column, row: row, of: canvas, into: &out)
        moveCursor(toColumn: column, row: row, into: &out)
        setPen(cell.style, into: &out)
        if cell.symbol & CanvasCell.clusterFlag != 0 {
            out.append(contentsOf: canvas.clusters[Int(cell.symbol & ~CanvasCell.clusterFlag)].utf8)
        } else {
            ANSI.appendUTF8(cell.symbol, to: &out)
        }
        let advanced = column + Int(cell.width)
        if advanced >= canvas.width || cell.width != 1 || cell.symbol & CanvasCell.clusterFlag != 0 {
            // After the last column the cursor waits to wrap, which terminals treat
            // differently; and a terminal may disagree with us about a wide or
            // multi-scalar grapheme's width. Either way, position absolutely next time.
            cursorColumn = nil
            cursorRow = nil
        } else {
            cursorColumn = advanced
        }
    }

    /// Moves the cursor right over a short gap by writing the gap's cells again.
    ///
    /// That is done when it takes fewer bytes than a cursor movement (`the butler`
    /// rather than `the CSI C butler`). Only cells drawn with the current pen, one column wide and of
    /// one scalar qualify; they are unchanged, so writing them again changes nothing.
    @inline(__always)
    mutating func rewriteGap(upTo column: Int, row: Int, of canvas: CellCanvas, into out: inout [UInt8]) {
        guard let cx = cursorColumn, cursorRow == row, column > cx, column - cx <= 3, let pen else { return }
        let dx = column - cx
        let moveCost = dx == 1 ? 3 : 4
        var cost = 0
        let base = row * canvas.width
        for k in cx..<column {
            let c = canvas.cells[base + k]
            guard c.width == 1, c.symbol < 0x80, c.symbol >= 0x20, c.foreground == pen.foreground,
                c.background == pen.background, c.attributes == pen.attributes
            else { return }
            cost += 1
        }
        guard cost < moveCost else { return }
        for k in cx..<column { out.append(UInt8(truncatingIfNeeded: canvas.cells[base + k].symbol)) }
        cursorColumn = column
    }

    /// Appends the shortest sequence that moves the cursor to `column`, `row`.
    mutating func moveCursor(toColumn column: Int, row: Int, into out: inout [UInt8]) {
        defer {
            cursorColumn = column
            cursorRow = row
        }
        guard let cx = cursorColumn, let cy = cursorRow else {
            ANSI.appendCUP(column: column + originColumn, row: row + originRow, to: &out)
            return
        }
        if cx == column && cy == row { return }
        let absolute = ANSI.cupLength(column: column + originColumn, row: row + originRow)
        let dy = row - cy
        let vertical = dy == 0 ? 0 : 3 + (abs(dy) == 1 ? 0 : ANSI.digits(abs(dy)))
        let dx = column - cx
        var horizontal = 0
        var useCR = false
        var useCHA = false
        if dx != 0 {
            let relative = 3 + (abs(dx) == 1 ? 0 : ANSI.digits(abs(dx)))
            let cha = 3 + (column + originColumn == 0 ? 0 : ANSI.digits(column + originColumn + 1))
            horizontal = relative
            if column + originColumn == 0 {
                horizontal = 1
                useCR = true
            } else if cha < relative {
                horizontal = cha
                useCHA = true
            }
        }
        if absolute <= vertical + horizontal {
            ANSI.appendCUP(column: column + originColumn, row: row + originRow, to: &out)
            return
        }
        if dy > 0 {
            ANSI.appendCSI(count: dy, final: UInt8(ascii: "B"), to: &out)
        } else if dy < 0 {
            ANSI.appendCSI(count: -dy, final: UInt8(ascii: "A"), to: &out)
        }
        if dx != 0 {
            if useCR {
                out.append(0x0D)
            } else if useCHA {
                ANSI.appendCSI(count: column + originColumn + 1, final: UInt8(ascii: "G"), to: &out)
            } else if dx > 0 {
                ANSI.appendCSI(count: dx, final: UInt8(ascii: "C"), to: &out)
            } else {
                ANSI.appendCSI(count: -dx, final: UInt8(ascii: "D"), to: &out)
            }
        }
    }

    /// Appends the SGR sequence that changes the pen to `style`, or nothing if it is set.
    mutating func setPen(_ style: CellStyle, into out: inout [UInt8]) {
        if let pen, pen == style { return }
        var current =
            pen
            ?? CellStyle(
                foreground: CellColor(raw: .max), background: CellColor(raw: .max), attributes: [])
        let start = out.count
        out.append(contentsOf: [0x1B, UInt8(ascii: "[")])
        var first = true
        func separator() {
            if !first { out.append(UInt8(ascii: ";")) }
            first = false
        }
        if pen == nil || !current.attributes.subtracting(style.attributes).isEmpty {
            separator()
            out.append(UInt8(ascii: "0"))
            current = .plain
        }
        let added = style.attributes.subtracting(current.attributes)
        if !added.isEmpty {
            for (bit, code) in CellAttributes.sgrCodes.enumerated() where added.rawValue & (1 << bit) != 0 {
                separator()
                ANSI.appendDecimal(Int(code), to: &out)
            }
        }
        if current.foreground != style.foreground {
            separator()
            appendColor(style.foreground, background: false, to: &out)
        }
        if current.background != style.background {
            separator()
            appendColor(style.background, background: true, to: &out)
        }
        if first {
            out.removeSubrange(start...)
        } else {
            out.append(UInt8(ascii: "m"))
        }
        pen = style
    }

    /// Appends the SGR parameters for a colour.
    func appendColor(_ color: CellColor, background: Bool, to out: inout [UInt8]) {
        let tag = color.raw >> 24
        switch tag {
        case 1:
            let n = Int(color.raw & 0xFF)
            if n < 8 {
                ANSI.appendDecimal((background ? 40 : 30) + n, to: &out)
            } else if n < 16 {
                ANSI.appendDecimal((background ? 100 : 90) + n - 8, to: &out)
            } else {
                out.append(contentsOf: background ? ANSI.bg256 : ANSI.fg256)
                ANSI.appendDecimal(n, to: &out)
            }
        case 2:
            out.append(contentsOf: background ? ANSI.bgRGB : ANSI.fgRGB)
            ANSI.appendDecimal(Int(color.raw >> 16 & 0xFF), to: &out)
            out.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(color.raw >> 8 & 0xFF), to: &out)
            out.append(UInt8(ascii: ";"))
            ANSI.appendDecimal(Int(color.raw & 0xFF), to: &out)
        default:
            out.append(
                contentsOf: background
                    ? [UInt8(ascii: "4"), UInt8(ascii: "9")] : [UInt8(ascii: "3"), UInt8(ascii: "9")])
        }
    }
}
