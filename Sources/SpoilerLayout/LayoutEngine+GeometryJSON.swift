public import SpoilerCore

extension LayoutEngine {
    /// Appends to `out` the geometry JSON of a message given as the UTF-8 bytes of its text
    /// and its entities: the bytes of
    /// `layout(utf8: text, entities: entities, includeGraphemes: false).jsonBytes(id: id, redact: redact)`,
    /// for a line filter (`spoiler layout --ndjson`).
    ///
    /// In the `mono` model without wrapping, for texts of up to 64 KiB whose spoilers do
    /// not overlap (those of plain markup never do), the geometry is worked out as the
    /// graphemes go by and written straight into `out`, with no ``TextLayout``, no placed
    /// graphemes and no strings; any other message is laid out the general way.
    ///
    /// ```swift
    /// var out = JSONOutputBuffer()
    /// let text = Array("hi there".utf8)
    /// text.withUnsafeBufferPointer { text in
    ///     LayoutEngine().appendGeometryJSON(
    ///         utf8: text, entities: [Entity(.spoiler, offset: 3, length: 5)], id: nil, redact: false, to: &out)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text, valid UTF-8 (the caller vouches for it).
    ///   - entities: Its entities, offsets in UTF-16 code units, in canonical order.
    ///   - id: The record's id as raw JSON, written first, or nil to leave the key out.
    ///   - redact: Leave out every word's `text`.
    ///   - out: Where the JSON object is appended (without a newline).
    public func appendGeometryJSON(
        utf8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?, redact: Bool,
        to out: inout JSONOutputBuffer
    ) {
        if appendStreamedGeometry(utf8: text, entities: entities, id: id, redact: redact, to: &out) { return }
        appendLaidOutGeometryJSON(utf8: text, entities: entities, id: id, redact: redact, to: &out)
    }

    /// The general way of ``appendGeometryJSON(utf8:entities:id:redact:to:)``, for a message
    /// the stream did not take: a whole ``TextLayout`` and its JSON.
    private func appendLaidOutGeometryJSON(
        utf8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?, redact: Bool,
        to out: inout JSONOutputBuffer
    ) {
        let bytes = layout(bytes: text, entities: entities, includeGraphemes: false).jsonBytes(
            id: id.map { Array($0) }, redact: redact)
        bytes.withUnsafeBufferPointer { out.append($0) }
    }

    /// Appends to `out` the geometry JSON of a message as
    /// ``appendGeometryJSON(utf8:entities:id:redact:to:)`` does, for a text whose UTF-8 the
    /// caller has not checked: the check is made as the layout reads the text (the stream
    /// of word boxes checks each scalar it takes, and the rest of the text before its
    /// general grapheme scanner first reads it), so that a line filter need not read the
    /// text once more for it. Returns false, with nothing written, when the text is not
    /// valid UTF-8.
    ///
    /// ```swift
    /// var out = JSONOutputBuffer()
    /// let text: [UInt8] = [0x68, 0x69, 0x20, 0xC3]  // "hi " and a lead byte with nothing after it
    /// let written = text.withUnsafeBufferPointer { text in
    ///     LayoutEngine().appendGeometryJSON(uncheckedUTF8: text, entities: [], id: nil, redact: false, to: &out)
    /// }
    /// // written == false, out.count == 0
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text, UTF-8 or not.
    ///   - entities: Its entities, offsets in UTF-16 code units, in canonical order.
    ///   - id: The record's id as raw JSON, written first, or nil to leave the key out.
    ///   - redact: Leave out every word's `text`.
    ///   - out: Where the JSON object is appended (without a newline).
    /// - Returns: Whether the text was valid UTF-8 and its geometry written.
    public func appendGeometryJSON(
        uncheckedUTF8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?,
        redact: Bool, to out: inout JSONOutputBuffer
    ) -> Bool {
        switch streamGeometry(utf8: text, entities: entities, id: id, redact: redact, checkingUTF8: true, to: &out) {
        case .written: return true
        case .invalidUTF8: return false
        case .notStreamed:
            guard UTF8Validation.firstInvalidOffset(in: text) == nil else { return false }
            appendLaidOutGeometryJSON(utf8: text, entities: entities, id: id, redact: redact, to: &out)
            return true
        }
    }

    /// The fast path of ``appendGeometryJSON(utf8:entities:id:redact:to:)`` alone: the
    /// geometry worked out as the graphemes go by, if the engine and the message meet its
    /// conditions (the `mono` model without wrapping, a text of up to 64 KiB, spoilers in
    /// order without overlapping, at most 32 lines, a grapheme in at most 4 spoilers);
    /// false, with nothing written, when they do not. Where it writes, it writes what the
    /// general layout writes; tests compare the two.
    ///
    /// - Parameters: As ``appendGeometryJSON(utf8:entities:id:redact:to:)``.
    /// - Returns: Whether the geometry was written.
    public func appendStreamedGeometry(
        utf8 p: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?, redact: Bool,
        to out: inout JSONOutputBuffer
    ) -> Bool {
        streamGeometry(utf8: p, entities: entities, id: id, redact: redact, checkingUTF8: false, to: &out) == .written
    }

