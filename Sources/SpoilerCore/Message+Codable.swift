// Codable in the shape `spoiler parse` writes: the Bot API's names, snake_case keys.

extension Entity: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, offset, length, url, language
        case customEmojiID = "custom_emoji_id"
        case userID = "user_id"
        case unixTime = "unix_time"
        case tdlibDateFlags = "tdlib_date_flags"
        case dateTimeFormat = "date_time_format"
    }

    /// Reads an entity in the shape ``Message/jsonString`` writes it: `type`, `offset`, `length` and
    /// the optional `url`, `language`, `custom_emoji_id`, `user_id`, `unix_time`,
    /// `tdlib_date_flags`, `date_time_format`.
    ///
    /// - Throws: A `DecodingError` when a required key is missing or has the wrong type, or
    ///   when `offset` or `length` is past ``Entity/maxUTF16Offset`` either way. Offsets are
    ///   not checked against a text here; ``Message`` does not check them either.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func units(_ key: CodingKeys) throws -> Int {
            let n = try c.decode(Int.self, forKey: key)
            guard n.magnitude <= Entity.maxUTF16Offset else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription: "\(key.rawValue) \(n) is out of range (at most \(Entity.maxUTF16Offset))")
            }
            return n
        }
        self.init(
            try c.decode(EntityType.self, forKey: .type), offset: try units(.offset),
            length: try units(.length), url: try c.decodeIfPresent(String.self, forKey: .url),
            language: try c.decodeIfPresent(String.self, forKey: .language),
            customEmojiID: try c.decodeIfPresent(String.self, forKey: .customEmojiID),
            userID: try c.decodeIfPresent(Int64.self, forKey: .userID),
            unixTime: try c.decodeIfPresent(Int64.self, forKey: .unixTime),
            tdlibDateFlags: try c.decodeIfPresent(Int.self, forKey: .tdlibDateFlags),
            dateTimeFormat: try c.decodeIfPresent(String.self, forKey: .dateTimeFormat))
    }

    /// Writes the entity with the keys of ``Message/jsonString``, leaving out the fields it does not have.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(type, forKey: .type)
        try c.encode(offset, forKey: .offset)
        try c.encode(length, forKey: .length)
        try c.encodeIfPresent(url, forKey: .url)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encodeIfPresent(customEmojiID, forKey: .customEmojiID)
        try c.encodeIfPresent(userID, forKey: .userID)
        try c.encodeIfPresent(unixTime, forKey: .unixTime)
        try c.encodeIfPresent(tdlibDateFlags, forKey: .tdlibDateFlags)
        try c.encodeIfPresent(dateTimeFormat, forKey: .dateTimeFormat)
    }
}

extension Message: Codable {
    private enum CodingKeys: String, CodingKey {
        case text, entities
    }

    /// Reads `{"text": …, "entities": […]}`; the entities are put in canonical order.
    ///
    /// - Throws: A `DecodingError` when `text` is missing or a key has the wrong type.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            text: try c.decode(String.self, forKey: .text),
            unsortedEntities: try c.decodeIfPresent([Entity].self, forKey: .entities) ?? [])
    }

    /// Writes `{"text": …, "entities": […]}`, as ``jsonString`` does.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(text, forKey: .text)
        try c.encode(entities, forKey: .entities)
    }
}
