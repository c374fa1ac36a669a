/// A bitmap font parsed from a BDF 2.1, PSF1, PSF2 or GNU Unifont `.hex` file.
///
/// It holds glyphs by Unicode scalar (and by scalar sequence, for PSF unicode tables that
/// list them), plus the font-wide metrics the layout needs. All values in pixels.
///
/// Load one with ``BitmapFont/parse(_:file:)``, which detects the format (and gzip) from
/// the bytes. The SVG renderer draws glyph pixels through ``glyph(forGrapheme:)``.
public struct BitmapFont: Sendable, Equatable {
    /// The file format: `.bdf`, `.psf` or `.hex`.
    public var format: MetricModel
    /// BDF `FONT`, else the file name given to the parser.
    public var name: String
    /// Pixels from a line's top to the baseline.
    public var ascent: Int
    /// Pixels from the baseline to a line's bottom.
    public var descent: Int
    /// Pixels from one line's top to the next's: `ascent + descent`.
    public var lineHeight: Int { ascent + descent }
    /// The advance of a replacement box for a grapheme the font lacks, and the tab unit
    /// (a tab stop is every 8 default advances).
    public var defaultAdvance: Int

    /// Glyph storage: one record per glyph, bitmaps packed in `bitmapData`.
    var records: [GlyphRecord] = []
    var bitmapData: [UInt8] = []
    /// Scalar → record index.
    var scalarIndex: [UInt32: Int32] = [:]
    /// Scalar sequences (PSF unicode tables) → record index.
    var sequenceIndex: [[UInt32]: Int32] = [:]
    /// Record index for ASCII 0…127, -1 when missing (the layout's fast path).
    var asciiIndex: [Int32] = Array(repeating: -1, count: 128)
    /// The font's default glyph (BDF `DEFAULT_CHAR`, else U+FFFD), if it has one.
    var defaultRecord: Int32?
    /// For each ASCII byte, the advance of what the layout draws for it.
    ///
    /// That is the glyph, the control picture's glyph, or the fallback; `asciiFallback`
    /// says whether it is a fallback. Filled by ``finishLoading()``.
    var asciiAdvance: [Int32] = Array(repeating: 0, count: 128)
    var asciiFallback: [Bool] = Array(repeating: true, count: 128)

    init(format: MetricModel, name: String, ascent: Int, descent: Int, defaultAdvance: Int) {
        self.format = format
        self.name = name
        self.ascent = ascent
        self.descent = descent
        self.defaultAdvance = defaultAdvance
    }

    /// How many distinct glyphs the font holds.
    public var glyphCount: Int { records.count }

    /// How many Unicode scalars map to a glyph.
    public var mappedScalarCount: Int { scalarIndex.count + asciiIndex.filter { $0 >= 0 }.count }

    /// The glyph for `scalar`, or nil if the font lacks it.
    public func glyph(for scalar: Unicode.Scalar) -> Glyph? {
        record(for: scalar.value).map(glyph(at:))
    }

    /// The glyph a layout draws for a grapheme cluster: the glyph of the whole scalar
    /// sequence if the font lists it, else the glyph of its first scalar (combining marks
    /// and emoji modifiers after it are not drawn), else the font's default glyph; nil
    /// when the font has none of these (renderers then draw a box of
    /// ``defaultAdvance`` × ``lineHeight``).
    ///
    /// Pass ``PlacedGrapheme/display``, so control characters resolve to their stand-ins.
    public func glyph(forGrapheme grapheme: some StringProtocol) -> Glyph? {
        let resolved = resolve(grapheme.unicodeScalars.map(\.value))
        return resolved.record.map(glyph(at:))
    }

    /// The font's default glyph, if it has one.
    public var defaultGlyph: Glyph? { defaultRecord.map(glyph(at:)) }

    /// The record for a scalar, if present.
    @inline(__always)
    func record(for value: UInt32) -> Int32? {
        if value < 128 {
            let r = asciiIndex[Int(value)]
            return r >= 0 ? r : nil
        }
        return scalarIndex[value]
    }

    /// Resolves a grapheme's scalars to a glyph record: whether it fell back, and which
    /// record (nil: a replacement box).
    func resolve(_ scalars: [UInt32]) -> (record: Int32?, isFallback: Bool) {
        guard let first = scalars.first else { return (nil, false) }
        if scalars.count > 1, !sequenceIndex.isEmpty, let r = sequenceIndex[scalars] { return (r, false) }
        return resolve(scalar: first)
    }

    /// The glyph record of the single scalar `v`, as ``resolve(_:)`` finds it for `[v]`, or
    /// for any cluster that begins with `v` when the font has no sequences.
    @inline(__always)
    func resolve(scalar v: UInt32) -> (record: Int32?, isFallback: Bool) {
        if let r = record(for: v) { return (r, false) }
        return (defaultRecord, true)
    }

    /// The advance of a glyph record, or of the replacement box for nil.
    @inline(__always)
    func advance(of record: Int32?) -> Int {
        guard let r = record else { return defaultAdvance }
        return Int(records[Int(r)].advance)
    }

    func glyph(at index: Int32) -> Glyph {
        let r = records[Int(index)]
        let bytes = Int(r.height) * ((Int(r.width) + 7) / 8)
        let start = Int(r.bitmapOffset)
        return Glyph(
            advance: Int(r.advance), width: Int(r.width), height: Int(r.height), xOffset: Int(r.xOffset),
            yOffset: Int(r.yOffset), bitmap: bitmapData[start..<start + bytes])
    }

    // MARK: Building (parsers)

    /// Fills the lookup tables once every glyph is in.
    mutating func finishLoading() {
        for b in 0..<128 {
            let value = ControlPictures.picture(for: UInt32(b))?.value ?? UInt32(b)
            let r = resolve([value])
            asciiAdvance[b] = Int32(advance(of: r.record))
            asciiFallback[b] = r.isFallback
        }
    }

    /// Appends a glyph; `bitmap` holds `height` rows of `(width + 7) / 8` bytes.
    mutating func addGlyph(
        advance: Int, width: Int, height: Int, xOffset: Int, yOffset: Int, bitmap: some Collection<UInt8>
    ) -> Int32 {
        let index = Int32(records.count)
        records.append(
            GlyphRecord(
                bitmapOffset: UInt32(bitmapData.count), advance: Int16(clamping: advance),
                width: Int16(clamping: width), height: Int16(clamping: height), xOffset: Int16(clamping: xOffset),
                yOffset: Int16(clamping: yOffset)))
        bitmapData.append(contentsOf: bitmap)
        return index
    }

    /// Maps `value` to glyph record `index` (the first mapping of a scalar wins).
    mutating func map(_ value: UInt32, to index: Int32) {
        if value < 128 {
            if asciiIndex[Int(value)] < 0 { asciiIndex[Int(value)] = index }
        } else if scalarIndex[value] == nil {
            scalarIndex[value] = index
        }
    }

    /// Maps the scalar sequence `values` to glyph record `index`.
    mutating func map(sequence values: [UInt32], to index: Int32) {
        if values.count == 1 {
            map(values[0], to: index)
        } else if sequenceIndex[values] == nil {
            sequenceIndex[values] = index
        }
    }
}

/// Where one glyph's bitmap lives and how it sits; see ``Glyph``.
struct GlyphRecord: Sendable, Equatable {
    var bitmapOffset: UInt32
    var advance: Int16
    var width: Int16
    var height: Int16
    var xOffset: Int16
    var yOffset: Int16
}
