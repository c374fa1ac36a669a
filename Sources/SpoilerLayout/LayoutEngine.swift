public import SpoilerCore

/// Lays out messages: grapheme clusters on lines, wrapped to a width, and one rectangle
/// per hidden word fragment (SPEC §3).
///
/// ```swift
/// let engine = LayoutEngine(model: .mono(cellWidth: 8, cellHeight: 16), wrapWidth: 40)
/// let layout = engine.layout(Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]))
/// // layout.words[0]: column 3, 5 columns; x 24, width 40 pixels
/// ```
///
/// Coordinates are pixels from the layout's top-left corner, y downward. In the `mono`
/// model every grapheme takes 0, 1 or 2 cells of `cellWidth` × `cellHeight` pixels (see
/// ``GraphemeScanner`` for the width rules); with a bitmap font it takes its glyph's
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

    /// Creates an engine. Cell sizes and the wrap width are clamped to at least 1.
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
            let ascent = (h * 3 + 3) / 4
            return LayoutMetrics(
                model: .mono, fontName: nil, cellWidth: w, cellHeight: h, ascent: ascent, descent: h - ascent,
                lineHeight: h, fallbacks: 0)
        case .font(let f):
            return LayoutMetrics(
                model: f.format, fontName: f.name, cellWidth: f.defaultAdvance, cellHeight: f.lineHeight,
                ascent: f.ascent, descent: f.descent, lineHeight: f.lineHeight, fallbacks: 0)
        }
    }

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
            layout(bytes: $0, message: message, includeGraphemes: includeGraphemes)
        }) {
            return result
        }
        var text = message.text
        text.makeContiguousUTF8()
        return text.utf8.withContiguousStorageIfAvailable {
            layout(bytes: $0, message: message, includeGraphemes: includeGraphemes)
        }!
    }

    /// Places every grapheme of the valid UTF-8 `p` (the message text).
    func place(_ p: UnsafeBufferPointer<UInt8>) -> LineBreaker {
        let font = self.font
        // Advances of ASCII graphemes, in layout units, and whether the font lacks them.
        var asciiAdvance = [Int](repeating: 1, count: 128)
        var asciiFallback = [Bool](repeating: false, count: 128)
        let tabStop: Int
        if let font {
            tabStop = 8 * max(1, font.defaultAdvance)
            for b in 0..<128 {
                let value = ControlPictures.picture(for: UInt32(b))?.value ?? UInt32(b)
                let r = font.resolve([value])
                asciiAdvance[b] = font.advance(of: r.record)
                asciiFallback[b] = r.isFallback
            }
        } else {
            tabStop = 8
        }
        var breaker = LineBreaker(wrap: wrapWidth, tabStop: tabStop, capacity: p.count)
        let n = p.count
        var i = 0
        var u16 = 0
        while i < n {
            let b = p[i]
            if b < 0x80 && (i + 1 == n || p[i + 1] < 0x80) {
                // ASCII followed by ASCII: a cluster of its own, except CR LF.
                if b > 0x20 && b < 0x7F {
                    breaker.addJoining(
                        width: asciiAdvance[Int(b)], kind: .other, utf8Start: i, utf8End: i + 1, utf16Start: u16,
                        utf16Length: 1, isFallback: asciiFallback[Int(b)], picture: 0)
                    i += 1
                    u16 += 1
                    continue
                }
                if b == 0x20 {
                    breaker.addBreaking(
                        width: asciiAdvance[0x20], kind: .space, utf8Start: i, utf8End: i + 1, utf16Start: u16,
                        utf16Length: 1, isFallback: asciiFallback[0x20])
                    i += 1
                    u16 += 1
                    continue
                }
                if b == 0x0A {
                    breaker.addBreaking(
                        width: 0, kind: .newline, utf8Start: i, utf8End: i + 1, utf16Start: u16, utf16Length: 1,
                        isFallback: false)
                    i += 1
                    u16 += 1
                    continue
                }
            }
            let g = GraphemeScanner.scan(p, from: i)
            var width = g.columns
            var isFallback = false
            if let font {
                switch g.kind {
                case .newline, .tab, .format:
                    width = 0
                case .control:
                    let r = font.resolve([g.base])
                    width = font.advance(of: r.record)
                    isFallback = r.isFallback
                default:
                    var scalars: [UInt32] = []
                    scalars.reserveCapacity(g.scalarCount)
                    var j = i
                    while j < g.end {
                        let (v, l) = GraphemeScanner.decode(p, j)
                        scalars.append(v)
                        j += l
                    }
                    let r = font.resolve(scalars)
                    width = font.advance(of: r.record)
                    isFallback = r.isFallback
                }
            }
            switch g.kind {
            case .space, .tab, .wide, .newline:
                breaker.addBreaking(
                    width: width, kind: g.kind, utf8Start: i, utf8End: g.end, utf16Start: u16,
                    utf16Length: g.utf16Length, isFallback: isFallback)
            default:
                breaker.addJoining(
                    width: width, kind: g.kind, utf8Start: i, utf8End: g.end, utf16Start: u16,
                    utf16Length: g.utf16Length, isFallback: isFallback, picture: g.kind == .control ? g.base : 0)
            }
            i = g.end
            u16 += g.utf16Length
        }
        return breaker
    }
}
