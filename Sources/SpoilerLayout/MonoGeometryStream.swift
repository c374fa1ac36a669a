import SpoilerCore

/// The geometry of a text in the `mono` model without wrapping, worked out as its graphemes
/// go by (a ``GraphemeSink``), with no ``Placement`` kept: lines end only at line breaks, so
/// a line's extent and a word's box need only what came before.
///
/// It gives what ``LineBreaker`` and ``LayoutEngine/layout(bytes:entities:includeGraphemes:)``
/// give for the same text, under conditions checked before and while it runs; past them it
/// sets ``failed`` and the caller lays the text out the general way:
/// - The spoiler entities that cover anything (``span(of:)``) come in the order of their
///   offsets and do not overlap, so that their words come out in the order of the entities.
/// - A grapheme is in at most ``maxActive`` of them at once.
/// - The text has at most ``maxLines`` lines.
///
/// Word objects are written as each word ends, through `words`; lines are kept, since the
/// layout's size comes before them in the JSON.
struct MonoGeometryStream: GraphemeSink {
    /// One spoiler entity the current grapheme is in, and its open word fragment.
    struct Fragment {
        var entity = 0
        /// Where the entity ends, in UTF-16 units.
        var end: Int32 = 0
        var word = 0
        var isOpen = false
        var line: Int32 = 0
        var firstX: Int32 = 0
        var right: Int32 = 0
        var utf16Start: Int32 = 0
        var utf16End: Int32 = 0
        var utf8Start: Int32 = 0
        var utf8End: Int32 = 0
        var graphemes = 0

        /// Adds `count` graphemes that are not whitespace, from `x` on and `cells` wide
        /// together, to the open word, opening one if none is; a word open on another line
        /// is given back, closed.
        @inline(__always)
        mutating func take(
            line: Int32, x: Int32, utf16Start: Int32, utf8Start: Int32, cells: Int32, utf16Length: Int32,
            utf8Length: Int32, graphemes count: Int = 1
        ) -> Fragment? {
            var closed: Fragment?
            if isOpen && self.line != line {
                closed = self
                isOpen = false
            }
            if !isOpen {
                isOpen = true
                self.line = line
                firstX = x
                right = x &+ cells
                self.utf16Start = utf16Start
                self.utf8Start = utf8Start
                graphemes = 0
            }
            graphemes += count
            utf16End = utf16Start &+ utf16Length
            utf8End = utf8Start &+ utf8Length
            right = max(right, x &+ cells)
            return closed
        }

        /// Ends the open word at whitespace: gives it back, closed, and counts the next word.
        @inline(__always)
        mutating func endWord() -> Fragment? {
            guard isOpen else { return nil }
            let closed = self
            word += 1
            isOpen = false
            return closed
        }
    }

    static let maxLines = 32
    static let maxActive = 4
    /// The tab stop, in cells (``MonoMeasure/tabStop``).
    static let tabStop: Int32 = 8

    let text: UnsafePointer<UInt8>
    /// The text's length in bytes.
    let textCount: Int
    /// The spoilers of the message's entities that cover anything, in order
    /// (``span(of:)``), read where the caller keeps them.
    let spans: UnsafeBufferPointer<SpoilerSpan>
    /// Pixels per cell across and down.
    let scale: Int
    let lineHeight: Int
    let redact: Bool
    /// Where the word objects go, separated by commas.
    var words: JSONByteCursor
    /// ``SmallDecimals/table`` (from ``StreamTables``).
    let digits: UnsafePointer<UInt32>
    /// ``TwoByteLetters/holdInTable`` (from ``StreamTables``): whether runs take two-byte
    /// letters four at a time.
    let twoByteLetters: Bool
    /// ``WideScalars/holdInTable`` (from ``StreamTables``): whether runs take CJK
    /// ideographs and Hangul syllables in a loop of their own.
    let wideScalars: Bool
    var wordCount = 0
    /// Whether every word's rectangle lies in 0 ..< 2³¹ pixels whatever its place, worked
    /// out once: a grapheme is at most eight cells wide for each of its bytes (a tab),
    /// so no pen position passes eight cells a byte of the text, and no line's top
    /// ``maxLines`` lines down. Where it holds, ``emit(_:)`` need not test each word's.
    let coordinatesFit: Bool
    /// Set when a condition of the stream does not hold: its output must not be used.
    var failed = false
    /// Whether the text's UTF-8 is the stream's to check (the caller has not vouched for
    /// it). The runs check every scalar they take either way; with this set, the rest of
    /// the text is checked before the general grapheme scanner first reads it.
    let checksUTF8: Bool
    /// Set, with ``failed``, where the text was found not to be valid UTF-8.
    var invalidUTF8 = false
    /// Whether the rest of the text was checked (``checkRest(from:)``).
    var restChecked = false

