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
/// which happens at most once per run, so the breaker is linear in the text.
///
/// Placements are written straight into uninitialised array storage (``run(capacity:_:)``):
/// `Array.append` costs a uniqueness check per grapheme, a fifth of the mono layout's time.
struct LineBreaker {
    /// The wrap width in layout units (`Int.max`: no wrapping).
    let wrap: Int32
    /// The tab stop interval in layout units.
    let tabStop: Int32
    /// The placements, once ``run(capacity:_:)`` has returned.
    var placements: [Placement] = []
    /// During ``run(capacity:_:)``: the storage being filled, and how much of it is.
    private var storage: UnsafeMutablePointer<Placement>
    private(set) var count = 0
    var x: Int32 = 0
    var line: Int32 = 0
    /// Index in `placements` where the current unbreakable run began, or -1.
    var runStart = -1
    var runStartX: Int32 = 0
    /// The lines finished so far.
    var lines: [LineExtent] = []
    /// Where the current line starts, in UTF-16 units.
    var lineStart: Int32 = 0
    /// How many placements fell back to a default glyph or a box.
    var fallbacks = 0

    init(wrap: Int?, tabStop: Int) {
        self.wrap = Int32(clamping: wrap.map { max(1, $0) } ?? Int(Int32.max / 2))
        self.tabStop = Int32(clamping: max(1, tabStop))
        storage = UnsafeMutablePointer(bitPattern: MemoryLayout<Placement>.alignment)!
    }

    /// Runs `body`, which places at most `capacity` graphemes, then keeps the placements in
    /// ``placements``.
    @inline(__always)
    mutating func run(capacity: Int, _ body: (inout LineBreaker) -> Void) {
        var local = self
        let placed = [Placement](unsafeUninitializedCapacity: max(1, capacity)) { buffer, initialized in
            local.storage = buffer.baseAddress!
            local.count = 0
            body(&local)
            precondition(local.count <= buffer.count, "placed \(local.count) graphemes in room for \(buffer.count)")
            initialized = local.count
        }
        local.storage = UnsafeMutablePointer(bitPattern: MemoryLayout<Placement>.alignment)!
        local.placements = placed
        self = local
    }

    /// Appends a placement (room is guaranteed by the capacity given to ``run(capacity:_:)``).
    @inline(__always)
    private mutating func append(_ placement: Placement) {
        (storage + count).initialize(to: placement)
        count &+= 1
    }

    /// Ends the current line at UTF-16 offset `end`, `width` units wide; the next starts at
    /// `nextStart`.
    @inline(__always)
    mutating func endLine(end: Int32, width: Int32, nextStart: Int32) {
        lines.append(LineExtent(utf16Start: lineStart, utf16End: end, width: width))
        lineStart = nextStart
        line &+= 1
    }

    /// Ends the last line: the text ends at UTF-16 offset `end`.
    mutating func finish(end: Int32) {
        lines.append(LineExtent(utf16Start: lineStart, utf16End: max(lineStart, end), width: x))
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
            let runUTF16 = runStart < count ? storage[runStart].utf16Start : utf16Start
            endLine(end: storage[runStart - 1].utf16End, width: runStartX, nextStart: runUTF16)
            for k in runStart..<count {
                storage[k].x -= runStartX
                storage[k].line = line
            }
            x -= runStartX
            runStartX = 0
        }
        if x + w > wrap && x > 0 {
            endLine(end: utf16Start, width: x, nextStart: utf16Start)
            x = 0
            runStart = count
            runStartX = 0
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
        var w = width
        switch kind {
        case .newline:
            w = 0
        case .tab:
            w = tabStop - x % tabStop
            if x + w > wrap { w = max(0, wrap - x) }
        case .space:
            if x &+ w > wrap { w = max(0, wrap - x) }
        default:  // .wide
            if x &+ w > wrap && x > 0 {
                endLine(end: utf16Start, width: x, nextStart: utf16Start)
                x = 0
            }
        }
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

/// One finished line: its UTF-16 range (the line break excluded) and width in layout units.
struct LineExtent {
    var utf16Start: Int32
    var utf16End: Int32
    var width: Int32
}
