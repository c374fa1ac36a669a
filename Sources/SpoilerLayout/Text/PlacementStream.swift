/// The placements of a text one at a time, in order, each as final as the whole layout
/// holds it (``LineBreaker`` with a ``PlacementStore``), without keeping them.
///
/// A breaker moves placements only while ``LineBreaker/isRunPending``: those of the run it
/// is in, to the next line. So one breaker goes ahead keeping nothing but the line starts it
/// decides, and the placements are made again behind it once it has passed them for good:
/// x returns to 0 at each line start, and each advance is the breaker's
/// (``LineBreaker/advance(of:width:at:)``). At most three line starts lie between the two
/// (the one the replay stands at, and two that one grapheme ahead may add), so the state is
/// a few dozen bytes and a copy of the stream is a checkpoint to come back to.
///
/// - Complexity: every grapheme is measured once, and once more behind a run that may still
///   move (wrapping only); O(1) memory.
struct PlacementStream<M: GraphemeMeasure> {
    let p: UnsafeBufferPointer<UInt8>
    /// How many bytes of `p` are laid out.
    let n: Int
    let measure: M
    /// `GraphemeScanner.BMPInfo.table`.
    let table: UnsafeBufferPointer<UInt8>

    /// The breaker ahead, and the byte and UTF-16 offsets of the next grapheme it takes.
    var ahead: LineBreaker<EndedLines>
    var aheadByte = 0
    var aheadUTF16: Int32 = 0
    var aheadDone = false
    /// The grapheme the breaker ahead took last: the replay, mostly one grapheme behind,
    /// takes it from here instead of measuring it again.
    var aheadLast: MeasuredGrapheme?
    /// The starts of lines the breaker ahead decided that the replay has not reached, a ring.
    var lineStarts = InlineArray<4, Int32>(repeating: 0)
    var lineStartsFirst = 0
    var lineStartsCount = 0

    /// The replay: the byte and UTF-16 offsets of the next grapheme, where it goes.
    var byte = 0
    var utf16: Int32 = 0
    var x: Int32 = 0
    var line: Int32 = 0
    /// The next placement, once ``peek()`` made it.
    var peeked: Placement?

    /// A stream over the first `n` bytes of the valid UTF-8 `p`, laid out as a breaker with
    /// `wrap` and `measure` lays them out; `table` is `GraphemeScanner.BMPInfo.table`.
    init(_ p: UnsafeBufferPointer<UInt8>, count n: Int, wrap: Int?, measure: M, table: UnsafeBufferPointer<UInt8>) {
        self.p = p
        self.n = n
        self.measure = measure
        self.table = table
        ahead = LineBreaker(wrap: wrap, tabStop: Int(measure.tabStop), sink: EndedLines())
    }

    /// The UTF-16 offset of the next placement (the text's length at the end).
    var position: Int32 { peeked?.utf16Start ?? utf16 }

    /// The next placement, left to come.
    mutating func peek() -> Placement? {
        if peeked == nil { peeked = make() }
        return peeked
    }

    /// The next placement, or nil at the end of the text.
    mutating func next() -> Placement? {
        if let q = peeked {
            peeked = nil
            return q
        }
        return make()
    }

    /// Makes the placement of the grapheme at `byte`, once the breaker ahead has passed it
    /// for good.
    private mutating func make() -> Placement? {
        guard byte < n else { return nil }
        while !aheadDone && (ahead.isRunPending ? ahead.runStartUTF16 : aheadUTF16) <= utf16 { stepAhead() }
        let g =
            aheadLast.flatMap { $0.utf16Start == utf16 ? $0 : nil }
            ?? LayoutEngine.measureGrapheme(p, at: byte, count: n, utf16Start: utf16, measure: measure, table: table)
        if lineStartsCount > 0 && lineStarts[lineStartsFirst] == utf16 {
            lineStartsFirst = (lineStartsFirst + 1) & 3
            lineStartsCount -= 1
            line &+= 1
            x = 0
        }
        let w = ahead.advance(of: g.kind, width: g.width, at: x)
        let q = Placement(
            utf8Start: g.utf8Start, utf8End: g.utf8End, utf16Start: utf16, utf16Length: g.utf16Length, x: x, width: w,
            line: line, kind: g.kind, isFallback: g.isFallback)
        x &+= w
        byte = Int(g.utf8End)
        utf16 &+= g.utf16Length
        return q
    }

    /// Gives the breaker ahead its next grapheme (or the end of the text), and queues the
    /// starts of the lines it ends.
    private mutating func stepAhead() {
        if aheadByte < n {
            let g = LayoutEngine.measureGrapheme(
                p, at: aheadByte, count: n, utf16Start: aheadUTF16, measure: measure, table: table)
            ahead.add(g)
            aheadLast = g
            aheadByte = Int(g.utf8End)
            aheadUTF16 &+= g.utf16Length
        } else {
            ahead.finish(end: aheadUTF16)
            aheadDone = true
        }
        for k in 0..<ahead.sink.count {
            guard let start = ahead.sink.lines[k].nextStart else { continue }
            precondition(lineStartsCount < 4, "more than four line starts ahead of the placements")
            lineStarts[(lineStartsFirst + lineStartsCount) & 3] = start
            lineStartsCount += 1
        }
        ahead.sink.count = 0
    }
}

extension LayoutEngine {
    /// Calls `body` with every line of the first `n` bytes of the valid UTF-8 `p`, in order,
    /// as ``place(_:measure:)`` ends them, keeping no placements; returns how many graphemes
    /// fell back to a default glyph or a box. `table` is `GraphemeScanner.BMPInfo.table`.
    func forEachLine<M: GraphemeMeasure>(
        _ p: UnsafeBufferPointer<UInt8>, count n: Int, measure: M, table: UnsafeBufferPointer<UInt8>,
        _ body: (LineExtent) -> Void
    ) -> Int {
        var breaker = LineBreaker(wrap: wrapWidth, tabStop: Int(measure.tabStop), sink: EndedLines())
        var i = 0
        var u16: Int32 = 0
        while true {
            let atEnd = i >= n
            if atEnd {
                breaker.finish(end: u16)
            } else {
                let g = LayoutEngine.measureGrapheme(
                    p, at: i, count: n, utf16Start: u16, measure: measure, table: table)
                breaker.add(g)
                i = Int(g.utf8End)
                u16 &+= g.utf16Length
            }
            for k in 0..<breaker.sink.count { body(breaker.sink.lines[k].extent) }
            breaker.sink.count = 0
            if atEnd { return breaker.fallbacks }
        }
    }
}
