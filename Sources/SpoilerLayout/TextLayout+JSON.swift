public import SpoilerCore

extension TextLayout {
    /// Writes the geometry JSON of DESIGN.md §3: `id` (when given), `metrics`, `width`, `height`,
    /// `columns` and `rows` (mono only), `lines`, `words`.
    ///
    /// Keys come in a fixed order and numbers are integers, so the output is byte-identical
    /// run after run. Each word also carries `text` unless `redact` is set: redacted output
    /// holds no character of any hidden word (DESIGN.md §9, "hidden means absent").
    ///
    /// - Parameters:
    ///   - writer: where the object is written.
    ///   - id: the record's id as raw JSON (NDJSON runs), or nil to leave the key out.
    ///   - redact: leave out every word's `text`.
    public func writeJSON(to writer: inout JSONWriter, id: [UInt8]? = nil, redact: Bool = false) {
        writer.raw(jsonBytes(id: id, redact: redact))
    }

    /// The geometry JSON of ``writeJSON(to:id:redact:)`` as bytes.
    ///
    /// They are written straight through a ``JSONByteCursor`` into one array of the right
    /// size: fixed keys as literals, numbers and strings in ``JSONWriter``'s formats.
    public func jsonBytes(id: [UInt8]? = nil, redact: Bool = false) -> [UInt8] {
        var bound = headBound(id: id) + 200 * lines.count
        for k in words.indices { bound += wordBound(k) }
        return JSONByteCursor.bytes(capacity: bound) { c in write(to: &c, id: id, redact: redact) }
    }

