import SpoilerCore

extension LayoutEngine {
    /// Turns the placed graphemes of `p` (the UTF-8 of a message's text, whose `entities` these are) into a ``TextLayout``:
    /// lines, word boxes and, if asked, the placed graphemes with their strings.
    func layout(bytes p: UnsafeBufferPointer<UInt8>, entities: [Entity], includeGraphemes: Bool) -> TextLayout {
        let breaker = place(p)
        var result = frame(of: breaker)
        let (scale, isMono) = unitScale
        return breaker.placements.withUnsafeBufferPointer { placements in
            // Word boxes, one per line fragment of each word of each spoiler entity.
            var words: [WordBox] = []
            var wordOf: [Int32] = includeGraphemes ? Array(repeating: -1, count: placements.count) : []
            forEachWordBox(p, placements: placements, entities: entities) { box, fragment in
                if includeGraphemes {
                    for f in fragment where wordOf[f] < 0 { wordOf[f] = Int32(words.count) }
                }
                words.append(box)
            }

            // Placed graphemes, for renderers.
            var graphemes: [PlacedGrapheme] = []
            if includeGraphemes {
                graphemes.reserveCapacity(placements.count)
                for k in 0..<placements.count {
                    let q = placements[k]
                    let bytes = UnsafeBufferPointer(rebasing: p[Int(q.utf8Start)..<Int(q.utf8End)])
                    let text =
                        bytes.count == 1 && bytes[0] < 0x80
                        ? asciiStrings[Int(bytes[0])] : String(decoding: bytes, as: UTF8.self)
                    let display: String
                    switch q.kind {
                    case .control:
                        let picture = ControlPictures.picture(for: GraphemeScanner.decode(bytes, 0).0) ?? "\u{FFFD}"
                        display = String(Character(picture))
                    case .newline, .format: display = ""
                    case .tab: display = isMono ? String(repeating: " ", count: Int(q.width)) : ""
                    default: display = text
                    }
                    graphemes.append(
                        PlacedGrapheme(
                            text: text, display: display, line: Int(q.line), x: Int(q.x) * scale,
                            width: Int(q.width) * scale, column: isMono ? Int(q.x) : 0,
                            columns: isMono ? Int(q.width) : 0,
                            utf16Offset: Int(q.utf16Start), utf16Length: Int(q.utf16Length),
                            word: wordOf[k] >= 0 ? Int(wordOf[k]) : nil, isFallback: q.isFallback))
                }
            }

            result.graphemes = graphemes
            result.words = words
            return result
        }
    }

    /// Pixels per layout unit (a cell's width for `mono`, 1 for a font), and whether the
    /// model is `mono`.
    var unitScale: (scale: Int, isMono: Bool) {
        if case .mono(let w, _) = model { return (w, true) }
        return (1, false)
    }

    /// The layout of `breaker`'s placements without words or graphemes: the metrics, the
    /// size and the lines.
    func frame(of breaker: LineBreaker<PlacementStore>) -> TextLayout {
        var metrics = self.metrics
        let (scale, isMono) = unitScale
        let lineHeight = metrics.lineHeight
        let lineCount = Int(breaker.line) + 1
        metrics.fallbacks = breaker.fallbacks
        var lines: [LayoutLine] = []
        lines.reserveCapacity(lineCount)
        var maxUnits = 0
        for (l, extent) in breaker.lines.enumerated() {
            maxUnits = max(maxUnits, Int(extent.width))
            lines.append(
                LayoutLine(
                    index: l, y: l * lineHeight, height: lineHeight, width: Int(extent.width) * scale,
                    utf16Offset: Int(extent.utf16Start), utf16Length: Int(extent.utf16End - extent.utf16Start)))
        }
        return TextLayout(
            metrics: metrics, width: maxUnits * scale, height: lineCount * lineHeight,
            columns: isMono ? maxUnits : nil, rows: isMono ? lineCount : nil, lines: lines, graphemes: [], words: [])
    }

