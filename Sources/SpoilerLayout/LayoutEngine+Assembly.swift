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
            var wordIndex = 0
            var fragmentStart = -1
            var k = lo
            while true {
                let atEnd = k >= placements.count || placements[k].utf16Start >= entityEnd
                let q = atEnd ? nil : placements[k]
                // Close the fragment at the end, at whitespace, or where the line changes.
                if fragmentStart >= 0
                    && (q == nil || q!.kind.isWhitespace || q!.line != placements[fragmentStart].line)
                {
                    let first = placements[fragmentStart]
                    let last = placements[k - 1]
                    var right = first.x &+ first.width
                    for f in fragmentStart..<k { right = max(right, placements[f].x &+ placements[f].width) }
                    let units = Int(right - first.x)
                    let text = String(
                        decoding: UnsafeBufferPointer(rebasing: p[Int(first.utf8Start)..<Int(last.utf8End)]),
                        as: UTF8.self)
                    body(
                        WordBox(
                            entity: entityIndex, word: wordIndex, line: Int(first.line),
                            rect: SpoilerRect(
                                x: Double(Int(first.x) * scale), y: Double(Int(first.line) * lineHeight),
                                width: Double(units * scale), height: Double(lineHeight)),
                            column: isMono ? Int(first.x) : nil, columns: isMono ? units : nil,
                            utf16Offset: Int(first.utf16Start), utf16Length: Int(last.utf16End - first.utf16Start),
                            graphemes: k - fragmentStart, text: text), fragmentStart..<k)
                    if q == nil || q!.kind.isWhitespace { wordIndex += 1 }
                    fragmentStart = -1
                }
                guard let q else { break }
                if fragmentStart < 0 && !q.kind.isWhitespace { fragmentStart = k }
                k += 1
            }
        }
    }
}

/// One-character strings for ASCII, so that placing an ASCII grapheme copies a string
/// instead of decoding one.
private let asciiStrings: [String] = (0..<128).map { String(Character(Unicode.Scalar(UInt8($0)))) }
