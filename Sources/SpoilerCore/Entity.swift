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
    /// The fields that few entities have, in one shared box (nil when all are nil), so
    /// that an entity without them takes 32 bytes instead of about 140: a message can
    /// hold millions of entities (10 MB of `||a` is 3.5 million spoilers).
    private var extras: EntityExtras?

    /// Target of a `text_link`.
    public var url: String? {
        get { extras?.fields.url }
        set { updateExtras { $0.url = newValue } }
    }
    /// Programming language of a `pre` block.
    public var language: String? {
        get { extras?.fields.language }
        set { updateExtras { $0.language = newValue } }
    }
    /// Identifier of a `custom_emoji`, a decimal string as in the Bot API.
    public var customEmojiID: String? {
        get { extras?.fields.customEmojiID }
        set { updateExtras { $0.customEmojiID = newValue } }
    }
    /// User of a `text_mention`.
    public var userID: Int64? {
        get { extras?.fields.userID }
        set { updateExtras { $0.userID = newValue } }
    }
    /// Unix time of a `date_time` entity.
    public var unixTime: Int64? {
        get { extras?.fields.unixTime }
        set { updateExtras { $0.unixTime = newValue } }
    }
    /// TDLib's date flags of a `date_time` entity.
    public var tdlibDateFlags: Int? {
        get { extras?.fields.tdlibDateFlags }
        set { updateExtras { $0.tdlibDateFlags = newValue } }
    }
    /// Format string of a `date_time` entity.
    public var dateTimeFormat: String? {
        get { extras?.fields.dateTimeFormat }
        set { updateExtras { $0.dateTimeFormat = newValue } }
    }
    /// Why a `spoiler` is hidden ("for the ending"), as Matrix's `data-mx-spoiler="…"` says;
    /// nil when none is given. Telegram has no such field: formats that cannot carry it drop
    /// it and say so (see ``SerializationWarning`` in SpoilerParser).
    public var reason: String? {
        get { extras?.fields.reason }
        set { updateExtras { $0.reason = newValue } }
    }

    /// Creates an entity; `offset` and `length` are in UTF-16 code units.
    ///
    /// ```swift
    /// let e = Entity(.spoiler, offset: 3, length: 5, reason: "the ending")
    /// ```
    public init(
        _ type: EntityType, offset: Int, length: Int, url: String? = nil,
        language: String? = nil, customEmojiID: String? = nil, userID: Int64? = nil,
        unixTime: Int64? = nil, tdlibDateFlags: Int? = nil, dateTimeFormat: String? = nil,
        reason: String? = nil
    ) {
        self.type = type
        self.offset = offset
        self.length = length
        let fields = EntityExtras.Fields(
            url: url, language: language, customEmojiID: customEmojiID, userID: userID, unixTime: unixTime,
            tdlibDateFlags: tdlibDateFlags, dateTimeFormat: dateTimeFormat, reason: reason)
        extras = fields.isEmpty ? nil : EntityExtras(fields)
    }

    /// Creates an entity with none of the other fields; `offset` and `length` are in UTF-16
    /// code units. The same entity as the initialiser with every other field nil, made
    /// without building and checking an empty set of fields (a parser makes one for every
    /// spoiler and code span of every message).
    ///
    /// ```swift
    /// let e = Entity(.spoiler, offset: 3, length: 5)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The kind of entity.
    ///   - offset: Where it starts, in UTF-16 code units.
    ///   - length: How long it is, in UTF-16 code units.
    public init(_ type: EntityType, offset: Int, length: Int) {
        self.type = type
        self.offset = offset
        self.length = length
        extras = nil
    }

    /// Changes the boxed fields with value semantics: a new box, or none when all are nil.
    private mutating func updateExtras(_ change: (inout EntityExtras.Fields) -> Void) {
        var fields = extras?.fields ?? EntityExtras.Fields()
        change(&fields)
        extras = fields.isEmpty ? nil : EntityExtras(fields)
    }

    /// One past the last UTF-16 code unit of the entity.
    public var end: Int { offset + length }
}

extension Entity {
    /// The canonical order of entities in a message.
    ///
    /// By offset, then by length descending (outer entities before the ones they contain). Ties keep their relative order when
    /// used with a stable sort.
    public static func canonicalOrder(_ a: Entity, _ b: Entity) -> Bool {
        if a.offset != b.offset { return a.offset < b.offset }
        return a.length > b.length
    }
}

/// The rarely set fields of an ``Entity``, boxed; never changed once made.
final class EntityExtras: Sendable, Hashable {
    struct Fields: Sendable, Hashable {
        var url: String?
        var language: String?
        var customEmojiID: String?
        var userID: Int64?
        var unixTime: Int64?
        var tdlibDateFlags: Int?
        var dateTimeFormat: String?
        var reason: String?

        var isEmpty: Bool {
            url == nil && language == nil && customEmojiID == nil && userID == nil && unixTime == nil
                && tdlibDateFlags == nil && dateTimeFormat == nil && reason == nil
        }
    }

    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    static func == (a: EntityExtras, b: EntityExtras) -> Bool { a.fields == b.fields }

    func hash(into h: inout Hasher) { h.combine(fields) }
}