    /// What ``streamGeometry(utf8:entities:id:redact:checkingUTF8:to:)`` did.
    enum StreamedGeometry {
        /// The geometry was written.
        case written
        /// The engine or the message does not meet the stream's conditions: nothing was
        /// written.
        case notStreamed
        /// The text is not valid UTF-8: nothing was written.
        case invalidUTF8
    }

    /// ``appendStreamedGeometry(utf8:entities:id:redact:to:)``, with the text's UTF-8
    /// checked as it is read when `checkingUTF8` is set (``MonoGeometryStream/checksUTF8``).
    /// Without it, a text found not to be valid UTF-8 is left to the general layout, as
    /// any other the stream does not take.
    func streamGeometry(
        utf8 p: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?, redact: Bool,
        checkingUTF8: Bool, to out: inout JSONOutputBuffer
    ) -> StreamedGeometry {
        entities.withUnsafeBufferPointer { entities in
            streamGeometry(utf8: p, entities: entities, id: id, redact: redact, checkingUTF8: checkingUTF8, to: &out)
        }
    }

    /// ``streamGeometry(utf8:entities:id:redact:checkingUTF8:to:)`` with the entities read
    /// where they are.
    @inline(__always)
    private func streamGeometry(
        utf8 p: UnsafeBufferPointer<UInt8>, entities: UnsafeBufferPointer<Entity>, id: UnsafeBufferPointer<UInt8>?,
        redact: Bool, checkingUTF8: Bool, to out: inout JSONOutputBuffer
    ) -> StreamedGeometry {
        guard case .mono(let cellWidth, let cellHeight) = model, wrapWidth == nil, p.count <= 1 << 16,
            cellWidth <= 1 << 20, cellHeight <= 1 << 20, let textBase = p.baseAddress ?? UnsafePointer(bitPattern: 1)
        else { return .notStreamed }
        // The spoilers must come in order without overlapping; each word has at least one
        // UTF-16 unit of its entity, and a grapheme is in at most `maxActive` entities.
        // Their spans are kept for the stream, which meets them in this order.
        return withUnsafeTemporaryAllocation(of: SpoilerSpan.self, capacity: max(1, entities.count)) { spanRoom in
            var spanCount = 0
            var lastEnd = Int32.min
            var spoilerUnits = 0
            for k in entities.indices {
                guard let (start, end) = MonoGeometryStream.span(of: entities[k]) else { continue }
                guard start >= lastEnd else { return .notStreamed }
                lastEnd = end
                spoilerUnits += min(Int(end - start), p.count)
                spanRoom[spanCount] = SpoilerSpan(entity: Int32(truncatingIfNeeded: k), start: start, end: end)
                spanCount += 1
            }
            let spans = UnsafeBufferPointer(rebasing: spanRoom[0..<spanCount])
            return streamGeometry(
                utf8: p, text: textBase, spans: spans, spoilerUnits: spoilerUnits, cellWidth: cellWidth,
                cellHeight: cellHeight, id: id, redact: redact, checkingUTF8: checkingUTF8, to: &out)
        }
    }

    /// ``streamGeometry(utf8:entities:id:redact:checkingUTF8:to:)`` once the spoilers are
    /// known to come in order: the stream over the text, its words written after room for
    /// the head, then the head, the words moved up to it and the end.
    @inline(__always)
    private func streamGeometry(
        utf8 p: UnsafeBufferPointer<UInt8>, text textBase: UnsafePointer<UInt8>,
        spans: UnsafeBufferPointer<SpoilerSpan>, spoilerUnits: Int, cellWidth: Int, cellHeight: Int,
        id: UnsafeBufferPointer<UInt8>?, redact: Bool,
        checkingUTF8: Bool, to out: inout JSONOutputBuffer
    ) -> StreamedGeometry {
        let n = p.count
        let maxWords = min(spoilerUnits, MonoGeometryStream.maxActive * n)
        let wordsBound = maxWords * MonoGeometryStream.wordBound + 6 * MonoGeometryStream.maxActive * n + 8
        let headBound = 600 + (id?.count ?? 0) + MonoGeometryStream.maxLines * MonoGeometryStream.lineBound
        var result = StreamedGeometry.written
        withUnsafeTemporaryAllocation(of: LineExtent.self, capacity: MonoGeometryStream.maxLines) { lineSlots in
            out.write(bound: headBound + wordsBound) { room in
                let base = room.baseAddress!
                let wordsRoom = UnsafeMutableBufferPointer(start: base + headBound, count: wordsBound)
                let tables = StreamTables.shared
                var stream = MonoGeometryStream(
                    text: textBase, count: n, spans: spans, scale: cellWidth, lineHeight: cellHeight,
                    redact: redact, words: JSONByteCursor(room: wordsRoom), lines: lineSlots.baseAddress!,
                    checksUTF8: checkingUTF8, tables: tables)
                let end = LayoutEngine.forEachGrapheme(
                    p, count: n, measure: MonoMeasure(), table: tables.graphemeInfo, into: &stream)
                if !stream.invalidUTF8 { stream.finish(end: end) }
                guard !stream.failed else {
                    result = checkingUTF8 && stream.invalidUTF8 ? .invalidUTF8 : .notStreamed
                    return 0
                }
                let wordsCount = (base + headBound).distance(to: stream.words.position)
                let kept = UnsafeBufferPointer(start: stream.lines, count: stream.lineCount)
                let headCount = JSONByteCursor.write(into: UnsafeMutableBufferPointer(start: base, count: headBound)) {
                    c in
                    LayoutEngine.writeHead(lines: kept, scale: stream.scale, cellHeight: cellHeight, id: id, to: &c)
                }
                // The words follow the head.
                UnsafeMutableRawPointer(base + headCount).copyMemory(from: base + headBound, byteCount: wordsCount)
                return JSONByteCursor.write(
                    into: UnsafeMutableBufferPointer(start: base + headCount + wordsCount, count: 2)
                ) { c in c.literal("]}") } + headCount + wordsCount
            }
        }
        return result
    }

