public import SpoilerCore

extension NDJSONRecord {
    /// Reads the common kind of NDJSON line straight from its bytes, building no ``Message``
    /// and no JSON tree: a JSON string, or an object of just `text` and optionally `id`
    /// (a number, or a string of printable ASCII), in `plain` markup without
    /// ``ParseOptions/spoilerReasons``. The message's text (UTF-8) and entities go to `body`,
    /// with the line's `id` as raw JSON (nil when it gave none).
    ///
    /// For any other line — another format or option, other members, a `\u` escape of a
    /// surrogate, invalid UTF-8, a syntax error, a blank line — it returns nil without
    /// calling `body`, and ``init(line:format:options:)`` reads the line as before. A line
    /// read here gives what that initialiser gives: the same text, entities and id.
    ///
    /// ```swift
    /// let line = Array(#"{"id":7,"text":"hi ||there||"}"#.utf8)
    /// let n = line.withUnsafeBufferPointer { line in
    ///     NDJSONRecord.withPlainMessage(line: line, format: .plain) { text, entities, id in entities.count }
    /// }
    /// // n == 1
    /// ```
    ///
    /// - Parameters:
    ///   - line: One line without its `\n`.
    ///   - format: The input format; only `plain` is read here.
    ///   - options: How messages are read; only the defaults are read here.
    ///   - body: Called once with the text, its entities (UTF-16 offsets, canonical order)
    ///     and the id, all valid only during the call.
    /// - Returns: `body`'s result, or nil when the line is not of the common kind.
    /// - Complexity: O(n) in the line's bytes, a few passes.
    public static func withPlainMessage<R>(
        line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions = ParseOptions(),
        _ body: (_ text: UnsafeBufferPointer<UInt8>, _ entities: [Entity], _ id: UnsafeBufferPointer<UInt8>?) -> R
    ) -> R? {
        var buffers = NDJSONLineBuffers()
        return withPlainMessage(line: line, format: format, options: options, buffers: &buffers, body)
    }

    /// Reads the common kind of NDJSON line as ``withPlainMessage(line:format:options:_:)``
    /// does, into `buffers` reused from line to line, so that a line costs no allocation
    /// once the buffers have grown to the longest line.
    ///
    /// - Parameters:
    ///   - line: One line without its `\n`.
    ///   - format: The input format; only `plain` is read here.
    ///   - options: How messages are read; only the defaults are read here.
    ///   - buffers: Room for the decoded text, the parsed text and the entities.
    ///   - body: Called once with the text, its entities (UTF-16 offsets, canonical order)
    ///     and the id, all valid only during the call.
    /// - Returns: `body`'s result, or nil when the line is not of the common kind.
    public static func withPlainMessage<R>(
        line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions = ParseOptions(),
        buffers: inout NDJSONLineBuffers,
        _ body: (_ text: UnsafeBufferPointer<UInt8>, _ entities: [Entity], _ id: UnsafeBufferPointer<UInt8>?) -> R
    ) -> R? {
        guard format == .plain, !options.spoilerReasons, line.baseAddress != nil else { return nil }
        switch onePassMessage(line: line, buffers: &buffers, body) {
        case .read(let result): return result
        case .notCommon: return nil
        case .needsPasses: return passesMessage(line: line, buffers: &buffers, body)
        }
    }