    /// Calls `body` with each word box of `entities`' spoilers over `placements` (the placed
    /// graphemes of the UTF-8 text `p`), in order, and the range of placements it covers:
    /// one box per line fragment of each word of each spoiler entity.
    func forEachWordBox(
        _ p: UnsafeBufferPointer<UInt8>, placements: UnsafeBufferPointer<Placement>, entities: [Entity],
        _ body: (WordBox, Range<Int>) -> Void
    ) {
        let lineHeight = metrics.lineHeight
        let (scale, isMono) = unitScale
        for (entityIndex, entity) in entities.enumerated() where entity.type == .spoiler {
            guard entity.length > 0, entity.offset < Int(Int32.max) else { continue }
            let entityStart = Int32(max(0, entity.offset))
            let entityEnd = Int32(clamping: entity.offset + entity.length)
            // The first placement that ends after the entity's start.
            var lo = 0
            var hi = placements.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if placements[mid].utf16End <= entityStart { lo = mid + 1 } else { hi = mid }
            }
            var fragments = WordFragments(entity: entityIndex, scale: scale, lineHeight: lineHeight, isMono: isMono)
            var k = lo
            while true {
                let q = k < placements.count && placements[k].utf16Start < entityEnd ? placements[k] : nil
                if fragments.closes(q) {
                    var (box, utf8) = fragments.close(endsWord: q == nil || q!.kind.isWhitespace)
                    box.text = String(decoding: UnsafeBufferPointer(rebasing: p[utf8]), as: UTF8.self)
                    body(box, k - box.graphemes..<k)
                }
                guard let q else { break }
                fragments.add(q)
                k += 1
            }
        }
    }
}

/// The word boxes of one spoiler entity, made from its placements as they come: one box per
/// line fragment of each maximal run of graphemes that are not whitespace (DESIGN.md §3).
///
/// ``LayoutEngine/forEachWordBox(_:placements:entities:_:)`` hands it the placements the
/// whole layout keeps; ``LayoutEngine/forEachWordFragment(_:count:entities:measure:table:_:)``
/// those of a ``PlacementStream``.
struct WordFragments {
    /// The entity's index in the message's entities.
    let entity: Int
    /// Pixels per layout unit, and the line height in pixels.
    let scale: Int
    let lineHeight: Int
    /// Whether boxes carry cells (`column`, `columns`).
    let isMono: Bool
    /// The index of the current word in the entity.
    var word = 0
    /// The open fragment's first placement, where its last one ends (UTF-16 and UTF-8),
    /// its right edge, and its length in graphemes.
    var first: Placement?
    var utf16End: Int32 = 0
    var utf8End: Int32 = 0
    var right: Int32 = 0
    var graphemes = 0

    init(entity: Int, scale: Int, lineHeight: Int, isMono: Bool) {
        self.entity = entity
        self.scale = scale
        self.lineHeight = lineHeight
        self.isMono = isMono
    }

    /// Whether the entity's next placement `q`, or its end (nil), closes the open fragment:
    /// at the end, at whitespace, or where the line changes.
    @inline(__always)
    func closes(_ q: Placement?) -> Bool {
        guard let first else { return false }
        guard let q else { return true }
        return q.kind.isWhitespace || q.line != first.line
    }

    /// Closes the open fragment and gives back its box (with an empty `text`) and the
    /// UTF-8 range of its text; `endsWord`: the word ends with it (the next fragment is
    /// the next word's).
    mutating func close(endsWord: Bool) -> (box: WordBox, utf8: Range<Int>) {
        let first = first!
        let units = Int(right - first.x)
        let box = WordBox(
            entity: entity, word: word, line: Int(first.line),
            rect: SpoilerRect(
                x: Double(Int(first.x) * scale), y: Double(Int(first.line) * lineHeight),
                width: Double(units * scale), height: Double(lineHeight)),
            column: isMono ? Int(first.x) : nil, columns: isMono ? units : nil,
            utf16Offset: Int(first.utf16Start), utf16Length: Int(utf16End - first.utf16Start),
            graphemes: graphemes, text: "")
        if endsWord { word += 1 }
        self.first = nil
        return (box, Int(first.utf8Start)..<Int(utf8End))
    }

    /// Adds the entity's next placement `q` to the open fragment, opening one if none is;
    /// whitespace only ends words (``closes(_:)``).
    @inline(__always)
    mutating func add(_ q: Placement) {
        guard !q.kind.isWhitespace else { return }
        if first == nil {
            first = q
            right = q.x &+ q.width
            graphemes = 0
        }
        right = max(right, q.x &+ q.width)
        utf16End = q.utf16End
        utf8End = q.utf8End
        graphemes += 1
    }
}

/// One-character strings for ASCII, so that placing an ASCII grapheme copies a string
/// instead of decoding one.
private let asciiStrings: [String] = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) }