    /// Writes what comes before the words, as ``TextLayout/jsonBytes(id:redact:)`` writes it
    /// (``TextLayout/writeHead(metrics:width:height:columns:rows:id:to:)`` and
    /// ``TextLayout/write(_:first:to:)`` for a layout of the `mono` model): the id, the
    /// metrics (``metrics`` of the `mono` model with cells `scale` × `cellHeight` pixels),
    /// the size, `lines`, and `"words":[`, through ``TextLayout``'s own writers of the head
    /// and the lines, in a ``RawJSON`` with one check of the room.
    private static func writeHead(
        lines: UnsafeBufferPointer<LineExtent>, scale: Int, cellHeight: Int, id: UnsafeBufferPointer<UInt8>?,
        to c: inout JSONByteCursor
    ) {
        var maxUnits = 0
        for line in lines { maxUnits = max(maxUnits, Int(line.width)) }
        let lineCount = lines.count
        let lineHeight = cellHeight
        let ascent = LayoutEngine.monoAscent(cellHeight: cellHeight)
        // The stream lays out the mono model only: no font, no fallbacks.
        c.withRoom(bound: 600 + (id?.count ?? 0) + lineCount * MonoGeometryStream.lineBound) { q in
            var o = RawJSON(p: q)
            if scale == 8 && cellHeight == 16 {
                // The default cells (``LayoutEngine/init(model:wrapWidth:)``): the metrics as
                // one literal and the numbers from ``SmallDecimals``, the bytes the general
                // writers give (tests compare).
                let digits = StreamTables.shared.digits
                // In two literals: each is copied by a few stores in place, where one of
                // 140 bytes went through a call of `memcpy`.
                o.openObject(id: id, firstKey: #""metrics":{"model":"mono","font":null,"cellWidth":8,"#)
                o.literal(#""cellHeight":16,"ascent":12,"descent":4,"lineHeight":16,"fallbacks":0},"width":"#)
                o.decimal(maxUnits &* 8, digits: digits)
                o.literal(#","height":"#)
                o.decimal(lineCount &* 16, digits: digits)
                o.literal(#","columns":"#)
                o.decimal(maxUnits, digits: digits)
                o.literal(#","rows":"#)
                o.decimal(lineCount, digits: digits)
                o.literal(#","lines":["#)
                for k in 0..<lineCount {
                    let line = lines[k]
                    // Two literals, not one chosen at run time: that one went through `memcpy`.
                    if k == 0 { o.literal(#"{"index":"#) } else { o.literal(#",{"index":"#) }
                    o.decimal(k, digits: digits)
                    o.literal(#","y":"#)
                    o.decimal(k &* 16, digits: digits)
                    o.literal(#","height":16,"width":"#)
                    o.decimal(Int(line.width) &* 8, digits: digits)
                    o.literal(#","offset":"#)
                    o.decimal(Int(line.utf16Start), digits: digits)
                    o.literal(#","length":"#)
                    o.decimal(Int(line.utf16End &- line.utf16Start), digits: digits)
                    o.literal("}")
                }
            } else {
                TextLayout.writeHead(
                    model: .mono, fontName: nil, cellWidth: scale, cellHeight: cellHeight, ascent: ascent,
                    descent: cellHeight - ascent, lineHeight: lineHeight, fallbacks: 0, width: maxUnits * scale,
                    height: lineCount * lineHeight, columns: maxUnits, rows: lineCount, id: id, to: &o)
                o.literal(#","lines":["#)
                for k in 0..<lineCount {
                    let line = lines[k]
                    TextLayout.writeLine(
                        index: k, y: k * lineHeight, height: lineHeight, width: Int(line.width) * scale,
                        offset: Int(line.utf16Start), length: Int(line.utf16End - line.utf16Start), first: k == 0,
                        to: &o)
                }
            }
            o.literal(#"],"words":["#)
            return o.p
        }
    }
}