    /// Reads a common line as ``withPlainMessage(line:format:options:buffers:_:)`` does, in
    /// the passes of old: the line read by ``PlainLineReader`` (its UTF-8 checked), the
    /// text's escapes decoded, then its markup read.
    private static func passesMessage<R>(
        line: UnsafeBufferPointer<UInt8>, buffers: inout NDJSONLineBuffers,
        _ body: (UnsafeBufferPointer<UInt8>, [Entity], UnsafeBufferPointer<UInt8>?) -> R
    ) -> R? {
        guard let base = line.baseAddress else { return nil }
        var reader = PlainLineReader(base: base, count: line.count)
        guard let shape = reader.read() else { return nil }
        let raw = UnsafeBufferPointer(start: base + shape.text.lowerBound, count: shape.text.count)
        let id = shape.id.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) }
        if shape.textHasEscapes {
            var decoded: [UInt8] = []
            swap(&decoded, &buffers.decoded)
            defer { swap(&decoded, &buffers.decoded) }
            decoded.removeAll(keepingCapacity: true)
            guard PlainLineReader.unescape(raw, into: &decoded) else { return nil }
            return decoded.withUnsafeBufferPointer { plainMessage($0, id: id, buffers: &buffers, body) }
        }
        return plainMessage(raw, id: id, buffers: &buffers, body)
    }

    /// Reads the common kind of NDJSON line as
    /// ``withPlainMessage(line:format:options:buffers:_:)`` does, for a `body` that returns
    /// nothing: the same call without a generic result, which a caller in another module
    /// would otherwise pay for with a look-up of type metadata on every line.
    ///
    /// ```swift
    /// var buffers = NDJSONLineBuffers()
    /// let line = Array(#""hi ||there||""#.utf8)
    /// let read = line.withUnsafeBufferPointer { line in
    ///     NDJSONRecord.readPlainMessage(line: line, format: .plain, buffers: &buffers) { text, entities, id in }
    /// }
    /// // read == true
    /// ```
    ///
    /// - Parameters: As ``withPlainMessage(line:format:options:buffers:_:)``.
    /// - Returns: Whether the line was of the common kind (and `body` was called).
    public static func readPlainMessage(
        line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions = ParseOptions(),
        buffers: inout NDJSONLineBuffers,
        _ body: (_ text: UnsafeBufferPointer<UInt8>, _ entities: [Entity], _ id: UnsafeBufferPointer<UInt8>?) -> Void
    ) -> Bool {
        withPlainMessage(line: line, format: format, options: options, buffers: &buffers, body) != nil
    }

    /// Reads the common kind of NDJSON line as
    /// ``readPlainMessage(line:format:options:buffers:_:)`` does, but leaves the check of
    /// the text's UTF-8 to `body` where it can, for a body that reads every byte of the text
    /// anyway (a layout): `body` may be given a text that is not valid UTF-8, exactly when
    /// the line's string is not, and then returns false without using it. The line is then
    /// read again with the check, as ``readPlainMessage(line:format:options:buffers:_:)``
    /// reads it: a line whose string is not valid UTF-8 is not of the common kind, and
    /// `body` is called again only for one that is (and must return true for it).
    ///
    /// ```swift
    /// var buffers = NDJSONLineBuffers()
    /// let line: [UInt8] = Array(#""hi ||"#.utf8) + [0xC3] + Array(#"||""#.utf8)
    /// let read = line.withUnsafeBufferPointer { line in
    ///     NDJSONRecord.readPlainMessage(line: line, format: .plain, buffers: &buffers, uncheckedUTF8: { text, _, _ in
    ///         UTF8Validation.firstInvalidOffset(in: text) == nil
    ///     })
    /// }
    /// // read == false: the line is read the general way, which reports the bad byte
    /// ```
    ///
    /// - Parameters:
    ///   - line: One line without its `\n`.
    ///   - format: The input format; only `plain` is read here.
    ///   - options: How messages are read; only the defaults are read here.
    ///   - buffers: Room for the decoded text, the parsed text and the entities.
    ///   - body: Called with the text, its entities (UTF-16 offsets, canonical order) and
    ///     the id, all valid only during the call; returns whether the text was valid
    ///     UTF-8 (and used).
    /// - Returns: Whether the line was of the common kind and `body` returned true.
    public static func readPlainMessage(
        line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions = ParseOptions(),
        buffers: inout NDJSONLineBuffers,
        uncheckedUTF8 body: (
            _ text: UnsafeBufferPointer<UInt8>, _ entities: [Entity], _ id: UnsafeBufferPointer<UInt8>?
        )
            -> Bool
    ) -> Bool {
        guard format == .plain, !options.spoilerReasons, line.baseAddress != nil else { return false }
        switch onePassMessage(line: line, buffers: &buffers, checkingUTF8: false, body) {
        case .read(true): return true
        case .notCommon: return false
        case .needsPasses: return passesMessage(line: line, buffers: &buffers, body) == true
        case .read(false):
            return withPlainMessage(line: line, format: format, options: options, buffers: &buffers, body) == true
        }
    }

    /// What ``onePassMessage(line:buffers:checkingUTF8:_:)`` did.
    private enum OnePass<R> {
        /// The line was read, and this is `body`'s result.
        case read(R)
        /// The line is not of the common kind.
        case notCommon
        /// The text has what the one pass does not read (a `\u` escape, or an error the
        /// full reader words): the passes of old read it.
        case needsPasses
    }

    /// Reads a common line as ``withPlainMessage(line:format:options:buffers:_:)`` does,
    /// the text in one pass from the line's raw bytes (``PlainScanner``'s `scanJSON`,
    /// decoding): its UTF-8 checked, its escapes decoded and its markup taken out at once.
    private static func onePassMessage<R>(
        line: UnsafeBufferPointer<UInt8>, buffers: inout NDJSONLineBuffers, checkingUTF8: Bool = true,
        _ body: (UnsafeBufferPointer<UInt8>, [Entity], UnsafeBufferPointer<UInt8>?) -> R
    ) -> OnePass<R> {
        // The text is never longer than the rest of the line; eight more for whole words.
        buffers.withTextRoom(line.count + 8) { out, entities in
            onePassMessage(line: line, out: &out, entities: &entities, checkingUTF8: checkingUTF8, body)
        }
    }

    /// ``onePassMessage(line:buffers:checkingUTF8:_:)`` with its room taken out of the buffers.
    @inline(__always)
    private static func onePassMessage<R>(
        line: UnsafeBufferPointer<UInt8>, out: inout [UInt8], entities: inout [Entity], checkingUTF8: Bool,
        _ body: (UnsafeBufferPointer<UInt8>, [Entity], UnsafeBufferPointer<UInt8>?) -> R
    ) -> OnePass<R> {
        let base = line.baseAddress!
        var textCount = 0
        // The two usual shapes first, without the reader (as ``appendPlainJSON`` does).
        if let (textStart, hasID) = PlainLineReader.quickStart(line) {
            let scanned = scanText(line, from: textStart, into: &out, entities: &entities, checkingUTF8: checkingUTF8)
            textCount = scanned.textCount
            guard let end = scanned.end else { return .needsPasses }
            let after = textStart + end + 1
            if after + (hasID ? 1 : 0) == line.count, !hasID || base[after] == UInt8(ascii: "}") {
                // The id lies between `{"id":` and `,"text":"`.
                let id = hasID ? UnsafeBufferPointer(start: base + 6, count: textStart - 15) : nil
                return .read(call(body, text: out, count: textCount, entities: &entities, id: id))
            }
            NDJSONLineBuffers.empty(&entities)
        }
        var reader = PlainLineReader(base: base, count: line.count)
        var scanFailed = false
        let shape = reader.read { reader, _ in
            guard reader.i < reader.count, base[reader.i] == UInt8(ascii: "\"") else { return nil }
            let start = reader.i + 1
            let scanned = scanText(line, from: start, into: &out, entities: &entities, checkingUTF8: checkingUTF8)
            textCount = scanned.textCount
            guard let end = scanned.end else {
                scanFailed = true
                return nil
            }
            reader.i = start + end + 1
            return (start..<(start + end), false)
        }
        guard let shape else { return scanFailed ? .needsPasses : .notCommon }
        let id = shape.id.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) }
        return .read(call(body, text: out, count: textCount, entities: &entities, id: id))
    }

    /// Calls `body` with the first `count` bytes of `text`, `entities` and `id`. The
    /// entities are moved out of their place for the call and back after it: passed from
    /// there, they were retained and released for every line.
    @inline(__always)
    private static func call<R>(
        _ body: (UnsafeBufferPointer<UInt8>, [Entity], UnsafeBufferPointer<UInt8>?) -> R, text: [UInt8], count: Int,
        entities: inout [Entity], id: UnsafeBufferPointer<UInt8>?
    ) -> R {
        let taken = consume entities
        let result = text.withUnsafeBufferPointer { p in
            body(UnsafeBufferPointer(start: p.baseAddress, count: count), taken, id)
        }
        entities = consume taken
        return result
    }

    /// Scans a line's text from its first byte, `start`, into `out` (``PlainScanner``'s
    /// `scanJSON`, decoding), its entities into `entities`: where the text ends from
    /// `start` (nil when the one pass cannot read it) and how many bytes of text it wrote.
    ///
    /// A function of its own, not one nested in
    /// ``onePassMessage(line:out:entities:checkingUTF8:_:)``: a nested one that set a variable of its
    /// caller made every line pay for a dynamic exclusivity check of that variable.
    @inline(__always)
    private static func scanText(
        _ line: UnsafeBufferPointer<UInt8>, from start: Int, into out: inout [UInt8], entities: inout [Entity],
        checkingUTF8: Bool
    ) -> (end: Int?, textCount: Int) {
        let rest = UnsafeBufferPointer(start: line.baseAddress! + start, count: line.count - start)
        return out.withUnsafeMutableBufferPointer { storage in
            var scanner = PlainScanner(output: PlainOutput(storage))
            swap(&scanner.entities, &entities)
            defer { swap(&scanner.entities, &entities) }
            let end = scanner.scanJSON(rest, decoding: true, checkingUTF8: checkingUTF8)
            return (end, scanner.out.count)
        }
    }

    /// Appends to `out` the `parse` output line of a common NDJSON line (the kind
    /// ``withPlainMessage(line:format:options:buffers:_:)`` reads), without its newline:
    /// the bytes ``Message/appendJSON(utf8:entities:id:to:)`` appends for the message that
    /// method gives, with the line's id or else `defaultID`.
    ///
    /// The text is read in one pass from the line's raw bytes into the output: its UTF-8
    /// checked, its escapes decoded, its markup taken out and the
    /// JSON escapes the writer uses put in, with no decoded text and no second pass; the
    /// entities follow. A text with a `\u` escape, and a line that gives its id after its
    /// text, are read the general way instead. Tests compare the two ways on generated lines.
    ///
    /// ```swift
    /// var out = JSONOutputBuffer()
    /// let line = Array(#""a ||b||""#.utf8)
    /// let one = Array("1".utf8)
    /// var buffers = NDJSONLineBuffers()
    /// let ok = line.withUnsafeBufferPointer { line in
    ///     one.withUnsafeBufferPointer { id in
    ///         NDJSONRecord.appendPlainJSON(line: line, format: .plain, buffers: &buffers, defaultID: id, to: &out)
    ///     }
    /// }
    /// // ok; out holds {"id":1,"text":"a b","entities":[{"type":"spoiler","offset":2,"length":1}]}
    /// ```
    ///
    /// - Parameters:
    ///   - line: One line without its `\n`.
    ///   - format: The input format; only `plain` is read here.
    ///   - options: How messages are read; only the defaults are read here.
    ///   - buffers: Room reused from line to line.
    ///   - defaultID: The id, raw JSON, written when the line gives none.
    ///   - out: Where the output line goes.
    /// - Returns: Whether the line was of the common kind and written; when false, nothing
    ///   was written.
    /// - Complexity: O(n) in the line's bytes, one pass.
    public static func appendPlainJSON(
        line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions = ParseOptions(),
        buffers: inout NDJSONLineBuffers, defaultID: UnsafeBufferPointer<UInt8>, to out: inout JSONOutputBuffer
    ) -> Bool {
        appendPlainJSON(line: line, format: format, options: options, buffers: &buffers, id: .raw(defaultID), to: &out)
    }

    /// Appends to `out` the `parse` output line of a common NDJSON line as
    /// ``appendPlainJSON(line:format:options:buffers:defaultID:to:)`` does, with the line's
    /// id or else `lineNumber`: the number is written only for a line that gives no id of
    /// its own.
    ///
    /// ```swift
    /// var out = JSONOutputBuffer()
    /// var buffers = NDJSONLineBuffers()
    /// let line = Array(#""a ||b||""#.utf8)
    /// let ok = line.withUnsafeBufferPointer { line in
    ///     NDJSONRecord.appendPlainJSON(line: line, format: .plain, buffers: &buffers, lineNumber: 1, to: &out)
    /// }
    /// // ok; out holds {"id":1,"text":"a b","entities":[{"type":"spoiler","offset":2,"length":1}]}
    /// ```
    ///
    /// - Parameters:
    ///   - line: One line without its `\n`.
    ///   - format: The input format; only `plain` is read here.
    ///   - options: How messages are read; only the defaults are read here.
    ///   - buffers: Room reused from line to line.
    ///   - lineNumber: The id written when the line gives none.
    ///   - out: Where the output line goes.
    /// - Returns: Whether the line was of the common kind and written; when false, nothing
    ///   was written.
    /// - Complexity: O(n) in the line's bytes, one pass.
    public static func appendPlainJSON(
        line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions = ParseOptions(),
        buffers: inout NDJSONLineBuffers, lineNumber: Int, to out: inout JSONOutputBuffer
    ) -> Bool {
        appendPlainJSON(
            line: line, format: format, options: options, buffers: &buffers, id: .number(lineNumber), to: &out)
    }

    /// The id of an output line whose input line gives none.
    enum DefaultID {
        /// Raw JSON.
        case raw(UnsafeBufferPointer<UInt8>)
        /// An integer (the line number).
        case number(Int)

        /// The most bytes ``write(to:)`` writes.
        var bound: Int {
            switch self {
            case .raw(let bytes): bytes.count
            case .number: 20
            }
        }

        @inline(__always)
        func write(to o: inout RawJSON) {
            switch self {
            case .raw(let bytes): o.raw(bytes)
            case .number(let n): o.integer(n)
            }
        }

        /// Calls `body` with the id as raw JSON.
        func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            switch self {
            case .raw(let bytes):
                return body(bytes)
            case .number(let n):
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { room in
                    let count = JSONByteCursor.write(into: room) { $0.integer(n) }
                    return body(UnsafeBufferPointer(rebasing: room[0..<count]))
                }
            }
        }
    }

    /// ``appendPlainJSON(line:format:options:buffers:defaultID:to:)`` with the default id
    /// given either way.
    static func appendPlainJSON(
        line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions, buffers: inout NDJSONLineBuffers,
        id defaultID: DefaultID, to out: inout JSONOutputBuffer
    ) -> Bool {
        guard format == .plain, !options.spoilerReasons, let base = line.baseAddress else { return false }
        let before = out.count
        var entities: [Entity] = []
        swap(&entities, &buffers.entities)
        defer { swap(&entities, &buffers.entities) }
        NDJSONLineBuffers.empty(&entities)
        // The two usual shapes first, their text read and written in one pass.
        switch quickLine(line, defaultID: defaultID, entities: &entities, to: &out) {
        case .written:
            return true
        case .needsPasses:
            out.truncate(to: before)
            return generalLine(line, format: format, options: options, buffers: &buffers, id: defaultID, to: &out)
        case .otherShape:
            out.truncate(to: before)
            NDJSONLineBuffers.empty(&entities)
        }
        var reader = PlainLineReader(base: base, count: line.count)
        var scanFailed = false
        var wroteLineID = false
        // The text is written as it is read, after the head, with the id read so far: a
        // JSON string line has none, and an object line gives it before its text or not
        // at all (an id after the text is met below).
        let shape = reader.read { reader, id in
            let start = reader.i + 1
            guard reader.i < reader.count, base[reader.i] == UInt8(ascii: "\"") else { return nil }
            let rest = UnsafeBufferPointer(start: base + start, count: reader.count - start)
            let idBytes = id.map { UnsafeBufferPointer(start: base + $0.lowerBound, count: $0.count) }
            wroteLineID = id != nil
            var end: Int?
            // Six bytes of output at most for each byte of the text (DEL as `\u007f`).
            out.write(
                bound: 32 + (idBytes?.count ?? defaultID.bound) + 6 * rest.count + 8,
                raw: { room in
                    var o = RawJSON(p: room.baseAddress!)
                    o.literal(#"{"id":"#)
                    if let idBytes { o.raw(idBytes) } else { defaultID.write(to: &o) }
                    o.literal(#","text":""#)
                    end = scanText(rest, into: room, from: &o, entities: &entities)
                    guard end != nil else { return 0 }
                    o.literal("\"")
                    return room.baseAddress!.distance(to: o.p)
                })
            guard let end else {
                scanFailed = true
                return nil
            }
            reader.i = start + end + 1
            return (start..<(start + end), false)
        }
        guard let shape, shape.id == nil || wroteLineID else {
            // Not a common line; or one the one-pass scan does not read (a `\u` escape, an
            // error the full reader words) or whose id comes after its text: the general way.
            out.truncate(to: before)
            guard scanFailed || shape != nil else { return false }
            return generalLine(line, format: format, options: options, buffers: &buffers, id: defaultID, to: &out)
        }
        writeEntities(entities, to: &out)
        return true
    }

    /// What ``quickLine(_:defaultID:entities:to:)`` did.
    private enum QuickLine {
        /// The output line was written.
        case written
        /// The line is of neither usual shape, or has more after its text: the reader
        /// reads it.
        case otherShape
        /// The text has what the one pass does not read: the passes of old read it.
        case needsPasses
    }

    /// Writes the output of a line of one of the two usual shapes, a JSON string (`"…"`)
    /// or `{"id":N,"text":"…"}` with an integer id written plainly, with no space:
    /// what the reader (``PlainLineReader``) and the one pass give for it, without reading
    /// the object key by key. For any other line it writes something to be dropped and
    /// returns ``QuickLine/otherShape``.
    private static func quickLine(
        _ line: UnsafeBufferPointer<UInt8>, defaultID: DefaultID, entities: inout [Entity],
        to out: inout JSONOutputBuffer
    ) -> QuickLine {
        guard let (textStart, hasID) = PlainLineReader.quickStart(line) else { return .otherShape }
        let base = line.baseAddress!
        let rest = UnsafeBufferPointer(start: base + textStart, count: line.count - textStart)
        var result = QuickLine.needsPasses
        var wroteEntities = false
        // Room for the entities of most lines too, so that they are written in the same
        // reservation of the output.
        let entityRoom = entitiesBound(count: entitiesInLine)
        out.write(
            bound: 32 + defaultID.bound + textStart + 6 * rest.count + 8 + entityRoom,
            raw: { room in
                var o = RawJSON(p: room.baseAddress!)
                if hasID {
                    // The output's head is the line's own: `{"id":N,"text":"`.
                    o.raw(UnsafeBufferPointer(start: base, count: textStart))
                } else {
                    o.literal(#"{"id":"#)
                    defaultID.write(to: &o)
                    o.literal(#","text":""#)
                }
                guard let end = scanText(rest, into: room, from: &o, entities: &entities) else { return 0 }
                // Nothing after the text but the object's brace.
                let after = textStart + end + 1
                guard after + (hasID ? 1 : 0) == line.count, !hasID || base[after] == UInt8(ascii: "}") else {
                    result = .otherShape
                    return 0
                }
                o.literal("\"")
                result = .written
                if entities.count <= entitiesInLine {
                    writeEntities(entities, to: &o)
                    wroteEntities = true
                }
                return room.baseAddress!.distance(to: o.p)
            })
        if case .written = result, !wroteEntities { writeEntities(entities, to: &out) }
        return result
    }

    /// How many entities ``quickLine(_:defaultID:entities:to:)`` makes room for with the
    /// text; a line with more has them written in a reservation of their own.
    private static let entitiesInLine = 16

    /// Scans the raw text `rest` (from just after its opening quote) with ``PlainScanner``'s
    /// `scanJSON`, writing its JSON from `o` on in `room`, and moves `o` past it; returns
    /// the offset of the closing quote in `rest`, or nil where the one pass does not read
    /// the text.
    @inline(__always)
    private static func scanText(
        _ rest: UnsafeBufferPointer<UInt8>, into room: UnsafeMutableBufferPointer<UInt8>, from o: inout RawJSON,
        entities: inout [Entity]
    ) -> Int? {
        let head = room.baseAddress!.distance(to: o.p)
        var scanner = PlainScanner(
            output: PlainOutput(UnsafeMutableBufferPointer(start: o.p, count: room.count - head)))
        swap(&scanner.entities, &entities)
        let end = scanner.scanJSON(rest)
        swap(&scanner.entities, &entities)
        o.p += scanner.out.count
        return end
    }

    /// The most bytes ``writeEntities(_:to:)-(_,RawJSON)`` writes for `count` entities: each
    /// its type, two integers of at most 20 bytes, the keys and a comma.
    @inline(__always)
    private static func entitiesBound(count: Int) -> Int { PlainEntityJSON.bound(count: count) }

    /// Writes `,"entities":[…]}` for the entities of plain markup (spoilers and code, with
    /// no other field), with one check of the room for all.
    private static func writeEntities(_ entities: [Entity], to out: inout JSONOutputBuffer) {
        let bound = entitiesBound(count: entities.count)
        out.write(bound: bound) { c in
            c.withRoom(bound: bound) { q in
                var o = RawJSON(p: q)
                writeEntities(entities, to: &o)
                return o.p
            }
        }
    }

    /// Writes `,"entities":[…]}` as ``writeEntities(_:to:)-(_,JSONOutputBuffer)`` does, into
    /// room the caller checked for ``entitiesBound(count:)`` bytes.
    @inline(__always)
    private static func writeEntities(_ entities: [Entity], to o: inout RawJSON) {
        entities.withUnsafeBufferPointer { PlainEntityJSON.write($0, to: &o) }
    }

    /// Writes a line the one pass does not read the general way: its message read by
    /// ``withPlainMessage(line:format:options:buffers:_:)`` and written by
    /// ``Message/appendJSON(utf8:entities:id:to:)``. Returns whether the line was common.
    private static func generalLine(
        _ line: UnsafeBufferPointer<UInt8>, format: InputFormat, options: ParseOptions,
        buffers: inout NDJSONLineBuffers,
        id defaultID: DefaultID, to out: inout JSONOutputBuffer
    ) -> Bool {
        let written: Void? = withPlainMessage(line: line, format: format, options: options, buffers: &buffers) {
            text, entities, id in
            if let id {
                Message.appendJSON(utf8: text, entities: entities, id: id, to: &out)
            } else {
                defaultID.withBytes { Message.appendJSON(utf8: text, entities: entities, id: $0, to: &out) }
            }
        }
        return written != nil
    }

    /// Parses `text` as plain markup and calls `body`. The text is valid UTF-8: the reader
    /// checked the string's raw bytes, and decoding escapes (never a surrogate) keeps them so.
    private static func plainMessage<R>(
        _ text: UnsafeBufferPointer<UInt8>, id: UnsafeBufferPointer<UInt8>?, buffers: inout NDJSONLineBuffers,
        _ body: (UnsafeBufferPointer<UInt8>, [Entity], UnsafeBufferPointer<UInt8>?) -> R
    ) -> R? {
        if text.isEmpty { return body(text, [], id) }
        // The output is never longer than the input, since only markup is taken out.
        return buffers.withTextRoom(text.count) { out, entities in
            let count = out.withUnsafeMutableBufferPointer { storage in
                var scanner = PlainScanner(output: PlainOutput(storage))
                swap(&scanner.entities, &entities)
                scanner.scan(text)
                swap(&scanner.entities, &entities)
                return scanner.out.count
            }
            return out.withUnsafeBufferPointer { p in
                body(UnsafeBufferPointer(start: p.baseAddress, count: count), entities, id)
            }
        }
    }
}

/// Finds the parts of a common NDJSON line (``NDJSONRecord/withPlainMessage(line:format:options:_:)``):
/// where its text and id lie, giving up (nil) at anything else.
private struct PlainLineReader {
    let base: UnsafePointer<UInt8>
    let count: Int
    var i = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// Where the text's raw bytes (between the quotes) and the id's raw JSON lie.
    struct Shape {
        var text: Range<Int>
        var textHasEscapes: Bool
        var id: Range<Int>?
    }

    /// Where the text of a line of one of the two usual shapes starts: just after the
    /// opening quote of a JSON string at the line's first byte, or of the text of an
    /// object that starts `{"id":N,"text":"` (N an integer as JSON writes it: `0`, or
    /// digits not starting with 0, after an optional `-`); and whether it is the object.
    /// Nil for any other start, which ``read()`` reads.
    static func quickStart(_ line: UnsafeBufferPointer<UInt8>) -> (text: Int, hasID: Bool)? {
        let n = line.count
        guard n >= 2, let p = line.baseAddress else { return nil }
        if p[0] == UInt8(ascii: "\"") { return (1, false) }
        guard n >= 16, PlainLineReader.starts(p, with: #"{"id":"#) else { return nil }
        var i = 6
        if p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n, p[i] >= 0x30, p[i] <= 0x39 else { return nil }
        if p[i] == 0x30 {
            i += 1
        } else {
            while i < n, p[i] >= 0x30, p[i] <= 0x39 { i += 1 }
        }
        guard n - i >= 10, PlainLineReader.starts(p + i, with: #","text":""#) else { return nil }
        return (i + 9, true)
    }

    /// Whether the bytes at `p` start with `key` (at most nine bytes; eight bytes at `p`,
    /// and nine if `key` has nine, must be there to read).
    @inline(__always)
    static func starts(_ p: UnsafePointer<UInt8>, with key: StaticString) -> Bool {
        let n = key.utf8CodeUnitCount
        var word: UInt64 = 0
        for k in 0..<min(n, 8) { word |= UInt64(key.utf8Start[k]) << (8 * UInt64(k)) }
        let kept: UInt64 = n >= 8 ? .max : (1 << (8 * UInt64(n))) - 1
        let mine = UnsafeRawPointer(p).loadUnaligned(as: UInt64.self)
        return (mine ^ word) & kept == 0 && (n <= 8 || p[8] == key.utf8Start[8])
    }

    mutating func skipSpace() {
        while i < count {
            let b = base[i]
            guard b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A else { return }
            i += 1
        }
    }

    mutating func take(_ c: UInt8) -> Bool {
        skipSpace()
        guard i < count, base[i] == c else { return false }
        i += 1
        return true
    }

    mutating func read() -> Shape? {
        read { reader, _ in reader.string() }
    }

    /// Reads the line as ``read()`` does, with `readText` reading the text's string: it is
    /// given the reader at the string's opening quote and the range of the id read so far,
    /// and leaves the reader past the closing quote.
    mutating func read(
        text readText: (inout PlainLineReader, _ idSoFar: Range<Int>?) -> (Range<Int>, Bool)?
    ) -> Shape? {
        skipSpace()
        guard i < count else { return nil }
        var shape: Shape
        if base[i] == UInt8(ascii: "\"") {
            guard let (text, escapes) = readText(&self, nil) else { return nil }
            shape = Shape(text: text, textHasEscapes: escapes, id: nil)
        } else {
            guard let s = object(text: readText) else { return nil }
            shape = s
        }
        skipSpace()
        return i == count ? shape : nil
    }

    /// `{"text": "…"}`, `{"id": …, "text": "…"}` or `{"text": "…", "id": …}`.
    mutating func object(
        text readText: (inout PlainLineReader, _ idSoFar: Range<Int>?) -> (Range<Int>, Bool)?
    ) -> Shape? {
        guard take(UInt8(ascii: "{")) else { return nil }
        var text: (Range<Int>, Bool)?
        var id: Range<Int>?
        repeat {
            skipSpace()
            guard let (key, keyEscapes) = string(), !keyEscapes, take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            if isKey(key, "text") {
                guard text == nil, let s = readText(&self, id) else { return nil }
                text = s
            } else if isKey(key, "id") {
                guard id == nil, let v = idValue() else { return nil }
                id = v
            } else {
                return nil
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), let text else { return nil }
        return Shape(text: text.0, textHasEscapes: text.1, id: id)
    }

    func isKey(_ key: Range<Int>, _ name: StaticString) -> Bool {
        guard key.count == name.utf8CodeUnitCount else { return false }
        for k in 0..<key.count where base[key.lowerBound + k] != name.utf8Start[k] { return false }
        return true
    }

    /// A string at `i`: the range of its raw bytes between the quotes, and whether it has
    /// an escape. Nil at a raw control character or an escape JSON does not have (errors
    /// the full reader words), invalid UTF-8, or no closing quote.
    mutating func string() -> (Range<Int>, Bool)? {
        guard i < count, base[i] == UInt8(ascii: "\"") else { return nil }
        i += 1
        let start = i
        return string(from: start, rows: UTF8Validation.automatonRowStorage)
    }

    /// The rest of ``string()``, with the UTF-8 automaton's rows at hand. The text's bytes
    /// go through the automaton eight at a time, without a branch on each sequence's
    /// length, except runs of eight ASCII bytes, which need no look.
    private mutating func string(from start: Int, rows: UnsafePointer<UInt64>) -> (Range<Int>, Bool)? {
        let accept = UTF8Validation.acceptState
        let highs: UInt64 = 0x8080_8080_8080_8080
        var state = accept
        var escapes = false
        let raw = UnsafeRawPointer(base)
        while i < count {
            while i + 8 <= count {
                let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let ends = PlainLineReader.endMask(v)
                if ends != 0 {
                    // The bytes before the first quote, backslash or control.
                    let k = ends.trailingZeroBitCount >> 3
                    if state != accept || v & highs & ~(UInt64.max << (k << 3)) != 0 {
                        for j in 0..<k { state = UTF8Validation.step(state, base[i + j], rows: rows) }
                    }
                    i += k
                    break
                }
                // Eight ASCII bytes between whole sequences need no look.
                if state != accept || v & highs != 0 { state = UTF8Validation.step(state, through: v, rows: rows) }
                i += 8
            }
            guard i < count else { break }
            let b = base[i]
            if b == UInt8(ascii: "\"") {
                guard state == accept else { return nil }
                i += 1
                return (start..<(i - 1), escapes)
            }
            if b == UInt8(ascii: "\\") {
                // Only JSON's escapes, all ASCII, are passed over here; the unescaping
                // judges `\u`'s digits.
                guard state == accept, i + 1 < count, PlainLineReader.isEscapeLetter(base[i + 1]) else { return nil }
                escapes = true
                i += 2
                continue
            }
            if b < 0x20 { return nil }
            state = UTF8Validation.step(state, b, rows: rows)
            i += 1
        }
        return nil
    }

    /// Whether `b` may follow a backslash in a JSON string: `"`, `\`, `/`, `b`, `f`, `n`,
    /// `r`, `t` or `u`.
    @inline(__always)
    static func isEscapeLetter(_ b: UInt8) -> Bool {
        switch b {
        case 0x22, 0x5C, 0x2F, 0x62, 0x66, 0x6E, 0x72, 0x74, 0x75: true
        default: false
        }
    }

    /// The high bit of each of the eight bytes of `v` that may be `"`, `\` or below 0x20:
    /// none is missed, and the lowest one marked is one of them (a borrow marks only bytes
    /// above a real one).
    @inline(__always)
    static func endMask(_ v: UInt64) -> UInt64 {
        ByteLanes.below(v, 0x20) | ByteLanes.equal(v, 0x22) | ByteLanes.equal(v, 0x5C)
    }

    /// Whether any of the eight bytes of `v` is `\`.
    @inline(__always)
    static func hasBackslash(_ v: UInt64) -> Bool {
        ByteLanes.equal(v, 0x5C) != 0
    }

    /// An id: a JSON number, as written, or a string of printable ASCII without escapes
    /// (which the full reader writes back unchanged).
    mutating func idValue() -> Range<Int>? {
        guard i < count else { return nil }
        let start = i
        if base[i] == UInt8(ascii: "\"") {
            guard let (_, escapes) = string(), !escapes else { return nil }
            for k in start..<i where base[k] >= 0x7F { return nil }
            return start..<i
        }
        func digit(_ k: Int) -> Bool { k < count && base[k] >= 0x30 && base[k] <= 0x39 }
        if base[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else { return nil }
        if base[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while digit(i) { i += 1 }
        }
        if i < count && base[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
        }
        if i < count && (base[i] == UInt8(ascii: "e") || base[i] == UInt8(ascii: "E")) {
            i += 1
            if i < count && (base[i] == UInt8(ascii: "+") || base[i] == UInt8(ascii: "-")) { i += 1 }
            guard digit(i) else { return nil }
            while digit(i) { i += 1 }
        }
        return start..<i
    }

    /// Decodes the escapes of a string's raw bytes into `out`; false at an escape the
    /// full reader must judge (an unknown one, a surrogate).
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
        out.reserveCapacity(raw.count)
        var runStart = 0
        var i = 0
        let n = raw.count
        let bytes = UnsafeRawPointer(raw.baseAddress!)
        while i < n {
            // Eight bytes at a time while none is a backslash.
            while i + 8 <= n && !PlainLineReader.hasBackslash(bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
            }
            guard i < n else { break }
            guard raw[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: raw[runStart..<i]))
            guard i + 1 < n else { return false }
            let e = raw[i + 1]
            if let simple = JSONValue.simpleEscape(e) {
                out.append(simple)
                i += 2
            } else if e == UInt8(ascii: "u") {
                guard i + 6 <= n, let v = hex4(raw, at: i + 2), v < 0xD800 || v >= 0xE000 else { return false }
                appendUTF8(v, to: &out)
                i += 6
            } else {
                return false
            }
            runStart = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: raw[runStart..<n]))
        return true
    }

    static func hex4(_ p: UnsafeBufferPointer<UInt8>, at start: Int) -> UInt32? {
        var v: UInt32 = 0
        for k in start..<(start + 4) {
            let b = p[k]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: return nil
            }
            v = v << 4 | d
        }
        return v
    }

    /// Appends the scalar `v` (below U+10000, not a surrogate) as UTF-8.
    static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        if v < 0x80 {
            out.append(UInt8(v))
        } else if v < 0x800 {
            out.append(UInt8(0xC0 | v >> 6))
            out.append(UInt8(0x80 | v & 0x3F))
        } else {
            out.append(UInt8(0xE0 | v >> 12))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        }
    }
}
