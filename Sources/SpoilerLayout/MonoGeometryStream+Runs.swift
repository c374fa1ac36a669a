import SpoilerCore

extension MonoGeometryStream {
    static var takesRuns: Bool { true }

    /// Takes at once the graphemes that are a scalar that starts a cluster alone
    /// (`GraphemeScanner.BMPInfo.startsAlone`: no line break, tab or control) and the
    /// extending scalars after it (Extend and SpacingMark, not ZWJ), measured by the first
    /// scalar, which VS16 widens to two cells if it is a pictograph or a keycap base one
    /// cell wide; a flag (two regional indicators); a pictograph joined by ZWJs to more
    /// pictographs, with skin tones or VS16 after any of them; and line feeds: what
    /// `GraphemeScanner.scan` finds as such clusters. Outside every spoiler they only move
    /// `x`; inside one, whitespace (space, glue, line feed) ends the open word and anything
    /// else adds to it, as ``visit(width:kind:utf8Start:utf8End:utf16Start:utf16Length:)``
    /// does. A line feed ends the line. Where a spoiler starts or ends between two
    /// clusters, the run enters or leaves it and goes on.
    ///
    /// The run stops at any other scalar, and where a spoiler starts or ends inside a
    /// cluster. When that scalar may join the grapheme before it (any non-ASCII scalar that
    /// does not start a cluster alone: a ZWJ, a Hangul vowel or final jamo after a
    /// syllable, a scalar past the table), or would cross the limit as part of it, that
    /// grapheme is given back, for the caller to scan whole.
    ///
    /// It takes only whole sequences of valid UTF-8 (the two-byte letters' test and the
    /// wide run look at every byte, other scalars are decoded by
    /// `GraphemeScanner.decodeChecked`); at one that is not, it sets ``invalidUTF8`` and
    /// ``failed`` and returns the end, so that nothing more is read
    /// (``handOver(_:at:count:)``).
    @inline(never)
    mutating func takeRun(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, count n: Int, utf16Start: Int32,
        table: UnsafeBufferPointer<UInt8>
    ) -> (Int, Int32) {
        var at = (start, utf16Start)
        // A run that meets a spoiler's start or end where a cluster starts goes on in the
        // loop for the other place.
        while true {
            let run: RunEnd
            switch activeCount {
            case 0:
                run = takeRun(p, from: at.0, count: n, utf16Start: at.1, table: table, in: OutsideSpoilers.self)
            case 1:
                // A word left open on another line is closed by `Fragment.take`'s rule, the
                // general way.
                if active[0].isOpen && active[0].line != line { return handOver(p, at: at, count: n) }
                run = takeRun(p, from: at.0, count: n, utf16Start: at.1, table: table, in: InsideSpoiler.self)
            default:
                return handOver(p, at: at, count: n)
            }
            at = (run.utf8End, run.utf16End)
            guard run.crossed else { return handOver(p, at: at, count: n) }
        }
    }

    /// Where the runs stop at `at`, before the general grapheme scanner goes on from there
    /// (unless `at` is the end): with ``checksUTF8``, the rest of the text is checked
    /// first, once, since that scanner reads valid UTF-8 only. Where the text is not valid
    /// UTF-8 (found here or by a run), the stream fails and the end is returned, so that
    /// nothing more is read.
    @inline(__always)
    mutating func handOver(_ p: UnsafeBufferPointer<UInt8>, at: (Int, Int32), count n: Int) -> (Int, Int32) {
        if invalidUTF8 { return (n, at.1) }
        guard checksUTF8 && !restChecked && at.0 < n else { return at }
        restChecked = true
        guard UTF8Validation.firstInvalidOffset(in: UnsafeBufferPointer(rebasing: p[at.0..<n])) == nil else {
            invalidUTF8 = true
            failed = true
            return (n, at.1)
        }
        return at
    }

