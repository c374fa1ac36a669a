/// One grapheme cluster placed by the ``LineBreaker``, in layout units (cells for `mono`,
/// pixels for bitmap fonts).
///
/// Offsets are 32-bit to keep the record at 32 bytes (the layout is memory-bound), so a
/// message text may hold up to 2 GiB of UTF-8; ``LayoutEngine`` lays out only that much.
struct Placement {
    var utf8Start: Int32
    var utf8End: Int32
    var utf16Start: Int32
    var utf16Length: Int32
    var x: Int32
    var width: Int32
    var line: Int32
    var kind: GraphemeKind
    var isFallback: Bool

    var utf16End: Int32 { utf16Start + utf16Length }
}

/// Where a ``LineBreaker`` hands its decisions: the graphemes it places, the runs it moves
/// to a new line, and the lines it ends.
///
/// ``PlacementStore`` keeps the placements and the lines (``LayoutEngine/layout(_:includeGraphemes:)``);
/// ``EndedLines`` keeps only the lines ended since it was last emptied, for the layout's JSON
/// written without the placements (``LayoutEngine/writeJSON(of:redact:pieces:)``).
protocol LineSink {
    /// Takes placement number `index` (they come in order from 0); a later
    /// ``moveRun(from:to:line:by:)`` may still move it.
    mutating func place(_ placement: Placement, at index: Int)
    /// Moves placements `start..<end` (the current run) to line `line`, `dx` units to the left.
    mutating func moveRun(from start: Int, to end: Int, line: Int32, by dx: Int32)
    /// Takes a finished line; the next starts at UTF-16 offset `nextStart`, nil after the last.
    mutating func endLine(_ extent: LineExtent, nextStart: Int32?)
}

/// Greedy line breaking in one pass (DESIGN.md §3).
///
/// - A line may break at breakable whitespace and before and after a wide grapheme
///   (ideographs, kana, Hangul, emoji: UAX #14 class ID), nowhere else, except that a run
///   longer than a whole line breaks between graphemes.
/// - Whitespace that does not fit hangs at the end of its line, its advance cut to what is
///   left, so no line is ever wider than the wrap width unless a single grapheme is.
/// - Tabs advance to the next multiple of `tabStop`; explicit line breaks are kept.
///
/// An unbreakable run that reaches the wrap width is moved to the next line as a whole,
/// which happens at most once per run, so the breaker is linear in the text. Until then the
/// placements of a run that began after something else on its line (``isRunPending``) are
/// not final; every other placement is final as it is made.
///
/// The decisions go to a ``LineSink``: with ``PlacementStore`` the placements are written
/// straight into uninitialised array storage (``run(capacity:_:)``), since `Array.append`
/// costs a uniqueness check per grapheme, a fifth of the mono layout's time.
struct LineBreaker<Sink: LineSink> {
    /// The wrap width in layout units (`Int.max`: no wrapping).
    let wrap: Int32
    /// The tab stop interval in layout units.
    let tabStop: Int32
    /// Where the placements and lines go.
    var sink: Sink
    /// How many graphemes have been placed.
    private(set) var count = 0
    var x: Int32 = 0
    var line: Int32 = 0
    /// Index of the placement where the current unbreakable run began, or -1.
    var runStart = -1
    var runStartX: Int32 = 0
    /// The UTF-16 offset where the current run began (where the grapheme before it ends,
    /// graphemes being contiguous).
    var runStartUTF16: Int32 = 0
    /// Where the current line starts, in UTF-16 units.
    var lineStart: Int32 = 0
    /// How many placements fell back to a default glyph or a box.
    var fallbacks = 0

    init(wrap: Int?, tabStop: Int, sink: Sink) {
        self.wrap = Int32(clamping: wrap.map { max(1, $0) } ?? Int(Int32.max / 2))
        self.tabStop = Int32(clamping: max(1, tabStop))
        self.sink = sink
    }

    /// Whether the current run may still move to the next line: it began after something
    /// else on its line and has not moved. Its placements, from ``runStartUTF16`` on, are
    /// not final yet; all before are.
    var isRunPending: Bool { runStart >= 0 && runStartX > 0 }

