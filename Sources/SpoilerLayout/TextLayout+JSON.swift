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
    static func writeHead(
        metrics: LayoutMetrics, width: Int, height: Int, columns: Int?, rows: Int?, id: UnsafeBufferPointer<UInt8>?,
        to c: inout JSONByteCursor
    ) {
        if let id {
            c.literal(#"{"id":"#)
            c.raw(id)
            c.literal(#","metrics":{"model":"#)
        } else {
            c.literal(#"{"metrics":{"model":"#)
        }
        c.quoted(metrics.model.rawValue)
        c.literal(#","font":"#)
        if let name = metrics.fontName { c.quoted(name) } else { c.literal("null") }
        c.literal(#","cellWidth":"#)
        c.integer(metrics.cellWidth)
        c.literal(#","cellHeight":"#)
        c.integer(metrics.cellHeight)
        c.literal(#","ascent":"#)
        c.integer(metrics.ascent)
        c.literal(#","descent":"#)
        c.integer(metrics.descent)
        c.literal(#","lineHeight":"#)
        c.integer(metrics.lineHeight)
        c.literal(#","fallbacks":"#)
        c.integer(metrics.fallbacks)
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
        if !first { c.literal(",") }
        c.literal(#"{"index":"#)
        c.integer(line.index)
        c.literal(#","y":"#)
        c.integer(line.y)
        c.literal(#","height":"#)
        c.integer(line.height)
        c.literal(#","width":"#)
        c.integer(line.width)
        c.literal(#","offset":"#)
        c.integer(line.utf16Offset)
        c.literal(#","length":"#)
        c.integer(line.utf16Length)
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
