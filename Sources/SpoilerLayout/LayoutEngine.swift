public import SpoilerCore

/// Lays out messages: grapheme clusters on lines, wrapped to a width, and one rectangle
/// per hidden word fragment (DESIGN.md §3).
///
/// ```swift
/// let engine = LayoutEngine(model: .mono(cellWidth: 8, cellHeight: 16), wrapWidth: 40)
/// let layout = engine.layout(Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]))
/// // layout.words[0]: column 3, 5 columns; x 24, width 40 pixels
/// ```
///
/// Coordinates are pixels from the layout's top-left corner, y downward. In the `mono`
/// model every grapheme takes 0, 1 or 2 cells of `cellWidth` × `cellHeight` pixels (see
/// `GraphemeScanner` for the width rules); with a bitmap font it takes its glyph's
/// advance. Lines are `lineHeight` pixels apart.
///
/// Words are the maximal runs of non-whitespace graphemes inside each spoiler entity. A
/// grapheme belongs to an entity when any of its UTF-16 units does (so an entity that
/// splits a cluster hides all of it). A word that wraps gives one ``WordBox`` per line.
public struct LayoutEngine: Sendable, Equatable {
    /// How graphemes are measured.
    public enum Model: Sendable, Equatable {
        /// A terminal cell grid; `cellWidth` × `cellHeight` pixels per cell.
        case mono(cellWidth: Int, cellHeight: Int)
        /// A bitmap font.
        case font(BitmapFont)
    }

    /// How graphemes are measured.
    public var model: Model
    /// The wrap width: columns for `mono`, pixels for a bitmap font; nil for no wrapping.
    public var wrapWidth: Int?

    /// Creates an engine.
    ///
    /// Cell sizes and the wrap width are clamped to at least 1.
    public init(model: Model = .mono(cellWidth: 8, cellHeight: 16), wrapWidth: Int? = nil) {
        if case .mono(let w, let h) = model {
            self.model = .mono(cellWidth: max(1, w), cellHeight: max(1, h))
        } else {
            self.model = model
        }
        self.wrapWidth = wrapWidth.map { max(1, $0) }
    }

    /// The bitmap font, if the model is one.
    public var font: BitmapFont? {
        if case .font(let f) = model { return f }
        return nil
    }

    /// The metrics of this engine's layouts, with `fallbacks` 0.
    ///
    /// For `mono` the baseline sits three quarters down the cell (12 of 16 pixels).
    public var metrics: LayoutMetrics {
        switch model {
        case .mono(let w, let h):
            let ascent = LayoutEngine.monoAscent(cellHeight: h)
            return LayoutMetrics(
                model: .mono, fontName: nil, cellWidth: w, cellHeight: h, ascent: ascent, descent: h - ascent,
                lineHeight: h, fallbacks: 0)
        case .font(let f):
            return LayoutMetrics(
                model: f.format, fontName: f.name, cellWidth: f.defaultAdvance, cellHeight: f.lineHeight,
                ascent: f.ascent, descent: f.descent, lineHeight: f.lineHeight, fallbacks: 0)
        }
    }

    /// The ascent of the `mono` model's cells `cellHeight` pixels high: three quarters,
    /// rounded up.
    @inline(__always)
    static func monoAscent(cellHeight h: Int) -> Int { (h * 3 + 3) / 4 }

    /// Lays out `message`.
    ///
    /// - Parameters:
    ///   - message: the text and its entities (offsets in UTF-16 code units).
    ///   - includeGraphemes: whether to fill ``TextLayout/graphemes`` (renderers need it;
    ///     the geometry export does not, and skips the per-grapheme strings).
    /// - Returns: the lines, the placed graphemes and the word boxes.
    /// - Complexity: O(n + w log n) for n UTF-8 bytes of text and w spoiler entities.
    public func layout(_ message: Message, includeGraphemes: Bool = true) -> TextLayout {
        if let result = message.text.utf8.withContiguousStorageIfAvailable({
            layout(bytes: $0, entities: message.entities, includeGraphemes: includeGraphemes)
        }) {
            return result
        }
        var text = message.text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable {
            layout(bytes: $0, entities: message.entities, includeGraphemes: includeGraphemes)
        }!
    }

    /// Lays out a message given as the UTF-8 bytes of its text and its entities, as
    /// ``layout(_:includeGraphemes:)`` lays out the same ``Message``, for a caller that has
    /// the bytes and no String (a line filter).
    ///
    /// - Parameters:
    ///   - utf8: The text, valid UTF-8 (the caller vouches for it).
    ///   - entities: Its entities, offsets in UTF-16 code units, in canonical order.
    ///   - includeGraphemes: whether to fill ``TextLayout/graphemes``.
    /// - Returns: the lines, the placed graphemes and the word boxes.
    public func layout(utf8: UnsafeBufferPointer<UInt8>, entities: [Entity], includeGraphemes: Bool = true)
        -> TextLayout
    {
        layout(bytes: utf8, entities: entities, includeGraphemes: includeGraphemes)
    }