    /// ``takeRun(_:from:count:utf16Start:table:)`` outside every spoiler, or inside the one
    /// entity `active[0]`: a loop specialised for each (`Place`), with no test of where it
    /// is inside.
    @inline(__always)
    mutating func takeRun<Place: RunPlace>(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, count n: Int, utf16Start: Int32,
        table: UnsafeBufferPointer<UInt8>, in place: Place.Type
    ) -> RunEnd {
        typealias Info = GraphemeScanner.BMPInfo
        let inside = Place.isInside
        guard let base = p.baseAddress else { return RunEnd(utf8End: start, utf16End: utf16Start, crossed: false) }
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
        // Whether the last grapheme is a pictograph with no scalar after it but skin tones,
        // which a ZWJ and another pictograph join (UAX #29 GB11).
        var lastIsPictograph = false
        // Whether the run stopped at the limit to enter or leave a spoiler.
        var crossed = false
        // Inside: whether the word is open, the byte where this run opened it (or -1), and
        // the graphemes added to it here and not yet counted in `active[0]`.
        var isOpen = inside && active[0].isOpen
        var openedAt = -1
        var added = 0
        let letters = twoByteLetters
        let wide = wideScalars
        while i < n {
            // A spoiler starts or ends here, before printable ASCII (a cluster alone): enter
            // or leave it at once, as below, without the looks that would each find the
            // limit first.
            if u16 == limit && base[i] &- 0x20 < 0x5F {
                crossAt(i: i, u16: u16, cells: cells, added: added, isOpen: &isOpen, inside: inside)
                crossed = true
                break
            }
            // Printable ASCII (and no space, inside), eight bytes looked at at once: each a
            // cluster of one cell, which an extending scalar after the last may join below.
            // The clusters of these runs are taken where they are found, their positions
            // worked out by ``RunEnd/taking(_:bytesEach:unitsEach:width:from:)``.
            if i &+ 8 <= n {
                let v = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let stops = (v | (v &+ ByteLanes.ones)) & ByteLanes.highs | ByteLanes.below(v, inside ? 0x21 : 0x20)
                let k = min(Int32(truncatingIfNeeded: stops.trailingZeroBitCount &>> 3), limit &- u16)
                if k > 0 {
                    if inside {
                        if !isOpen {
                            open(utf8Start: i, utf16Start: u16, x: cells)
                            isOpen = true
                            openedAt = i
                        }
                        added &+= Int(k)
                        lastInWord = true
                    }
                    lastIsPictograph = false
                    (last, lastU16, lastCells, i, u16, cells) = RunEnd.taking(k, bytesEach: 1, from: (i, u16, cells))
                    guard i < n else { break }
                    // Eight taken: the next eight may be ASCII as well.
                    if k == 8 { continue }
                }
            }
            // Two-byte letters (``TwoByteLetters``), four looked at at once, or outside
            // spoilers CJK ideographs and Hangul syllables (``WideScalars``), three bytes at a
            // time: `k` clusters of `bytesEach` bytes, one UTF-16 unit and `width` cells
            // each, none of them whitespace, taken as ASCII is.
            var k: Int32 = 0
            var bytesEach = 2
            var width: Int32 = 1
            if letters && i &+ 8 <= n && TwoByteLetters.mayLead(base[i]) {
                // Four at a time while all four are letters (a word of Cyrillic goes on),
                // without the ASCII look between.
                let room = limit &- u16
                var j = i
                while true {
                    let v = UInt64(littleEndian: UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self))
                    let found = Int32(truncatingIfNeeded: TwoByteLetters.count(in: v))
                    k &+= found
                    j &+= 8
                    guard found == 4 && j &+ 8 <= n && k < room else { break }
                }
                k = min(k, room)
            } else if !inside && wide && WideScalars.mayLead(base[i]) {
                let room = limit &- u16
                var j = i
                while j &+ 3 <= n && k < room && WideScalars.starts(base[j], base[j &+ 1], base[j &+ 2]) {
                    j &+= 3
                    k &+= 1
                }
                bytesEach = 3
                width = 2
            }
            if k > 0 {
                if inside {
                    if !isOpen {
                        open(utf8Start: i, utf16Start: u16, x: cells)
                        isOpen = true
                        openedAt = i
                    }
                    added &+= Int(k)
                    lastInWord = true
                }
                lastIsPictograph = false
                (last, lastU16, lastCells, i, u16, cells) = RunEnd.taking(
                    k, bytesEach: bytesEach, width: width, from: (i, u16, cells))
                continue
            }
            guard let (c, length) = GraphemeScanner.decodeChecked(p, i, count: n) else {
                // Not valid UTF-8: nothing more is read.
                invalidUTF8 = true
                failed = true
                return RunEnd(utf8End: n, utf16End: u16, crossed: false)
            }
            let units: Int32 = length == 4 ? 2 : 1
            // The table keeps the BMP and U+1F000 to U+1FFFF; others read a surrogate's 0.
            let index = c < 0x10000 ? Int(c) : c &>> 12 == 0x1F ? Int(c &- 0xF000) : 0xD800
            let info = table[index]
            let joins = info & Info.extends != 0
            let alone = info & Info.startsAlone != 0
            // It starts a cluster alone, or extends the last grapheme (as a ZWJ or VS16 does
            // not: those are the scanner's), and ends by the limit.
            guard (alone || (joins && last >= 0 && c != 0x200D && c != 0xFE0F)) && u16 &+ units <= limit else {
                if u16 == limit && (alone || c == 0x0A) {
                    // A spoiler starts or ends here, between clusters: enter or leave it,
                    // as `visit` does, and go on in the other place's loop.
                    crossAt(i: i, u16: u16, cells: cells, added: added, isOpen: &isOpen, inside: inside)
                    crossed = true
                    break
                }
                if c == 0x0A && u16 < limit {
                    // A line feed, a cluster alone (GB4, GB5): whitespace that ends the
                    // open word, and the line.
                    if inside && isOpen {
                        closeWord(utf8End: i, utf16End: u16, right: cells, added: added)
                        added = 0
                        isOpen = false
                    }
                    endLine(end: u16, width: cells, nextStart: u16 &+ 1)
                    cells = 0
                    last = -1
                    lastInWord = false
                    lastIsPictograph = false
                    i &+= 1
                    u16 &+= 1
                    continue
                }
                if GraphemeScanner.isRegionalIndicator(c) && i &+ 8 <= n && u16 &+ 4 <= limit
                    && GraphemeScanner.isRegionalIndicator(bytes: base + (i &+ 4))
                {
                    // A flag: two regional indicators from a cluster's start are one
                    // cluster (GB12), two cells wide (`GraphemeScanner.classify`).
                    let width = Int32(info &>> 4 & 0x03)
                    if inside {
                        if !isOpen {
                            open(utf8Start: i, utf16Start: u16, x: cells)
                            isOpen = true
                            openedAt = i
                        }
                        added &+= 1
                        lastInWord = true
                    }
                    lastIsPictograph = false
                    (last, lastU16, lastCells, i, u16, cells) = RunEnd.taking(
                        1, bytesEach: 8, unitsEach: 4, width: width == 1 ? 2 : width, from: (i, u16, cells))
                    continue
                }
                if c == 0xFE0F && last >= 0 && u16 < limit {
                    // VS16 joins the last cluster (GB9) and makes a pictograph or a keycap
                    // base one cell wide two (`GraphemeScanner.classify`), once.
                    if cells &- lastCells == 1 {
                        let first = base[last]
                        var widens = first == 0x23 || first == 0x2A || first &- 0x30 < 10
                        if first >= 0x80 {
                            let (f, _) = GraphemeScanner.decode(p, last)
                            widens = Info.info(of: f, in: table) & Info.pictographic != 0
                        }
                        if widens { cells &+= 1 }
                    }
                    i &+= 3
                    u16 &+= 1
                    continue
                }
                if c == 0x200D && lastIsPictograph && i &+ 3 < n {
                    // A ZWJ and a pictograph after a pictograph join it (GB11); the cluster
                    // stays as wide as its first scalar.
                    if let (d, dLength) = GraphemeScanner.decodeChecked(p, i &+ 3, count: n) {
                        let dUnits: Int32 = dLength == 4 ? 2 : 1
                        if Info.info(of: d, in: table) & Info.pictographic != 0 && u16 &+ 1 &+ dUnits <= limit {
                            i &+= 3 &+ dLength
                            u16 &+= 1 &+ dUnits
                            continue
                        }
                    }
                }
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
                lastIsPictograph = info & Info.pictographic != 0
                cells &+= Int32(info &>> 4 & 0x03)
            } else {
                // A skin tone keeps a pictograph one that a ZWJ may join; anything else
                // leaves that to the scanner.
                lastIsPictograph = lastIsPictograph && c &- 0x1F3FB < 5
            }
            i &+= length
            u16 &+= units
        }
        x = cells
        if inside && isOpen { extendWord(utf8End: i, utf16End: u16, right: cells, added: added) }
        return RunEnd(utf8End: i, utf16End: u16, crossed: crossed)
    }

    /// Where a run meets its limit between clusters, at byte `i`, UTF-16 unit `u16` and
    /// pen `cells`: inside, ends the open word (`added` graphemes not yet counted) and
    /// leaves the spoiler; outside, enters the next one, as `visit` does.
    @inline(__always)
    mutating func crossAt(i: Int, u16: Int32, cells: Int32, added: Int, isOpen: inout Bool, inside: Bool) {
        if inside {
            if isOpen {
                extendWord(utf8End: i, utf16End: u16, right: cells, added: added)
                isOpen = false
            }
            closeFirst()
        } else {
            enterNext()
        }
    }

    /// Enters the next spoiler entity, which starts where the stream is, as `visit` enters
    /// one.
    @inline(__always)
    mutating func enterNext() {
        active[activeCount] = Fragment(entity: nextEntity, end: nextEnd)
        activeCount += 1
        advance(from: nextSpan + 1)
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
        active[0].graphemes &+= added
    }

    /// Ends the open word there, and writes it.
    @inline(__always)
    mutating func closeWord(utf8End: Int, utf16End: Int32, right: Int32, added: Int) {
        extendWord(utf8End: utf8End, utf16End: utf16End, right: right, added: added)
        // Written where it lies, then counted, as `Fragment.endWord()` gives it back.
        guard active[0].isOpen else { return }
        emit(active[0])
        active[0].word &+= 1
        active[0].isOpen = false
    }
}

