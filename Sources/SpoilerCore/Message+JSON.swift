extension Entity {
    /// Writes the entity as a Bot API `MessageEntity` object: `type`, `offset`, `length`,
    /// then whichever of `url`, `language`, `custom_emoji_id`, `user_id`, `unix_time`,
    /// `tdlib_date_flags`, `date_time_format` and (for a spoiler) `reason` are set.
    public func write(to w: inout JSONWriter) {
        w.object { w in
            w.key("type"); w.string(type.rawValue)
            w.key("offset"); w.number(offset)
            w.key("length"); w.number(length)
            if let url { w.key("url"); w.string(url) }
            if let language { w.key("language"); w.string(language) }
            if let customEmojiID { w.key("custom_emoji_id"); w.string(customEmojiID) }
            if let userID { w.key("user_id"); w.number(userID) }
            if let unixTime { w.key("unix_time"); w.number(unixTime) }
            if let tdlibDateFlags { w.key("tdlib_date_flags"); w.number(tdlibDateFlags) }
            if let dateTimeFormat { w.key("date_time_format"); w.string(dateTimeFormat) }
            if let reason { w.key("reason"); w.string(reason) }
        }
    }
}

extension Entity {
    /// Writes what ``write(to:)-(JSONWriter)`` writes, through a cursor with room for
    /// ``jsonBound`` bytes.
    public func write(to c: inout JSONByteCursor) {
        c.literal(#"{"type":"#)
        c.quoted(type.rawValue)
        c.literal(#","offset":"#)
        c.integer(offset)
        c.literal(#","length":"#)
        c.integer(length)
        if let url {
            c.literal(#","url":"#)
            c.quoted(url)
        }
        if let language {
            c.literal(#","language":"#)
            c.quoted(language)
        }
        if let customEmojiID {
            c.literal(#","custom_emoji_id":"#)
            c.quoted(customEmojiID)
        }
        if let userID {
            c.literal(#","user_id":"#)
            c.integer(Int(userID))
        }
        if let unixTime {
            c.literal(#","unix_time":"#)
            c.integer(Int(unixTime))
        }
        if let tdlibDateFlags {
            c.literal(#","tdlib_date_flags":"#)
            c.integer(tdlibDateFlags)
        }
        if let dateTimeFormat {
            c.literal(#","date_time_format":"#)
            c.quoted(dateTimeFormat)
        }
        if let reason {
            c.literal(#","reason":"#)
            c.quoted(reason)
        }
        c.literal("}")
    }

    /// An upper bound of the bytes ``write(to:)-(JSONByteCursor)`` writes.
    public var jsonBound: Int {
        var strings = type.rawValue.utf8.count
        strings += url?.utf8.count ?? 0
        strings += language?.utf8.count ?? 0
        strings += customEmojiID?.utf8.count ?? 0
        strings += dateTimeFormat?.utf8.count ?? 0
        strings += reason?.utf8.count ?? 0
        return 320 + 6 * strings
    }
}

extension Message {
    /// Writes `{"text": …, "entities": […]}`; `id`, when given, is written first as raw
    /// JSON (a number or a quoted string, as it came in).
    public func write(to w: inout JSONWriter, id: [UInt8]? = nil) {
        w.object { w in
            if let id { w.key("id"); w.raw(id) }
            w.key("text"); w.string(text)
            w.key("entities")
            w.array { w in for e in entities { e.write(to: &w) } }
        }
    }

    /// Writes what ``write(to:id:)`` writes for a message whose text has the UTF-8 bytes
    /// `text`, without a String of it (a line filter's fast path).
    ///
    /// - Parameters:
    ///   - text: The text, valid UTF-8 (the caller vouches for it).
    ///   - entities: Its entities, in canonical order.
    ///   - id: The id as raw JSON, written first, or nil for none.
    ///   - w: Where the object is written.
    public static func write(
        utf8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?,
        to w: inout JSONWriter
    ) {
        w.object { w in
            if let id { w.key("id"); w.raw(id) }
            w.key("text"); w.string(utf8: text)
            w.key("entities")
            w.array { w in for e in entities { e.write(to: &w) } }
        }
    }

    /// The bytes ``write(utf8:entities:id:to:)`` writes into an empty writer, written
    /// through a ``JSONByteCursor`` into one array of the right size.
    public static func jsonBytes(
        utf8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?
    ) -> [UInt8] {
        JSONByteCursor.bytes(capacity: jsonBound(utf8: text, entities: entities, id: id)) { c in
            writeJSON(utf8: text, entities: entities, id: id, to: &c)
        }
    }

    /// Appends the bytes ``write(utf8:entities:id:to:)`` writes into an empty writer to
    /// `out`, a buffer reused from line to line: the fast path of `spoiler parse --ndjson`.
    ///
    /// - Parameters:
    ///   - text: The text, valid UTF-8 (the caller vouches for it).
    ///   - entities: Its entities, in canonical order.
    ///   - id: The id as raw JSON, written first, or nil for none.
    ///   - out: Where the object is appended.
    public static func appendJSON(
        utf8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?,
        to out: inout JSONOutputBuffer
    ) {
        out.write(bound: jsonBound(utf8: text, entities: entities, id: id)) { c in
            writeJSON(utf8: text, entities: entities, id: id, to: &c)
        }
    }

    /// An upper bound of the bytes ``writeJSON(utf8:entities:id:to:)`` writes.
    private static func jsonBound(
        utf8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?
    ) -> Int {
        var bound = 32 + (id?.count ?? 0) + 6 * text.count
        for e in entities { bound += e.jsonBound }
        return bound
    }

    /// Writes the message object through a cursor with room for ``jsonBound(utf8:entities:id:)``.
    private static func writeJSON(
        utf8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>?,
        to c: inout JSONByteCursor
    ) {
        c.openObject(id: id, firstKey: #""text":"#)
        c.quoted(utf8: text)
        c.literal(#","entities":["#)
        for (k, e) in entities.enumerated() {
            if k > 0 { c.literal(",") }
            e.write(to: &c)
        }
        c.literal("]}")
    }

    /// Writes the bytes of ``write(to:id:)`` in pieces: `emit` is called whenever about
    /// `piece` bytes are ready, and once at the end, so that a message with millions of
    /// entities is written in bounded memory. The pieces together are exactly the bytes
    /// ``write(to:id:)`` writes.
    ///
    /// ```swift
    /// var out: [UInt8] = []
    /// message.write(inPiecesOf: 1 << 16) { out += $0 }
    /// ```
    ///
    /// - Parameters:
    ///   - id: Raw JSON written first under `id`, as in ``write(to:id:)``.
    ///   - piece: About how many bytes to gather before calling `emit`.
    ///   - emit: Takes each piece.
    public func write(id: [UInt8]? = nil, inPiecesOf piece: Int, _ emit: ([UInt8]) -> Void) {
        var w = JSONWriter()
        w.object { w in
            if let id { w.key("id"); w.raw(id) }
            w.key("text"); w.string(text)
            w.key("entities")
            w.array { w in
                for e in entities {
                    e.write(to: &w)
                    // The writer's nesting state is kept apart from its bytes, so they
                    // can be taken out between two values.
                    if w.bytes.count >= piece {
                        emit(w.bytes)
                        w.bytes.removeAll(keepingCapacity: true)
                    }
                }
            }
        }
        emit(w.bytes)
    }

    /// The message as compact JSON: `{"text":…,"entities":[…]}`.
    public var jsonString: String {
        var w = JSONWriter()
        write(to: &w)
        return w.string
    }
}
