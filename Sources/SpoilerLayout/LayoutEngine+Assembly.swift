import SpoilerCore

extension LayoutEngine {
    /// Turns the placed graphemes of `p` (the UTF-8 of `message.text`) into a ``TextLayout``:
    /// lines, word boxes and, if asked, the placed graphemes with their strings.
    func layout(bytes p: UnsafeBufferPointer<UInt8>, message: Message, includeGraphemes: Bool) -> TextLayout {
        let breaker = place(p)
        let placements = breaker.placements
        var metrics = self.metrics
        let scale: Int  // pixels per layout unit
        let isMono: Bool
        if case .mono(let w, _) = model {
            scale = w
            isMono = true
        } else {
            scale = 1
            isMono = false
        }
        let lineHeight = metrics.lineHeight

        // Lines.
        let lineCount = breaker.line + 1
        var lineStart = [Int](repeating: -1, count: lineCount)
        var lineEnd = [Int](repeating: -1, count: lineCount)
        var lineUnits = [Int](repeating: 0, count: lineCount)
        var fallbacks = 0
        for q in placements {
            let l = q.line
            if lineStart[l] < 0 { lineStart[l] = q.utf16Start }
            if q.kind != .newline {
                lineEnd[l] = q.utf16End
                let right = q.x + q.width
                if right > lineUnits[l] { lineUnits[l] = right }
            }
            if q.isFallback { fallbacks += 1 }
        }
        metrics.fallbacks = fallbacks
        let textEnd = placements.last?.utf16End ?? 0
        var lines: [LayoutLine] = []
        lines.reserveCapacity(lineCount)
        var maxUnits = 0
        for l in 0..<lineCount {
            let start = lineStart[l] >= 0 ? lineStart[l] : textEnd
            let end = lineEnd[l] >= 0 ? lineEnd[l] : start
            maxUnits = max(maxUnits, lineUnits[l])
            lines.append(
                LayoutLine(
                    index: l, y: l * lineHeight, height: lineHeight, width: lineUnits[l] * scale, utf16Offset: start,
                    utf16Length: end - start))
        }

        // Word boxes, one per line fragment of each word of each spoiler entity.
        var words: [WordBox] = []
        var wordOf: [Int32] = includeGraphemes ? Array(repeating: -1, count: placements.count) : []
        for (entityIndex, entity) in message.entities.enumerated() where entity.type == .spoiler {
            guard entity.length > 0 else { continue }
            let entityEnd = entity.offset + entity.length
            // First placement that ends after the entity's start.
            var lo = 0
            var hi = placements.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if placements[mid].utf16End <= entity.offset { lo = mid + 1 } else { hi = mid }
            }
            var wordIndex = 0
            var fragmentStart = -1
            func emit(_ range: Range<Int>) {
                let first = placements[range.lowerBound]
                var right = first.x + first.width
                for k in range { right = max(right, placements[k].x + placements[k].width) }
                let units = right - first.x
                let last = placements[range.upperBound - 1]
                let text = String(
                    decoding: UnsafeBufferPointer(rebasing: p[first.utf8Start..<last.utf8End]), as: UTF8.self)
                if includeGraphemes {
                    for k in range where wordOf[k] < 0 { wordOf[k] = Int32(words.count) }
                }
                words.append(
                    WordBox(
                        entity: entityIndex, word: wordIndex, line: first.line,
                        rect: Rect(
                            x: Double(first.x * scale), y: Double(first.line * lineHeight),
                            width: Double(units * scale), height: Double(lineHeight)),
                        column: isMono ? first.x : nil, columns: isMono ? units : nil,
                        utf16Offset: first.utf16Start, utf16Length: last.utf16End - first.utf16Start,
                        graphemes: range.count, text: text))
            }
            var k = lo
            while k < placements.count && placements[k].utf16Start < entityEnd {
                let q = placements[k]
                if q.kind.isWhitespace {
                    if fragmentStart >= 0 {
                        emit(fragmentStart..<k)
                        wordIndex += 1
                        fragmentStart = -1
                    }
                } else if fragmentStart < 0 {
                    fragmentStart = k
                } else if q.line != placements[fragmentStart].line {
                    emit(fragmentStart..<k)
                    fragmentStart = k
                }
                k += 1
            }
            if fragmentStart >= 0 { emit(fragmentStart..<k) }
        }

        // Placed graphemes, for renderers.
        var graphemes: [PlacedGrapheme] = []
        if includeGraphemes {
            graphemes.reserveCapacity(placements.count)
            for (k, q) in placements.enumerated() {
                let text = String(decoding: UnsafeBufferPointer(rebasing: p[q.utf8Start..<q.utf8End]), as: UTF8.self)
                let display: String
                switch q.kind {
                case .control: display = String(Character(Unicode.Scalar(q.picture)!))
                case .newline, .format: display = ""
                case .tab: display = isMono ? String(repeating: " ", count: q.width) : ""
                default: display = text
                }
                graphemes.append(
                    PlacedGrapheme(
                        text: text, display: display, line: q.line, x: q.x * scale, width: q.width * scale,
                        column: isMono ? q.x : 0, columns: isMono ? q.width : 0, utf16Offset: q.utf16Start,
                        utf16Length: q.utf16Length, word: wordOf[k] >= 0 ? Int(wordOf[k]) : nil,
                        isFallback: q.isFallback))
            }
        }

        return TextLayout(
            metrics: metrics, width: maxUnits * scale, height: lineCount * lineHeight,
            columns: isMono ? maxUnits : nil, rows: isMono ? lineCount : nil, lines: lines, graphemes: graphemes,
            words: words)
    }
}