    var x: Int32 = 0
    var line: Int32 = 0
    var lineStart: Int32 = 0
    /// Room for ``maxLines`` lines, of which the first ``lineCount`` are set: memory the
    /// caller holds for the stream's life, not initialised first (a line filter lays out
    /// a message per line, and setting the slots of every message cost more than its lines).
    let lines: UnsafeMutablePointer<LineExtent>
    var lineCount = 0

    /// The next spoiler not yet met: its index in ``spans`` (or `spans.count`), its
    /// entity's index among the message's entities, and its span (`Int32.max` past the last).
    var nextSpan = 0
    var nextEntity = 0
    var nextStart = Int32.max
    var nextEnd = Int32.max
    /// The entities the stream is inside, in order (their ends ascend).
    var active = InlineArray<4, Fragment>(repeating: Fragment())
    var activeCount = 0

    init(
        text: UnsafePointer<UInt8>, count textCount: Int, spans: UnsafeBufferPointer<SpoilerSpan>, scale: Int,
        lineHeight: Int,
        redact: Bool, words: JSONByteCursor, lines: UnsafeMutablePointer<LineExtent>, checksUTF8: Bool = false,
        tables: StreamTables = .shared
    ) {
        self.lines = lines
        self.checksUTF8 = checksUTF8
        digits = tables.digits
        twoByteLetters = tables.twoByteLetters
        wideScalars = tables.wideScalars
        self.text = text
        self.textCount = textCount
        self.spans = spans
        self.scale = scale
        self.lineHeight = lineHeight
        self.redact = redact
        self.words = words
        coordinatesFit =
            8 &* textCount &* scale < 2_147_483_648 && MonoGeometryStream.maxLines &* lineHeight < 2_147_483_648
        advance(from: 0)
    }

    /// The UTF-16 span a spoiler entity covers as the general layout reads it, or nil when
    /// it is no spoiler or covers nothing.
    static func span(of e: borrowing Entity) -> (start: Int32, end: Int32)? {
        guard e.isSpoiler, e.length > 0, e.offset < Int(Int32.max) else { return nil }
        let start = Int32(max(0, e.offset))
        let end = Int32(clamping: e.offset + e.length)
        return end > start ? (start, end) : nil
    }

    /// Makes spoiler `k` of ``spans`` the next one (none when `k` is past the last).
    @inline(__always)
    mutating func advance(from k: Int) {
        nextSpan = k
        guard k < spans.count else {
            nextStart = .max
            nextEnd = .max
            return
        }
        let span = spans[k]
        nextEntity = Int(span.entity)
        nextStart = span.start
        nextEnd = span.end
    }

    @inline(__always)
    mutating func addJoining(
        width: Int32, kind: GraphemeKind, utf8Start: Int32, utf8End: Int32, utf16Start: Int32, utf16Length: Int32,
        isFallback: Bool
    ) {
        if activeCount != 0 || utf16Start &+ utf16Length > nextStart {
            visit(
                width: width, kind: kind, utf8Start: utf8Start, utf8End: utf8End, utf16Start: utf16Start,
                utf16Length: utf16Length)
        }
        x &+= width
    }