/// Where a run of ``MonoGeometryStream`` stopped: the byte and UTF-16 unit it reached, and
/// whether it stopped there to enter or leave a spoiler (`crossed`), for the run to go on in
/// the loop for the other place.
struct RunEnd {
    var utf8End: Int
    var utf16End: Int32
    var crossed: Bool
}

extension RunEnd {
    /// A run's position after it takes `k` clusters of `bytesEach` bytes, `unitsEach`
    /// UTF-16 units and `width` cells each from `at` (bytes, UTF-16 units, cells): where the
    /// last of them starts, then where the next one does. A function of values, not one
    /// nested in the run that sets its variables: captured, those stayed in memory, and
    /// the bench's 1.5 MB sample took 90.71 M instructions against 86.47 M.
    @inline(__always)
    static func taking(
        _ k: Int32, bytesEach: Int, unitsEach: Int32 = 1, width: Int32 = 1, from at: (Int, Int32, Int32)
    ) -> (Int, Int32, Int32, Int, Int32, Int32) {
        let (i, u16, cells) = at
        return (
            i &+ bytesEach &* (Int(k) &- 1), u16 &+ unitsEach &* (k &- 1), cells &+ width &* (k &- 1),
            i &+ bytesEach &* Int(k), u16 &+ unitsEach &* k, cells &+ width &* k
        )
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
