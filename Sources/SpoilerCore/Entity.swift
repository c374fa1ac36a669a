/// A formatted run of message text, as the Telegram Bot API's `MessageEntity`.
///
/// `offset` and `length` count UTF-16 code units of the message text, as Telegram does
/// (core.telegram.org/api/entities). Optional fields carry the Bot API's extra data for
/// the types that have it.
public struct Entity: Sendable, Hashable {
    /// The type, alone or in the box of the fields few entities have.
    @usableFromInline var kind: Kind
    /// ``offset``, stored in 32 bits.
    @usableFromInline var storedOffset: Int32
    /// ``length``, stored in 32 bits.
    @usableFromInline var storedLength: Int32

    /// An entity's type and its rare fields in 8 bytes: the type alone, or a shared box
    /// with the type and the fields (never a box whose fields are all nil). With the 32-bit
    /// offset and length, an entity takes 16 bytes, not about 140: a message can hold
    /// millions of entities (10 MB of `||a` is 3.5 million spoilers).
    ///
    /// Visible to inlined code (``type``'s getter, ``init(_:offset:length:)``), so that a
    /// writer of thousands of entities reads a type with no call.
    @usableFromInline enum Kind: Sendable, Hashable {
        case plain(EntityType)
        case boxed(EntityExtras)
    }

    /// The most that ``offset``, ``length`` and ``end`` can be: 2³¹ − 1 UTF-16 code units,
    /// more than the text of any message a parser reads (SpoilerParser's `MessageParser`
    /// refuses an input of more bytes than this with a `ParseError`).
    public static let maxUTF16Offset = Int(Int32.max)

    /// The kind of formatting.
    public var type: EntityType {
        @inlinable get {
            switch kind {
            case .plain(let type): type
            case .boxed(let box): box.type
            }
        }
        set {
            switch kind {
            case .plain: kind = .plain(newValue)
            case .boxed(let box): kind = .boxed(EntityExtras(newValue, box.fields))
            }
        }
    }

    /// Whether ``type`` is ``EntityType/spoiler``, read without a copy of the box of rare
    /// fields where there is none: a loop over a message's entities (the layout's, for
    /// each message of a line filter) pays no outlined copy and destroy of ``Kind``.
    @inlinable package var isSpoiler: Bool {
        switch kind {
        case .plain(let type): type == .spoiler
        case .boxed: type == .spoiler
        }
    }

    /// Start of the entity, in UTF-16 code units from the start of the text.
    ///
    /// - Precondition: Within `-maxUTF16Offset...maxUTF16Offset` (a parser's intermediate
    ///   values may be negative; a message's are not).
    public var offset: Int {
        get { Int(storedOffset) }
        set { storedOffset = Int32(newValue) }
    }

    /// Length of the entity, in UTF-16 code units.
    ///
    /// - Precondition: Within `-maxUTF16Offset...maxUTF16Offset`.
    public var length: Int {
        get { Int(storedLength) }
        set { storedLength = Int32(newValue) }
    }

    /// The rare fields, nil when the entity has none.
    private var extras: EntityExtras? {
        if case .boxed(let box) = kind { return box }
        return nil
    }

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
        let fields = EntityExtras.Fields(
            url: url, language: language, customEmojiID: customEmojiID, userID: userID, unixTime: unixTime,
            tdlibDateFlags: tdlibDateFlags, dateTimeFormat: dateTimeFormat, reason: reason)
        kind = fields.isEmpty ? .plain(type) : .boxed(EntityExtras(type, fields))
        storedOffset = Int32(offset)
        storedLength = Int32(length)
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
    @inlinable
    public init(_ type: EntityType, offset: Int, length: Int) {
        kind = .plain(type)
        storedOffset = Int32(offset)
        storedLength = Int32(length)
    }

    /// Changes the boxed fields with value semantics: a new box, or none when all are nil.
    private mutating func updateExtras(_ change: (inout EntityExtras.Fields) -> Void) {
        let type = self.type
        var fields = extras?.fields ?? EntityExtras.Fields()
        change(&fields)
        kind = fields.isEmpty ? .plain(type) : .boxed(EntityExtras(type, fields))
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

/// The type and the rarely set fields of an ``Entity``, boxed; never changed once made.
@usableFromInline final class EntityExtras: Sendable, Hashable {
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

    @usableFromInline let type: EntityType
    let fields: Fields

    init(_ type: EntityType, _ fields: Fields) {
        self.type = type
        self.fields = fields
    }

    @usableFromInline static func == (a: EntityExtras, b: EntityExtras) -> Bool {
        a.type == b.type && a.fields == b.fields
    }

    @usableFromInline func hash(into h: inout Hasher) {
        h.combine(type)
        h.combine(fields)
    }
}