    @inline(__always)
    mutating func addBreaking(
        width: Int32, kind: GraphemeKind, utf8Start: Int32, utf8End: Int32, utf16Start: Int32, utf16Length: Int32,
        isFallback: Bool
    ) {
        var w = width
        if kind == .newline {
            w = 0
        } else if kind == .tab {
            w = MonoGeometryStream.tabStop - x % MonoGeometryStream.tabStop
        }
        if activeCount != 0 || utf16Start &+ utf16Length > nextStart {
            visit(
                width: w, kind: kind, utf8Start: utf8Start, utf8End: utf8End, utf16Start: utf16Start,
                utf16Length: utf16Length)
        }
        if kind == .newline {
            endLine(end: utf16Start, width: x, nextStart: utf16Start &+ utf16Length)
            x = 0
        } else {
            x &+= w
        }
    }

    mutating func endLine(end: Int32, width: Int32, nextStart: Int32) {
        guard lineCount < MonoGeometryStream.maxLines else {
            failed = true
            return
        }
        lines[lineCount] = LineExtent(utf16Start: lineStart, utf16End: end, width: width)
        lineCount += 1
        lineStart = nextStart
        line &+= 1
    }

    /// Ends the text, `end` UTF-16 units long: closes the last words and the last line.
    mutating func finish(end: Int32) {
        while activeCount > 0 { closeFirst() }
        endLine(end: max(lineStart, end), width: x, nextStart: 0)
    }

    /// A grapheme at `x` that may be inside spoilers: ends the entities it is past, enters
    /// those it reaches, and adds it to the words of every entity it is in.
    mutating func visit(
        width: Int32, kind: GraphemeKind, utf8Start: Int32, utf8End: Int32, utf16Start: Int32, utf16Length: Int32
    ) {
        let utf16End = utf16Start &+ utf16Length
        while activeCount > 0 && active[0].end <= utf16Start { closeFirst() }
        while nextStart < utf16End {
            guard activeCount < MonoGeometryStream.maxActive else {
                failed = true
                return
            }
            enterNext()
        }
        let isWhitespace = kind.isWhitespace
        for k in 0..<activeCount {
            let closed =
                isWhitespace
                ? active[k].endWord()
                : active[k].take(
                    line: line, x: x, utf16Start: utf16Start, utf8Start: utf8Start, cells: width,
                    utf16Length: utf16Length, utf8Length: utf8End &- utf8Start)
            if let closed { emit(closed) }
        }
    }

    /// Ends the first active entity: its open word, if any, is written.
    mutating func closeFirst() {
        if active[0].isOpen { emit(active[0]) }
        for k in 1..<max(1, activeCount) { active[k - 1] = active[k] }
        activeCount -= 1
    }

    /// Writes one word box, as ``TextLayout/jsonBytes(id:redact:)`` writes a ``WordBox``:
    /// through a ``RawJSON`` with one check of the room for the whole object
    /// (``writeWordQuickly(_:scale:lineHeight:text:readable:comma:digits:to:)``), or, should
    /// the room run short (it never does within the bound the caller reserves), through
    /// the cursor, which checks each value and traps at the room's end.
    @inline(__always)
    mutating func emit(_ f: Fragment) {
        let textCount = redact ? 0 : Int(f.utf8End &- f.utf8Start)
        let text = redact ? nil : UnsafeBufferPointer(start: self.text + Int(f.utf8Start), count: textCount)
        let bound = MonoGeometryStream.wordBound &+ 6 &* textCount
        let comma = wordCount > 0
        wordCount &+= 1
        let (scale, lineHeight) = (self.scale, self.lineHeight)
        // The rectangle's coordinates, none negative, all below 2³¹: written as integers.
        guard words.room >= bound, coordinatesFit || MonoGeometryStream.fit(f, scale: scale, lineHeight: lineHeight)
        else {
            emitChecked(f, text: text, comma: comma)
            return
        }
        let (readable, digits) = (self.textCount &- Int(f.utf8Start), self.digits)
        words.withRoom(bound: bound) { q in
            var o = RawJSON(p: q)
            MonoGeometryStream.writeWordQuickly(
                f, scale: scale, lineHeight: lineHeight, text: text, readable: readable, comma: comma, digits: digits,
                to: &o)
            return o.p
        }
    }

