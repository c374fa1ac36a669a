public import SpoilerCore

extension LayoutEngine {
    /// Lays out `message` and writes its geometry JSON (``TextLayout/jsonBytes(id:redact:)``
    /// of ``layout(_:includeGraphemes:)``) a piece at a time, without making the layout:
    /// neither the placed graphemes, nor the lines, nor the word boxes, nor the JSON are
    /// held whole, so memory stays the same whatever the message's length.
    ///
    /// ```swift
    /// LayoutEngine().writeJSON(of: message, redact: false) { piece in send(piece) }
    /// ```
    ///
    /// The text is read several times instead: once for the layout's size (which the JSON
    /// gives first), once more for the lines when there are over 65,536 of them, and once for
    /// the words.
    ///
    /// - Parameters:
    ///   - message: the text and its entities.
    ///   - id: raw JSON written first under `id`, as ``TextLayout/jsonBytes(id:redact:)``
    ///     writes it (an NDJSON record's); nil for none.
    ///   - redact: leave out every word's `text`.
    ///   - write: called with the JSON's bytes in order, in pieces of about 64 KB (one for
    ///     a small layout); their concatenation is the layout's `jsonBytes(id: id, redact:)`.
    /// - Complexity: O(n + s) time for n UTF-8 bytes of text and s UTF-8 bytes under the
    ///   spoiler entities, when the entities come in the order of their offsets (an entity
    ///   that starts before the one before it reads the text again from its start); O(1)
    ///   memory besides the message.
    public func writeJSON(of message: Message, id: [UInt8]? = nil, redact: Bool, pieces write: ([UInt8]) -> Void) {
        var text = message.text
        text.makeContiguousUTF8()
        _ = text.utf8.withContiguousStorageIfAvailable { p in
            switch model {
            case .mono:
                writeJSON(bytes: p, entities: message.entities, id: id, redact: redact, measure: MonoMeasure(), write)
            case .font(let font):
                writeJSON(
                    bytes: p, entities: message.entities, id: id, redact: redact, measure: FontMeasure(font: font),
                    write)
            }
        }
    }

    private func writeJSON<M: GraphemeMeasure>(
        bytes p: UnsafeBufferPointer<UInt8>, entities: [Entity], id: [UInt8]?, redact: Bool, measure: M,
        _ write: ([UInt8]) -> Void
    ) {
        let n = min(p.count, Int(Int32.max))
        GraphemeScanner.BMPInfo.table.withUnsafeBufferPointer { table in
            // The size comes first in the JSON: one pass for it, which keeps the lines if
            // they are few.
            let keptLines = 1 << 16
            var lineCount = 0
            var maxUnits: Int32 = 0
            var lines: [LineExtent] = []
            var metrics = self.metrics
            metrics.fallbacks = forEachLine(p, count: n, measure: measure, table: table) { extent in
                if lineCount < keptLines { lines.append(extent) } else if lineCount == keptLines { lines = [] }
                lineCount += 1
                maxUnits = max(maxUnits, extent.width)
            }
            let (scale, isMono) = unitScale
            let lineHeight = metrics.lineHeight
            var out = JSONPieces()
            out.append(bound: TextLayout.headBound(metrics: metrics, idCount: id?.count ?? 0) + 16, write) { c in
                func head(_ id: UnsafeBufferPointer<UInt8>?) {
                    TextLayout.writeHead(
                        metrics: metrics, width: Int(maxUnits) * scale, height: lineCount * lineHeight,
                        columns: isMono ? Int(maxUnits) : nil, rows: isMono ? lineCount : nil, id: id, to: &c)
                }
                if let id { id.withUnsafeBufferPointer { head($0) } } else { head(nil) }
                c.literal(#","lines":["#)
            }
            var index = 0
            func writeLine(_ extent: LineExtent) {
                let line = LayoutLine(
                    index: index, y: index * lineHeight, height: lineHeight, width: Int(extent.width) * scale,
                    utf16Offset: Int(extent.utf16Start), utf16Length: Int(extent.utf16End - extent.utf16Start))
                out.append(bound: 200, write) { c in TextLayout.write(line, first: index == 0, to: &c) }
                index += 1
            }
            if lineCount <= keptLines {
                for extent in lines { writeLine(extent) }
            } else {
                _ = forEachLine(p, count: n, measure: measure, table: table, writeLine)
            }
            out.append(#"],"words":["#, write)
            var first = true
            forEachWordFragment(p, count: n, entities: entities, measure: measure, table: table) { word, text in
                out.append(bound: TextLayout.fieldsBound, write) { c in
                    TextLayout.writeFields(of: word, first: first, to: &c)
                }
                first = false
                if !redact {
                    out.append(#","text":""#, write)
                    out.appendEscaped(text, write)
                    out.append("\"", write)
                }
                out.append("}", write)
            }
            out.append("]}", write)
            out.flush(write)
        }
    }

    /// Calls `body` with each word box of `entities`' spoilers over the first `n` bytes of
    /// the valid UTF-8 `p`, in the order of ``forEachWordBox(_:placements:entities:_:)``,
    /// with an empty `text` and the UTF-8 of its text apart; the placements are made as they
    /// are needed (``PlacementStream``) and not kept.
    ///
    /// An entity is read from a copy of a stream brought to its start, so that entities
    /// that overlap read their text each. `table` is `GraphemeScanner.BMPInfo.table`.
    func forEachWordFragment<M: GraphemeMeasure>(
        _ p: UnsafeBufferPointer<UInt8>, count n: Int, entities: [Entity], measure: M,
        table: UnsafeBufferPointer<UInt8>, _ body: (WordBox, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        let lineHeight = metrics.lineHeight
        let (scale, isMono) = unitScale
        let start = PlacementStream(p, count: n, wrap: wrapWidth, measure: measure, table: table)
        // `lead` stands at or before the next entity's start; `done` where the last one ended.
        var lead = start
        var done = start
        for (entityIndex, entity) in entities.enumerated() where entity.type == .spoiler {
            guard entity.length > 0, entity.offset < Int(Int32.max) else { continue }
            let entityStart = Int32(max(0, entity.offset))
            let entityEnd = Int32(clamping: entity.offset + entity.length)
            if done.position <= entityStart {
                lead = done
            } else if lead.position > entityStart {
                lead = start
            }
            // The first placement that ends after the entity's start.
            while let q = lead.peek(), q.utf16End <= entityStart { _ = lead.next() }
            var stream = lead
            var fragments = WordFragments(entity: entityIndex, scale: scale, lineHeight: lineHeight, isMono: isMono)
            while true {
                let q = stream.peek().flatMap { $0.utf16Start < entityEnd ? $0 : nil }
                if fragments.closes(q) {
                    let (box, utf8) = fragments.close(endsWord: q == nil || q!.kind.isWhitespace)
                    body(box, UnsafeBufferPointer(rebasing: p[utf8]))
                }
                guard let q else { break }
                fragments.add(q)
                _ = stream.next()
            }
            done = stream
        }
    }
}