    private func write(to c: inout JSONByteCursor, id: [UInt8]?, redact: Bool) {
        writeHead(to: &c, id: id)
        c.literal(#","lines":["#)
        for k in lines.indices { writeLine(k, to: &c) }
        c.literal(#"],"words":["#)
        for k in words.indices { writeWord(k, to: &c, redact: redact) }
        c.literal("]}")
    }

    /// The room ``writeHead(to:id:)`` may take.
    func headBound(id: [UInt8]?) -> Int { Self.headBound(metrics: metrics, idCount: id?.count ?? 0) }

    /// The room ``writeHead(metrics:width:height:columns:rows:id:to:)`` may take with an id
    /// of `idCount` bytes.
    static func headBound(metrics: LayoutMetrics, idCount: Int) -> Int {
        512 + idCount + 6 * (metrics.fontName?.utf8.count ?? 0)
    }

    /// The room ``writeWord(_:to:redact:)`` may take for word `k` (a line takes 200).
    func wordBound(_ k: Int) -> Int { Self.bound(of: words[k]) }

    /// Writes the object's start, everything before `,"lines":[`.
    func writeHead(to c: inout JSONByteCursor, id: [UInt8]?) {
        guard let id else {
            Self.writeHead(
                metrics: metrics, width: width, height: height, columns: columns, rows: rows, id: nil, to: &c)
            return
        }
        id.withUnsafeBufferPointer {
            Self.writeHead(metrics: metrics, width: width, height: height, columns: columns, rows: rows, id: $0, to: &c)
        }
    }

    /// Writes the start of a layout's object, everything before `,"lines":[`: the `id`
    /// (raw JSON, when given), the `metrics`, the size in pixels, and `columns` and `rows`
    /// when both are given (mono).
    ///
    /// Generic over the writer: ``jsonBytes(id:redact:)`` writes through a
    /// ``JSONByteCursor``, the streamed geometry
    /// (``LayoutEngine/appendStreamedGeometry(utf8:entities:id:redact:to:)``) through a
    /// ``RawJSON`` in room it checked once; at most ``headBound(metrics:idCount:)`` bytes.
    static func writeHead(
        metrics: LayoutMetrics, width: Int, height: Int, columns: Int?, rows: Int?, id: UnsafeBufferPointer<UInt8>?,
        to c: inout JSONByteCursor
    ) {
        writeHead(
            model: metrics.model, fontName: metrics.fontName, cellWidth: metrics.cellWidth,
            cellHeight: metrics.cellHeight, ascent: metrics.ascent, descent: metrics.descent,
            lineHeight: metrics.lineHeight, fallbacks: metrics.fallbacks, width: width, height: height,
            columns: columns, rows: rows, id: id, to: &c)
    }

    /// Writes the head of ``writeHead(metrics:width:height:columns:rows:id:to:)`` with the
    /// metrics given field by field (those of ``LayoutMetrics``), so that a caller with no
    /// ``LayoutMetrics`` at hand makes none.
    @inline(__always)
    static func writeHead<W: JSONBytesWriting>(
        model: MetricModel, fontName: String?, cellWidth: Int, cellHeight: Int, ascent: Int, descent: Int,
        lineHeight: Int, fallbacks: Int, width: Int, height: Int, columns: Int?, rows: Int?,
        id: UnsafeBufferPointer<UInt8>?, to c: inout W
    ) {
        c.openObject(id: id, firstKey: #""metrics":{"model":"#)
        if let fontName {
            model.writeName(to: &c)
            c.literal(#","font":"#)
            c.quoted(fontName)
        } else if model == .mono {
            // The model of every streamed layout, with no font: one literal.
            c.literal(#""mono","font":null"#)
        } else {
            model.writeName(to: &c)
            c.literal(#","font":null"#)
        }
        c.literal(#","cellWidth":"#)
        c.integer(cellWidth)
        c.literal(#","cellHeight":"#)
        c.integer(cellHeight)
        c.literal(#","ascent":"#)
        c.integer(ascent)
        c.literal(#","descent":"#)
        c.integer(descent)
        c.literal(#","lineHeight":"#)
        c.integer(lineHeight)
        c.literal(#","fallbacks":"#)
        c.integer(fallbacks)
        c.literal(#"},"width":"#)
        c.integer(width)
        c.literal(#","height":"#)
        c.integer(height)
        if let columns, let rows {
            c.literal(#","columns":"#)
            c.integer(columns)
            c.literal(#","rows":"#)
            c.integer(rows)
        }
    }

    /// Writes line `k`, after a comma unless it is the first.
    func writeLine(_ k: Int, to c: inout JSONByteCursor) {
        Self.write(lines[k], first: k == 0, to: &c)
    }

    /// Writes `line`'s object, after a comma unless it is the `first`; at most 200 bytes.
    static func write(_ line: LayoutLine, first: Bool, to c: inout JSONByteCursor) {
        writeLine(
            index: line.index, y: line.y, height: line.height, width: line.width, offset: line.utf16Offset,
            length: line.utf16Length, first: first, to: &c)
    }

    /// Writes a line's object from its fields (those of ``LayoutLine``), after a comma
    /// unless it is the `first`; at most 200 bytes. Generic over the writer, as
    /// ``writeHead(metrics:width:height:columns:rows:id:to:)`` is.
    @inline(__always)
    static func writeLine<W: JSONBytesWriting>(
        index: Int, y: Int, height: Int, width: Int, offset: Int, length: Int, first: Bool, to c: inout W
    ) {
        if !first { c.literal(",") }
        c.literal(#"{"index":"#)
        c.integer(index)
        c.literal(#","y":"#)
        c.integer(y)
        c.literal(#","height":"#)
        c.integer(height)
        c.literal(#","width":"#)
        c.integer(width)
        c.literal(#","offset":"#)
        c.integer(offset)
        c.literal(#","length":"#)
        c.integer(length)
        c.literal("}")
    }

    /// Writes word `k`, after a comma unless it is the first.
    func writeWord(_ k: Int, to c: inout JSONByteCursor, redact: Bool) {
        Self.write(words[k], first: k == 0, to: &c, redact: redact)
    }

    /// The room ``write(_:first:to:redact:)`` may take for `word`.
    static func bound(of word: WordBox) -> Int { fieldsBound + 6 * word.text.utf8.count }

    /// The room ``writeFields(of:first:to:)`` may take.
    static let fieldsBound = 480

    /// Writes `word`'s object, after a comma unless it is the `first`.
    static func write(_ word: WordBox, first: Bool, to c: inout JSONByteCursor, redact: Bool) {
        writeFields(of: word, first: first, to: &c)
        if !redact {
            c.literal(#","text":"#)
            c.quoted(word.text)
        }
        c.literal("}")
    }

    /// Writes `word`'s object but for its `text` and closing brace, after a comma unless it
    /// is the `first`; at most ``fieldsBound`` bytes.
    static func writeFields(of word: WordBox, first: Bool, to c: inout JSONByteCursor) {
        if !first { c.literal(",") }
        c.literal(#"{"entity":"#)
        c.integer(word.entity)
        c.literal(#","word":"#)
        c.integer(word.word)
        c.literal(#","line":"#)
        c.integer(word.line)
        c.literal(#","x":"#)
        c.number(word.rect.x)
        c.literal(#","y":"#)
        c.number(word.rect.y)
        c.literal(#","width":"#)
        c.number(word.rect.width)
        c.literal(#","height":"#)
        c.number(word.rect.height)
        if let column = word.column, let columns = word.columns {
            c.literal(#","column":"#)
            c.integer(column)
            c.literal(#","columns":"#)
            c.integer(columns)
        }
        c.literal(#","offset":"#)
        c.integer(word.utf16Offset)
        c.literal(#","length":"#)
        c.integer(word.utf16Length)
        c.literal(#","graphemes":"#)
        c.integer(word.graphemes)
    }
}

extension MetricModel {
    /// Writes the model's name as a JSON string: the bytes of `quoted(rawValue)`, each
    /// name a literal.
    @inline(__always)
    func writeName<W: JSONBytesWriting>(to c: inout W) {
        switch self {
        case .mono: c.literal(#""mono""#)
        case .bdf: c.literal(#""bdf""#)
        case .psf: c.literal(#""psf""#)
        case .hex: c.literal(#""hex""#)
        }
    }
}
