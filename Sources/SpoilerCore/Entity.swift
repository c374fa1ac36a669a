/// A formatted run of message text, as the Telegram Bot API's `MessageEntity`.
///
/// `offset` and `length` count UTF-16 code units of the message text, as Telegram does
/// (core.telegram.org/api/entities). Optional fields carry the Bot API's extra data for
/// the types that have it.
public struct Entity: Sendable, Hashable {
    /// The kind of formatting.
    public var type: EntityType
    /// Start of the entity, in UTF-16 code units from the start of the text.
    public var offset: Int
    /// Length of the entity, in UTF-16 code units.
    public var length: Int
    /// Target of a `text_link`.
    public var url: String?
    /// Programming language of a `pre` block.
    public var language: String?
    /// Identifier of a `custom_emoji`, a decimal string as in the Bot API.
    public var customEmojiID: String?
    /// User of a `text_mention`.
    public var userID: Int64?
    /// Unix time of a `date_time` entity.
    public var unixTime: Int64?
    /// TDLib's date flags of a `date_time` entity.
    public var tdlibDateFlags: Int?
    /// Format string of a `date_time` entity.
    public var dateTimeFormat: String?

    /// Creates an entity; `offset` and `length` are in UTF-16 code units.
    public init(
        _ type: EntityType, offset: Int, length: Int, url: String? = nil,
        language: String? = nil, customEmojiID: String? = nil, userID: Int64? = nil,
        unixTime: Int64? = nil, tdlibDateFlags: Int? = nil, dateTimeFormat: String? = nil
    ) {
        self.type = type
        self.offset = offset
        self.length = length
        self.url = url
        self.language = language
        self.customEmojiID = customEmojiID
        self.userID = userID
        self.unixTime = unixTime
        self.tdlibDateFlags = tdlibDateFlags
        self.dateTimeFormat = dateTimeFormat
    }

    /// One past the last UTF-16 code unit of the entity.
    public var end: Int { offset + length }
}

extension Entity {
    /// The canonical order of entities in a message: by offset, then by length descending
    /// (outer entities before the ones they contain). Ties keep their relative order when
    /// used with a stable sort.
    public static func canonicalOrder(_ a: Entity, _ b: Entity) -> Bool {
        if a.offset != b.offset { return a.offset < b.offset }
        return a.length > b.length
    }
}