    /// Places every grapheme of the valid UTF-8 `p` (the message text), measured by the
    /// engine's model.
    func place(_ p: UnsafeBufferPointer<UInt8>) -> LineBreaker<PlacementStore> {
        switch model {
        case .mono: return place(p, measure: MonoMeasure())
        case .font(let font): return place(p, measure: FontMeasure(font: font))
        }
    }

    /// Places every grapheme of `p` on lines with a ``LineBreaker``.
    @inline(__always)
    func place<M: GraphemeMeasure>(_ p: UnsafeBufferPointer<UInt8>, measure: M) -> LineBreaker<PlacementStore> {
        let n = min(p.count, Int(Int32.max))
        var breaker = LineBreaker<PlacementStore>(wrap: wrapWidth, tabStop: Int(measure.tabStop))
        var u16: Int32 = 0
        breaker.run(capacity: n) { breaker in
            u16 = LayoutEngine.forEachGrapheme(p, count: n, measure: measure, into: &breaker)
        }
        breaker.finish(end: u16)
        return breaker
    }

    /// Hands every grapheme of the first `n` bytes of `p` to `sink` in order, measured by
    /// `measure` (``measureGrapheme(_:at:count:utf16Start:measure:table:)``). Returns the
    /// text's length in UTF-16 units.
    @inline(__always)
    static func forEachGrapheme<M: GraphemeMeasure, S: GraphemeSink>(
        _ p: UnsafeBufferPointer<UInt8>, count n: Int, measure: M, into sink: inout S
    ) -> Int32 {
        GraphemeScanner.BMPInfo.table.withUnsafeBufferPointer { table in
            forEachGrapheme(p, count: n, measure: measure, table: table, into: &sink)
        }
    }

    /// ``forEachGrapheme(_:count:measure:into:)`` with `table`, ``GraphemeScanner/BMPInfo/table``
    /// or a copy of it (``StreamTables/graphemeInfo``), given.
    @inline(__always)
    static func forEachGrapheme<M: GraphemeMeasure, S: GraphemeSink>(
        _ p: UnsafeBufferPointer<UInt8>, count n: Int, measure: M, table: UnsafeBufferPointer<UInt8>,
        into sink: inout S
    ) -> Int32 {
        var u16: Int32 = 0
        var i = 0
        while i < n {
            // A run of graphemes the sink takes at once, for a sink that does.
            if S.takesRuns {
                let (next, nextU16) = sink.takeRun(p, from: i, count: n, utf16Start: u16, table: table)
                if next > i {
                    i = next
                    u16 = nextU16
                    continue
                }
            }
            let g = measureGrapheme(p, at: i, count: n, utf16Start: u16, measure: measure, table: table)
            if g.isBreaking {
                sink.addBreaking(
                    width: g.width, kind: g.kind, utf8Start: g.utf8Start, utf8End: g.utf8End,
                    utf16Start: u16, utf16Length: g.utf16Length, isFallback: g.isFallback)
            } else {
                sink.addJoining(
                    width: g.width, kind: g.kind, utf8Start: g.utf8Start, utf8End: g.utf8End,
                    utf16Start: u16, utf16Length: g.utf16Length, isFallback: g.isFallback)
            }
            i = Int(g.utf8End)
            u16 &+= g.utf16Length
        }
        return u16
    }

    /// The grapheme that starts at byte `i` of the first `n` bytes of `p` (at UTF-16 offset
    /// `u16`), measured by `measure`: a fast path for ASCII followed by ASCII (a cluster of
    /// its own), and `GraphemeScanner` for everything else. `table` is
    /// `GraphemeScanner.BMPInfo.table`.
    @inline(__always)
    static func measureGrapheme<M: GraphemeMeasure>(
        _ p: UnsafeBufferPointer<UInt8>, at i: Int, count n: Int, utf16Start u16: Int32, measure: M,
        table: UnsafeBufferPointer<UInt8>
    ) -> MeasuredGrapheme {
        let b = p[i]
        let i32 = Int32(truncatingIfNeeded: i)
        if b < 0x80 && (i + 1 == n || p[i + 1] < 0x80) {
            if b > 0x20 && b < 0x7F {
                let (w, fallback) = measure.ascii(b)
                return MeasuredGrapheme(
                    kind: .other, width: w, isFallback: fallback, isBreaking: false, utf8Start: i32,
                    utf8End: i32 &+ 1, utf16Start: u16, utf16Length: 1)
            }
            if b == 0x20 || b == 0x0A || b == 0x09 {
                let (w, fallback) = b == 0x20 ? measure.ascii(b) : (0, false)
                return MeasuredGrapheme(
                    kind: b == 0x20 ? .space : b == 0x0A ? .newline : .tab, width: w, isFallback: fallback,
                    isBreaking: true, utf8Start: i32, utf8End: i32 &+ 1, utf16Start: u16, utf16Length: 1)
            }
        }
        let g = GraphemeScanner.scan(p, from: i, to: n, table: table)
        let (width, isFallback) = measure.measure(g, p, from: i)
        let isBreaking: Bool
        switch g.kind {
        case .space, .tab, .wide, .newline: isBreaking = true
        default: isBreaking = false
        }
        return MeasuredGrapheme(
            kind: g.kind, width: width, isFallback: isFallback, isBreaking: isBreaking, utf8Start: i32,
            utf8End: Int32(truncatingIfNeeded: g.end), utf16Start: u16,
            utf16Length: Int32(truncatingIfNeeded: g.utf16Length))
    }
}

