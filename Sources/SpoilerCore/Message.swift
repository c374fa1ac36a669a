/// A chat message: plain text plus formatting entities, as in the Telegram Bot API.
///
/// Entity offsets and lengths count UTF-16 code units of `text`. Entities are kept in
/// canonical order (by offset, then by length descending), see ``Entity/canonicalOrder(_:_:)``.
///
/// ```swift
/// let message = Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)])
/// print(message.jsonString)  // {"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}
/// ```
public struct Message: Sendable, Hashable {
    /// The text as the reader sees it, without markup.
    public var text: String
    /// The formatting entities, in canonical order.
    public var entities: [Entity]

    /// Creates a message. Entities are put into canonical order (a stable sort).
    public init(text: String, entities: [Entity] = []) {
        self.text = text
        self.entities = Message.sorted(entities)
    }

    /// Creates a message keeping `entities` in the order given.
    public init(text: String, unsortedEntities entities: [Entity]) {
        self.text = text
        self.entities = entities
    }

    /// `entities` in canonical order; a stable sort, so equal keys keep their order.
    public static func sorted(_ entities: [Entity]) -> [Entity] {
        // Most readers make their entities in order already: then there is nothing to move.
        var ordered = true
        for k in entities.indices.dropFirst() where Entity.canonicalOrder(entities[k], entities[k - 1]) {
            ordered = false
            break
        }
        if ordered { return entities }
        return entities.enumerated().sorted { l, r in
            if Entity.canonicalOrder(l.element, r.element) { return true }
            if Entity.canonicalOrder(r.element, l.element) { return false }
            return l.offset < r.offset
        }.map(\.element)
    }

    /// Length of `text` in UTF-16 code units.
    public var utf16Length: Int { text.utf16.count }

    /// The text covered by `entity`, or nil when the entity is out of range or splits a
    /// surrogate pair.
    public func text(of entity: Entity) -> Substring? {
        let u = text.utf16
        guard entity.offset >= 0, entity.length >= 0, entity.end <= u.count,
            let start = u.index(u.startIndex, offsetBy: entity.offset, limitedBy: u.endIndex),
            let end = u.index(start, offsetBy: entity.length, limitedBy: u.endIndex),
            let s = start.samePosition(in: text.unicodeScalars),
            let e = end.samePosition(in: text.unicodeScalars)
        else { return nil }
        return text[s..<e]
    }
}