    /// Whether word `f`'s rectangle, in cells `scale` pixels across and lines `lineHeight`
    /// down, lies in 0 ..< 2³¹ pixels (what ``coordinatesFit`` vouches for every word).
    @inline(__always)
    static func fit(_ f: Fragment, scale: Int, lineHeight: Int) -> Bool {
        let coordinates = Int(f.firstX) &* scale | Int(f.line) &* lineHeight | Int(f.right &- f.firstX) &* scale
        return UInt(bitPattern: coordinates | lineHeight) < 2_147_483_648
    }

    /// Writes word `f` as ``emit(_:)`` does, through the cursor, a check of the room per
    /// value, coordinates of any size.
    @inline(never)
    mutating func emitChecked(_ f: Fragment, text: UnsafeBufferPointer<UInt8>?, comma: Bool) {
        MonoGeometryStream.writeWord(
            f, scale: scale, lineHeight: lineHeight, text: text, comma: comma, smallCoordinates: false, to: &words)
    }

    /// Writes word `f`'s object, after a comma when `comma` is set, with its `text` unless
    /// that is nil; at most ``wordBound`` bytes and six for each byte of the text. Its
    /// rectangle (cells times `scale` across and `lineHeight` down, neither above 2²⁰, so
    /// that no product overflows) is written as ``JSONByteCursor/number(_:decimals:)``
    /// writes the `Double` of each coordinate (``JSONBytesWriting/wholeNumber(_:)``), or
    /// as integers when the caller found them all in 0 ..< 2³¹ (`smallCoordinates`: the
    /// same bytes).
    @inline(__always)
    static func writeWord<W: JSONBytesWriting>(
        _ f: Fragment, scale: Int, lineHeight: Int, text: UnsafeBufferPointer<UInt8>?, comma: Bool,
        smallCoordinates: Bool, to o: inout W
    ) {
        @inline(__always) func coordinate(_ v: Int, to o: inout W) {
            if smallCoordinates { o.integer(v) } else { o.wholeNumber(v) }
        }
        let units = Int(f.right &- f.firstX)
        if comma { o.literal(",") }
        o.literal(#"{"entity":"#)
        o.integer(f.entity)
        o.literal(#","word":"#)
        o.integer(f.word)
        o.literal(#","line":"#)
        o.integer(Int(f.line))
        o.literal(#","x":"#)
        coordinate(Int(f.firstX) &* scale, to: &o)
        o.literal(#","y":"#)
        coordinate(Int(f.line) &* lineHeight, to: &o)
        o.literal(#","width":"#)
        coordinate(units &* scale, to: &o)
        o.literal(#","height":"#)
        coordinate(lineHeight, to: &o)
        o.literal(#","column":"#)
        o.integer(Int(f.firstX))
        o.literal(#","columns":"#)
        o.integer(units)
        o.literal(#","offset":"#)
        o.integer(Int(f.utf16Start))
        o.literal(#","length":"#)
        o.integer(Int(f.utf16End &- f.utf16Start))
        o.literal(#","graphemes":"#)
        o.integer(f.graphemes)
        if let text {
            o.literal(#","text":"#)
            o.quoted(utf8: text)
        }
        o.literal("}")
    }

    /// An upper bound of the bytes one word object takes besides its text: twelve numbers
    /// of at most 32 bytes, the keys, the braces and a comma.
    static let wordBound = 12 * 32 + 140
    /// An upper bound of the bytes of one line object.
    static let lineBound = 6 * 20 + 80
}

/// A spoiler entity ``MonoGeometryStream`` meets: its index among the message's entities
/// and the UTF-16 span it covers (``MonoGeometryStream/span(of:)``), worked out once per
/// message, before the stream, by the check that the spoilers come in order.
struct SpoilerSpan {
    var entity: Int32
    var start: Int32
    var end: Int32
}