    /// Places a grapheme, with ``addBreaking(width:kind:utf8Start:utf8End:utf16Start:utf16Length:isFallback:)``
    /// or ``addJoining(width:kind:utf8Start:utf8End:utf16Start:utf16Length:isFallback:)`` as
    /// its kind asks.
    @inline(__always)
    mutating func add(_ g: MeasuredGrapheme) {
        if g.isBreaking {
            addBreaking(
                width: g.width, kind: g.kind, utf8Start: g.utf8Start, utf8End: g.utf8End, utf16Start: g.utf16Start,
                utf16Length: g.utf16Length, isFallback: g.isFallback)
        } else {
            addJoining(
                width: g.width, kind: g.kind, utf8Start: g.utf8Start, utf8End: g.utf8End, utf16Start: g.utf16Start,
                utf16Length: g.utf16Length, isFallback: g.isFallback)
        }
    }

    /// Appends a placement.
    @inline(__always)
    private mutating func append(_ placement: Placement) {
        sink.place(placement, at: count)
        count &+= 1
    }

    /// Ends the current line at UTF-16 offset `end`, `width` units wide; the next starts at
    /// `nextStart`.
    @inline(__always)
    mutating func endLine(end: Int32, width: Int32, nextStart: Int32) {
        sink.endLine(LineExtent(utf16Start: lineStart, utf16End: end, width: width), nextStart: nextStart)
        lineStart = nextStart
        line &+= 1
    }

    /// Ends the last line: the text ends at UTF-16 offset `end`.
    mutating func finish(end: Int32) {
        sink.endLine(LineExtent(utf16Start: lineStart, utf16End: max(lineStart, end), width: x), nextStart: nil)
    }

    /// Places a grapheme of an unbreakable run (kinds `.other`, `.glue`, `.control`, `.format`).
    @inline(__always)
    mutating func addJoining(
        width w: Int32, kind: GraphemeKind, utf8Start: Int32, utf8End: Int32, utf16Start: Int32, utf16Length: Int32,
        isFallback: Bool
    ) {
        if runStart < 0 {
            runStart = count
            runStartX = x
            runStartUTF16 = utf16Start
        }
        if x &+ w > wrap && x > 0 { breakInsideRun(width: w, utf16Start: utf16Start) }
        if isFallback { fallbacks += 1 }
        append(
            Placement(
                utf8Start: utf8Start, utf8End: utf8End, utf16Start: utf16Start, utf16Length: utf16Length, x: x,
                width: w, line: line, kind: kind, isFallback: isFallback))
        x &+= w
    }

    /// The current run no longer fits: move it to a new line, or break it here.
    mutating func breakInsideRun(width w: Int32, utf16Start: Int32) {
        if runStartX > 0 {
            // Something before the run on this line: a space or a wide grapheme.
            endLine(end: runStartUTF16, width: runStartX, nextStart: runStartUTF16)
            sink.moveRun(from: runStart, to: count, line: line, by: runStartX)
            x -= runStartX
            runStartX = 0
        }
        if x + w > wrap && x > 0 {
            endLine(end: utf16Start, width: x, nextStart: utf16Start)
            x = 0
            runStart = count
            runStartX = 0
            runStartUTF16 = utf16Start
        }
    }

    /// The advance of a grapheme of `kind`, `width` units wide, placed at `x`: 0 for a line
    /// break, to the next tab stop for a tab, and for whitespace that does not fit, what is
    /// left of the line.
    @inline(__always)
    func advance(of kind: GraphemeKind, width: Int32, at x: Int32) -> Int32 {
        switch kind {
        case .newline:
            return 0
        case .tab:
            let w = tabStop - x % tabStop
            return x + w > wrap ? max(0, wrap - x) : w
        case .space:
            return x &+ width > wrap ? max(0, wrap - x) : width
        default:
            return width
        }
    }

