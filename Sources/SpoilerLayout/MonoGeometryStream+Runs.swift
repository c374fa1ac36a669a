import SpoilerCore

extension MonoGeometryStream {
    static var takesRuns: Bool { true }

    /// Takes at once the graphemes up to the next spoiler's start (or the end of the one
    /// the stream is in) that are a scalar that starts a cluster alone
    /// (`GraphemeScanner.BMPInfo.startsAlone`: no line break, tab or control) and the
    /// extending scalars after it (Extend and SpacingMark, not ZWJ or VS16): what
    /// `GraphemeScanner.scan` finds as such a cluster, measured by its first scalar.
    /// Outside every spoiler they only move `x`; inside one, whitespace (space and glue)
    /// ends the open word and anything else adds to it, as
    /// ``visit(width:kind:utf8Start:utf8End:utf16Start:utf16Length:)`` does.
    ///
    /// The run stops at any other scalar. When that scalar may join the grapheme before it
    /// (any non-ASCII scalar that does not start a cluster alone: ZWJ, VS16, a Hangul vowel
    /// or final jamo after a syllable, a scalar past the table), or would cross the limit
    /// as part of it, that grapheme is given back, for the caller to scan whole.
    @inline(__always)
    mutating func takeRun(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, count n: Int, utf16Start: Int32,
        table: UnsafeBufferPointer<UInt8>
    ) -> (Int, Int32) {
        switch activeCount {
        case 0:
            return takeRun(p, from: start, count: n, utf16Start: utf16Start, table: table, in: OutsideSpoilers.self)
        case 1:
            // A word left open on another line is closed by `Fragment.take`'s rule, the
            // general way.
            if active[0].isOpen && active[0].line != line { return (start, utf16Start) }
            return takeRun(p, from: start, count: n, utf16Start: utf16Start, table: table, in: InsideSpoiler.self)
        default:
            return (start, utf16Start)
        }
    }

