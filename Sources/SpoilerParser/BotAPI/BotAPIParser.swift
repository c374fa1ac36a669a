public import SpoilerCore

/// Reads Telegram Bot API JSON (`--from botapi`): `{"text": …, "entities": […]}`, or a Bot
/// API `Message` object (`text` and `entities`, or `caption` and `caption_entities`).
///
/// Also accepted, for convenience: a method's reply (`{"ok": true, "result": {…}}`) and an
/// `Update` (`message`, `edited_message`, `channel_post`, `edited_channel_post`,
/// `business_message`), which are unwrapped to the message inside.
///
/// Entities are validated, and the first bad one is an error that names its index (from 0)
/// and the reason: the type must be one of the Bot API's (``EntityType``); `offset` and
/// `length` must be whole numbers with `offset ≥ 0`, `length ≥ 1` and `offset + length` at
/// most the text's length in UTF-16 code units; neither end may fall between the two
/// halves of a surrogate pair; `text_link` needs `url`, `text_mention` needs `user.id` (or
/// `user_id`), `custom_emoji` needs `custom_emoji_id`, `date_time` needs `unix_time`; and
/// the optional fields of the type (`language` of `pre`, the `date_time` extras), when
/// present, must have the Bot API's types; a `spoiler` may carry a string `reason`
/// (SpoilerKit's own field, as `--to json` writes it). Fields that do not belong to the type and
/// unknown fields are ignored and dropped. Entities may nest and overlap, as the Bot API allows; the result is in
/// canonical order.
///
/// ```swift
/// let m = try MessageParser.parse(#"{"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}"#, from: .botAPI)
/// ```
public enum BotAPIParser {
    /// Parses `bytes` as Bot API JSON.
    ///
    /// The bytes must be valid UTF-8; the first invalid sequence is an error naming its
    /// byte offset, as ``MessageParser`` reports it.
    ///
    /// - Parameter bytes: The message's bytes, UTF-8.
    /// - Returns: The message: its text and its entities, offsets in UTF-16 code units.
    /// - Throws: ``ParseError`` naming the position and the reason.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        try parse(validUTF8: ParseError.checkedUTF8(bytes))
    }

    /// Parses `text` as Bot API JSON.
    ///
    /// ```swift
    /// let message = try BotAPIParser.parse(#"{"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}"#)
    /// ```
    ///
    /// - Parameter text: The message as written.
    /// - Returns: The message: its text and its entities, offsets in UTF-16 code units.
    /// - Throws: ``ParseError`` naming the position and the reason.
    public static func parse(_ text: String) throws(ParseError) -> Message {
        try parse(validUTF8: Array(text.utf8))
    }

    /// Parses `bytes` (valid UTF-8) as Bot API JSON.
    ///
    /// - Throws: ``ParseError`` of kind `invalidJSON` with the line and column of a JSON
    ///   syntax error or naming the missing member, or `invalidEntity` naming the entity.
    static func parse(validUTF8 bytes: [UInt8]) throws(ParseError) -> Message {
        try message(from: ParseError.parsingJSON(bytes))
    }

    /// The message in an already parsed Bot API JSON value.
    ///
    /// - Throws: ``ParseError`` as ``MessageParser`` does for `botapi`.
    public static func message(from value: JSONValue) throws(ParseError) -> Message {
        try message(from: value, depth: 0)
    }

    static let wrappers = [
        "result", "message", "edited_message", "channel_post", "edited_channel_post", "business_message",
        "edited_business_message",
    ]

    private static func message(from value: JSONValue, depth: Int) throws(ParseError) -> Message {
        guard case .object = value else {
            throw ParseError(.invalidJSON, "expected a JSON object with 'text' and 'entities' (a Bot API message)")
        }
        for (textKey, entitiesKey) in [("text", "entities"), ("caption", "caption_entities")] {
            guard let textValue = value[textKey] else { continue }
            guard let text = textValue.stringValue else {
                throw ParseError(.invalidJSON, "'\(textKey)' must be a string")
            }
            let entities: [Entity]
            switch value[entitiesKey] {
            case nil, .null?: entities = []
            case .array(let items)?: entities = try validated(items, in: text)
            default: throw ParseError(.invalidJSON, "'\(entitiesKey)' must be an array")
            }
            return Message(text: text, entities: entities)
        }
        if depth < 2 {
            for key in wrappers {
                if let inner = value[key], case .object = inner {
                    return try message(from: inner, depth: depth + 1)
                }
            }
        }
        throw ParseError(.invalidJSON, "the object has no 'text' or 'caption'")
    }

    /// The entities `items`, checked against `text`.
    static func validated(_ items: [JSONValue], in text: String) throws(ParseError) -> [Entity] {
        let utf16 = Array(text.utf16)
        var entities: [Entity] = []
        entities.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            entities.append(try entity(item, index: index, utf16: utf16))
        }
        return entities
    }

    private static func entity(_ item: JSONValue, index: Int, utf16: [UInt16]) throws(ParseError) -> Entity {
        var name = "entity \(index)"
        func fail(_ reason: String) -> ParseError {
            ParseError(.invalidEntity, "\(name): \(reason)")
        }
        guard case .object = item else { throw fail("expected an object with 'type', 'offset' and 'length'") }
        guard let typeValue = item["type"] else { throw fail("'type' is required") }
        guard let typeName = typeValue.stringValue else { throw fail("'type' must be a string") }
        guard let type = EntityType(rawValue: typeName) else {
            throw fail("unknown type '\(typeName)'")
        }
        name += " (\(typeName))"

        func integer(_ key: String, required: Bool) throws(ParseError) -> Int64? {
            guard let v = item[key], v != .null else {
                if required { throw fail("'\(key)' is required") }
                return nil
            }
            guard case .number = v else { throw fail("'\(key)' must be a number") }
            guard let n = v.intValue else { throw fail("'\(key)' must be a whole number") }
            return n
        }
        func string(_ key: String, required: Bool) throws(ParseError) -> String? {
            guard let v = item[key], v != .null else {
                if required { throw fail("'\(key)' is required") }
                return nil
            }
            guard let s = v.stringValue else { throw fail("'\(key)' must be a string") }
            return s
        }

        let offset = try integer("offset", required: true)!
        let length = try integer("length", required: true)!
        guard offset >= 0 else { throw fail("offset \(offset) is negative") }
        guard length >= 1 else { throw fail("length \(length) is not positive") }
        let count = Int64(utf16.count)
        guard offset <= count, length <= count - offset else {
            throw fail(
                "offset \(offset) + length \(length) is past the end of the text (\(count) UTF-16 code units)")
        }
        let start = Int(offset)
        let end = Int(offset + length)
        if UTF16.isTrailSurrogate(utf16[start]) {
            throw fail("offset \(offset) splits a surrogate pair")
        }
        if end < utf16.count && UTF16.isTrailSurrogate(utf16[end]) {
            throw fail("offset \(offset) + length \(length) = \(end) splits a surrogate pair")
        }

        // Only the fields of the entity's own type are kept, as the Bot API does.
        var e = Entity(type, offset: start, length: Int(length))
        switch type {
        case .textLink:
            e.url = try string("url", required: true)
        case .pre:
            e.language = try string("language", required: false)
        case .customEmoji:
            e.customEmojiID = try string("custom_emoji_id", required: true)
        case .textMention:
            if let user = item["user"], user != .null {
                guard case .object = user else { throw fail("'user' must be an object") }
                guard let id = user["id"]?.intValue else { throw fail("'user' needs a whole-number 'id'") }
                e.userID = id
            } else {
                e.userID = try integer("user_id", required: true)
            }
        case .dateTime:
            e.unixTime = try integer("unix_time", required: true)
            if let flags = try integer("tdlib_date_flags", required: false) {
                guard let f = Int(exactly: flags) else { throw fail("'tdlib_date_flags' is out of range") }
                e.tdlibDateFlags = f
            }
            e.dateTimeFormat = try string("date_time_format", required: false)
        case .spoiler:
            // Not a Bot API field: SpoilerKit's own, written by `--to json` (Matrix's reason).
            e.reason = try string("reason", required: false)
        default:
            break
        }
        return e
    }
}
