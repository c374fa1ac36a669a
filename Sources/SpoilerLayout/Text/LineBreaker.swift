/// One grapheme cluster placed by the ``LineBreaker``, in layout units (cells for `mono`,
/// pixels for bitmap fonts).
struct Placement {
    var utf8Start: Int
    var utf8End: Int
    var utf16Start: Int
    var utf16Length: Int
    var x: Int
    var width: Int
    var line: Int
    var kind: GraphemeKind
    var isFallback: Bool
    /// For `.control`: the stand-in scalar. Otherwise unused.
    var picture: UInt32

    var utf16End: Int { utf16Start + utf16Length }
}

/// Greedy line breaking in one pass (SPEC §3).
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
struct LineBreaker {
    /// The wrap width in layout units (`Int.max`: no wrapping).
    let wrap: Int
    /// The tab stop interval in layout units.
    let tabStop: Int
    var placements: [Placement] = []
    var x = 0
    var line = 0
    /// Index in `placements` where the current unbreakable run began, or -1.
    var runStart = -1
    var runStartX = 0

    init(wrap: Int?, tabStop: Int, capacity: Int) {
        self.wrap = wrap.map { max(1, $0) } ?? Int.max
        self.tabStop = max(1, tabStop)
        placements.reserveCapacity(capacity)
    }

    /// Places a grapheme of an unbreakable run (kinds `.other`, `.glue`, `.control`, `.format`).
    @inline(__always)
    mutating func addJoining(
        width w: Int, kind: GraphemeKind, utf8Start: Int, utf8End: Int, utf16Start: Int, utf16Length: Int,
        isFallback: Bool, picture: UInt32
    ) {
        if runStart < 0 {
            runStart = placements.count
            runStartX = x
        }
        if x &+ w > wrap && x > 0 { breakInsideRun(width: w) }
        placements.append(
            Placement(
                utf8Start: utf8Start, utf8End: utf8End, utf16Start: utf16Start, utf16Length: utf16Length, x: x,
                width: w, line: line, kind: kind, isFallback: isFallback, picture: picture))
        x &+= w
    }

    /// The current run no longer fits: move it to a new line, or break it here.
    mutating func breakInsideRun(width w: Int) {
        if runStartX > 0 {
            line += 1
            for k in runStart..<placements.count {
                placements[k].x -= runStartX
                placements[k].line = line
            }
            x -= runStartX
            runStartX = 0
        }
        if x + w > wrap && x > 0 {
            line += 1
            x = 0
            runStart = placements.count
            runStartX = 0
        }
    }

    /// Places breakable whitespace (`.space`, `.tab`), a wide grapheme (`.wide`) or a line
    /// break (`.newline`).
    @inline(__always)
    mutating func addBreaking(
        width: Int, kind: GraphemeKind, utf8Start: Int, utf8End: Int, utf16Start: Int, utf16Length: Int,
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
                line += 1
                x = 0
            }
        }
        placements.append(
            Placement(
                utf8Start: utf8Start, utf8End: utf8End, utf16Start: utf16Start, utf16Length: utf16Length, x: x,
                width: w, line: line, kind: kind, isFallback: isFallback, picture: 0))
        if kind == .newline {
            line += 1
            x = 0
        } else {
            x += w
        }
    }
}