    /// ``takeRun(_:from:count:utf16Start:table:)`` outside every spoiler, or inside the one
    /// entity `active[0]`: a loop specialised for each (`Place`), with no test of where it
    /// is inside.
    mutating func takeRun<Place: RunPlace>(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, count n: Int, utf16Start: Int32,
        table: UnsafeBufferPointer<UInt8>, in place: Place.Type
    ) -> (Int, Int32) {
        typealias Info = GraphemeScanner.BMPInfo
        let inside = Place.isInside
        guard let base = p.baseAddress else { return (start, utf16Start) }
        let limit = inside ? min(nextStart, active[0].end) : nextStart
        var i = start
        var u16 = utf16Start
        var cells = x
        // The last grapheme taken: where it starts (-1 before the first), in bytes, UTF-16
        // units and cells, and whether it went into the open word.
        var last = -1
        var lastU16 = u16
        var lastCells = cells
        var lastInWord = false
        // Inside: whether the word is open, the byte where this run opened it (or -1), and
        // the graphemes added to it here and not yet counted in `active[0]`.
        var isOpen = inside && active[0].isOpen
        var openedAt = -1
        var added = 0
        let letters = twoByteLetters
        /// Takes `k` clusters of one cell and one scalar of `bytesEach` bytes, none of them
        /// whitespace, from byte `i` on: into the open word inside (opening it if none is).
        @inline(__always) func takeClusters(_ k: Int32, bytesEach: Int) {
            if inside {
                if !isOpen {
                    open(utf8Start: i, utf16Start: u16, x: cells)
                    isOpen = true
                    openedAt = i
                }
                added &+= Int(k)
                lastInWord = true
            }
            last = i &+ bytesEach &* (Int(k) &- 1)
            lastU16 = u16 &+ k &- 1
            lastCells = cells &+ k &- 1
            i &+= bytesEach &* Int(k)
            u16 &+= k
            cells &+= k
        }
        while i < n {
            // Printable ASCII (and no space, inside), eight bytes looked at at once: each a
            // cluster of one cell, which an extending scalar after the last may join below.
            if i &+ 8 <= n {
                let v = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let stops = (v | (v &+ ByteLanes.ones)) & ByteLanes.highs | ByteLanes.below(v, inside ? 0x21 : 0x20)
                let k = min(Int32(truncatingIfNeeded: stops.trailingZeroBitCount &>> 3), limit &- u16)
                if k > 0 {
                    takeClusters(k, bytesEach: 1)
                    guard i < n else { break }
                }
            }
            // Two-byte letters (``TwoByteLetters``), four looked at at once: each a cluster
            // of one cell and no whitespace, taken as ASCII is.
            if letters && i &+ 8 <= n && TwoByteLetters.mayLead(base[i]) {
                let v = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let k = min(Int32(truncatingIfNeeded: TwoByteLetters.count(in: v)), limit &- u16)
                if k > 0 {
                    takeClusters(k, bytesEach: 2)
                    continue
                }
            }
            let (c, length) = GraphemeScanner.decode(p, i)
            let units: Int32 = length == 4 ? 2 : 1
            // The table keeps the BMP and U+1F000 to U+1FFFF; others read a surrogate's 0.
            let index = c < 0x10000 ? Int(c) : c &>> 12 == 0x1F ? Int(c &- 0xF000) : 0xD800
            let info = table[index]
            let joins = info & Info.extends != 0
            let alone = info & Info.startsAlone != 0
            // It starts a cluster alone, or extends the last grapheme (as a ZWJ or VS16 does
            // not: those are the scanner's), and ends by the limit.
            guard (alone || (joins && last >= 0 && c != 0x200D && c != 0xFE0F)) && u16 &+ units <= limit else {
                if !alone && c >= 0x80 && last >= 0 {
                    // It may join the last grapheme: give that back.
                    if inside && lastInWord {
                        added &-= 1
                        if openedAt == last {
                            active[0].isOpen = false
                            isOpen = false
                        }
                    }
                    i = last
                    u16 = lastU16
                    cells = lastCells
                }
                break
            }
            if !joins {
                if inside {
                    let kind = info & Info.kindMask
                    let isWhitespace = kind == GraphemeKind.space.rawValue || kind == GraphemeKind.glue.rawValue
                    if isWhitespace {
                        if isOpen {
                            closeWord(utf8End: i, utf16End: u16, right: cells, added: added)
                            added = 0
                            isOpen = false
                        }
                    } else {
                        if !isOpen {
                            open(utf8Start: i, utf16Start: u16, x: cells)
                            isOpen = true
                            openedAt = i
                        }
                        added &+= 1
                    }
                    lastInWord = !isWhitespace
                }
                last = i
                lastU16 = u16
                lastCells = cells
                cells &+= Int32(info &>> 4 & 0x03)
            }
            i &+= length
            u16 &+= units
        }
        x = cells
        if inside && isOpen { extendWord(utf8End: i, utf16End: u16, right: cells, added: added) }
        return (i, u16)
    }

    /// Opens the word of `active[0]` at a grapheme of the current line, as
    /// `Fragment.take` opens one; its end is set when it ends or the run does.
    @inline(__always)
    mutating func open(utf8Start: Int, utf16Start: Int32, x: Int32) {
        active[0].isOpen = true
        active[0].line = line
        active[0].firstX = x
        active[0].right = x
        active[0].utf16Start = utf16Start
        active[0].utf8Start = Int32(truncatingIfNeeded: utf8Start)
        active[0].graphemes = 0
    }

    /// Moves the open word's end to `utf8End` and `utf16End` (the pen at `right`), with
    /// `added` more graphemes.
    @inline(__always)
    mutating func extendWord(utf8End: Int, utf16End: Int32, right: Int32, added: Int) {
        active[0].utf8End = Int32(truncatingIfNeeded: utf8End)
        active[0].utf16End = utf16End
        active[0].right = max(active[0].right, right)
        active[0].graphemes += added
    }

    /// Ends the open word there, and writes it.
    @inline(__always)
    mutating func closeWord(utf8End: Int, utf16End: Int32, right: Int32, added: Int) {
        extendWord(utf8End: utf8End, utf16End: utf16End, right: right, added: added)
        if let closed = active[0].endWord() { emit(closed) }
    }
}

/// Where a run of ``MonoGeometryStream`` is: outside every spoiler or inside one.
protocol RunPlace {
    static var isInside: Bool { get }
}

/// A run outside every spoiler: it only moves the pen.
enum OutsideSpoilers: RunPlace {
    static var isInside: Bool { false }
}

/// A run inside one spoiler: it also makes the spoiler's words.
enum InsideSpoiler: RunPlace {
    static var isInside: Bool { true }
}