/// One grapheme cluster as ``LayoutEngine/measureGrapheme(_:at:count:utf16Start:measure:table:)``
/// finds it: its kind, its advance in layout units, and where it is in the text.
struct MeasuredGrapheme {
    var kind: GraphemeKind
    var width: Int32
    var isFallback: Bool
    /// Whether the line breaker takes it as breakable whitespace, a wide grapheme or a line
    /// break (`addBreaking`) rather than as part of an unbreakable run (`addJoining`).
    var isBreaking: Bool
    var utf8Start: Int32
    var utf8End: Int32
    var utf16Start: Int32
    var utf16Length: Int32
}

/// Takes the graphemes of a text in order from ``LayoutEngine/forEachGrapheme(_:count:measure:into:)``:
/// the ``LineBreaker``, or the streaming geometry writer of the mono model without wrapping.
protocol GraphemeSink {
    /// A grapheme of an unbreakable run (kinds `.other`, `.glue`, `.control`, `.format`).
    mutating func addJoining(
        width: Int32, kind: GraphemeKind, utf8Start: Int32, utf8End: Int32, utf16Start: Int32, utf16Length: Int32,
        isFallback: Bool)
    /// Breakable whitespace (`.space`, `.tab`), a wide grapheme (`.wide`) or a line break
    /// (`.newline`).
    mutating func addBreaking(
        width: Int32, kind: GraphemeKind, utf8Start: Int32, utf8End: Int32, utf16Start: Int32, utf16Length: Int32,
        isFallback: Bool)
    /// Whether the sink takes runs of graphemes itself with ``takeRun(_:from:count:utf16Start:table:)``.
    static var takesRuns: Bool { get }
    /// Takes the graphemes it can at once from byte `start` of `p` (at UTF-16 offset
    /// `utf16Start`), as if each were given on its own, and returns where it stopped (byte
    /// and UTF-16 offsets); the rest are given one by one. `table` is
    /// `GraphemeScanner.BMPInfo.table`.
    mutating func takeRun(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, count n: Int, utf16Start: Int32,
        table: UnsafeBufferPointer<UInt8>
    ) -> (Int, Int32)
}

extension LineBreaker: GraphemeSink {
    static var takesRuns: Bool { false }

    func takeRun(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, count n: Int, utf16Start: Int32,
        table: UnsafeBufferPointer<UInt8>
    ) -> (Int, Int32) { (start, utf16Start) }
}

/// Measures graphemes in layout units for ``LayoutEngine/place(_:measure:)``.
protocol GraphemeMeasure {
    /// The tab stop interval.
    var tabStop: Int32 { get }
    /// The advance of the printable ASCII byte `b` (a cluster of its own), and whether it
    /// fell back.
    func ascii(_ b: UInt8) -> (Int32, Bool)
    /// The advance of the cluster `g` starting at byte `start` of `p`, and whether it fell back.
    func measure(_ g: ScannedGrapheme, _ p: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int32, Bool)
}

/// Terminal cells.
struct MonoMeasure: GraphemeMeasure {
    var tabStop: Int32 { 8 }

    @inline(__always)
    func ascii(_ b: UInt8) -> (Int32, Bool) { (1, false) }

    @inline(__always)
    func measure(_ g: ScannedGrapheme, _ p: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int32, Bool) {
        (Int32(g.columns), false)
    }
}

/// Glyph advances of a bitmap font, in pixels.
struct FontMeasure: GraphemeMeasure {
    let font: BitmapFont
    var tabStop: Int32 { Int32(clamping: 8 * max(1, font.defaultAdvance)) }

    @inline(__always)
    func ascii(_ b: UInt8) -> (Int32, Bool) { (font.asciiAdvance[Int(b)], font.asciiFallback[Int(b)]) }

    func measure(_ g: ScannedGrapheme, _ p: UnsafeBufferPointer<UInt8>, from start: Int) -> (Int32, Bool) {
        let r: (record: Int32?, isFallback: Bool)
        switch g.kind {
        case .newline, .tab, .format:
            return (0, false)
        case .control:
            r = font.resolve(scalar: g.base)
        case _ where g.scalarCount == 1 || font.sequenceIndex.isEmpty:
            // No sequence to look up: the first scalar decides, with no array made.
            r = font.resolve(scalar: g.base)
        default:
            var scalars: [UInt32] = []
            scalars.reserveCapacity(g.scalarCount)
            var j = start
            while j < g.end {
                let (v, l) = GraphemeScanner.decode(p, j)
                scalars.append(v)
                j += l
            }
            r = font.resolve(scalars)
        }
        return (Int32(font.advance(of: r.record)), r.isFallback)
    }
}