    /// Places breakable whitespace (`.space`, `.tab`), a wide grapheme (`.wide`) or a line
    /// break (`.newline`).
    @inline(__always)
    mutating func addBreaking(
        width: Int32, kind: GraphemeKind, utf8Start: Int32, utf8End: Int32, utf16Start: Int32, utf16Length: Int32,
        isFallback: Bool
    ) {
        runStart = -1
        if kind == .wide && x &+ width > wrap && x > 0 {
            endLine(end: utf16Start, width: x, nextStart: utf16Start)
            x = 0
        }
        let w = advance(of: kind, width: width, at: x)
        if isFallback { fallbacks += 1 }
        append(
            Placement(
                utf8Start: utf8Start, utf8End: utf8End, utf16Start: utf16Start, utf16Length: utf16Length, x: x,
                width: w, line: line, kind: kind, isFallback: isFallback))
        if kind == .newline {
            endLine(end: utf16Start, width: x, nextStart: utf16Start &+ utf16Length)
            x = 0
        } else {
            x &+= w
        }
    }
}

/// The placements and lines of a whole layout, for ``LayoutEngine/layout(_:includeGraphemes:)``.
///
/// During ``LineBreaker/run(capacity:_:)`` the placements go straight into the storage of
/// the array being made; the lines into ``lines``.
struct PlacementStore: LineSink {
    /// The placements, once ``LineBreaker/run(capacity:_:)`` has returned.
    var placements: [Placement] = []
    /// The lines finished so far.
    var lines: [LineExtent] = []
    /// During ``LineBreaker/run(capacity:_:)``: the storage being filled.
    fileprivate var storage = UnsafeMutablePointer<Placement>(bitPattern: MemoryLayout<Placement>.alignment)!

    @inline(__always)
    func place(_ placement: Placement, at index: Int) {
        (storage + index).initialize(to: placement)
    }

    func moveRun(from start: Int, to end: Int, line: Int32, by dx: Int32) {
        for k in start..<end {
            storage[k].x -= dx
            storage[k].line = line
        }
    }

    @inline(__always)
    mutating func endLine(_ extent: LineExtent, nextStart: Int32?) {
        lines.append(extent)
    }
}

extension LineBreaker where Sink == PlacementStore {
    /// A breaker that keeps every placement and line.
    init(wrap: Int?, tabStop: Int) {
        self.init(wrap: wrap, tabStop: tabStop, sink: PlacementStore())
    }

    /// The placements, once ``run(capacity:_:)`` has returned.
    var placements: [Placement] { sink.placements }
    /// The lines finished so far.
    var lines: [LineExtent] { sink.lines }

    /// Runs `body`, which places at most `capacity` graphemes, then keeps the placements in
    /// ``placements``.
    @inline(__always)
    mutating func run(capacity: Int, _ body: (inout LineBreaker) -> Void) {
        var local = self
        let placed = [Placement](unsafeUninitializedCapacity: max(1, capacity)) { buffer, initialized in
            local.sink.storage = buffer.baseAddress!
            body(&local)
            precondition(local.count <= buffer.count, "placed \(local.count) graphemes in room for \(buffer.count)")
            initialized = local.count
        }
        local.sink.storage = UnsafeMutablePointer(bitPattern: MemoryLayout<Placement>.alignment)!
        local.sink.placements = placed
        self = local
    }
}

/// The lines a ``LineBreaker`` ended since the queue was last emptied (at most two a
/// grapheme), for a caller that takes them as they come and keeps no placements.
struct EndedLines: LineSink {
    /// The lines, in order, each with where the next one starts (nil after the last).
    var lines = InlineArray<4, (extent: LineExtent, nextStart: Int32?)>(
        repeating: (LineExtent(utf16Start: 0, utf16End: 0, width: 0), nil))
    /// How many of ``lines`` are filled.
    var count = 0

    @inline(__always)
    func place(_ placement: Placement, at index: Int) {}

    @inline(__always)
    func moveRun(from start: Int, to end: Int, line: Int32, by dx: Int32) {}

    @inline(__always)
    mutating func endLine(_ extent: LineExtent, nextStart: Int32?) {
        precondition(count < 4, "more than four lines ended before the queue was emptied")
        lines[count] = (extent, nextStart)
        count += 1
    }
}

/// One finished line: its UTF-16 range (the line break excluded) and width in layout units.
struct LineExtent {
    var utf16Start: Int32
    var utf16End: Int32
    var width: Int32
}
