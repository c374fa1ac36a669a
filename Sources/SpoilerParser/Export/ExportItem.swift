public import SpoilerCore

/// One message of a Telegram Desktop export, read by ``ExportReader``.
///
/// The text is read from `text_entities` (an array of `{type, text, …}` parts, which
/// Telegram Desktop always writes), or, when that is missing, from `text` (a string, or an
/// array of strings and parts). The parts' texts are joined; each part of a formatting type
/// becomes an entity over its text, with the export's names mapped to the Bot API's:
///
/// | export part | entity |
/// |---|---|
/// | `plain` | none |
/// | `bold`, `italic`, `underline`, `strikethrough`, `spoiler`, `code`, `mention`, `hashtag`, `cashtag`, `bot_command`, `email`, `bank_card`, `blockquote` | the same type |
/// | `pre` (`language`) | `pre` (`language`, left out when empty) |
/// | `text_link` (`href`) | `text_link` (`url`) |
/// | `link` | `url` |
/// | `mention_name` (`user_id`) | `text_mention` (`user_id`) |
/// | `phone` | `phone_number` |
/// | `custom_emoji` (`document_id`) | `custom_emoji` (`custom_emoji_id`) |
/// | `blockquote` with `collapsed: true`, `expandable_blockquote` | `expandable_blockquote` |
///
/// Unknown part types keep their text and give no entity, so that an export from a newer
/// Telegram Desktop still reads. Parts with empty text give no entity.
///
/// Messages of type `service` (a member joined, a chat was created, …) are skipped unless
/// they carry text; all other messages are kept, even with empty text (a photo without a
/// caption), so that every message of the chat has its line.
public struct ExportItem: Sendable, Hashable {
    /// The message's `id`, as raw JSON.
    ///
    /// As it was written in the export (`42`); nil if the message had none.
    public var id: String?
    /// The chat's `id`, as raw JSON, in a whole-account export.
    ///
    /// Message ids repeat across chats; nil for a one-chat export.
    public var chatID: String?
    /// 1-based position of the message in the export, skipped messages included.
    public var index: Int
    /// The message, or why it could not be read (the rest of the export still is).
    public var result: Result<Message, ParseError>
    /// Who sent it: the export's `from` (or `actor`, for a service message with text);
    /// nil when the export names no one.
    public var sender: String?
    /// When it was sent, as the export writes it: `date`, local time without a zone
    /// (`2026-11-01T19:01:10`); nil when missing.
    public var date: String?

    /// An item from its parts, each as described on its property; `sender` and `date` default to
    /// nil (the export named no one, or gave no date).
    public init(
        id: String?, chatID: String?, index: Int, result: Result<Message, ParseError>, sender: String? = nil,
        date: String? = nil
    ) {
        self.id = id
        self.chatID = chatID
        self.index = index
        self.result = result
        self.sender = sender
        self.date = date
    }

    /// Reads one message object of the export; nil for a message that is skipped.
    init?(_ value: JSONValue, index: Int, chatID: JSONValue?) {
        self.index = index
        self.chatID = chatID.map(\.jsonString)
        sender = value["from"]?.stringValue ?? value["actor"]?.stringValue
        date = value["date"]?.stringValue
        guard case .object = value else {
            id = nil
            result = .failure(ParseError(.invalidJSON, "message \(index): expected an object"))
            return
        }
        switch value["id"] {
        case .number?, .string?: id = value["id"]!.jsonString
        default: id = nil
        }
        let name = id.map { "message \($0)" } ?? "message \(index)"
        do {
            let message = try ExportItem.message(value, name: name)
            if value["type"]?.stringValue == "service" && message.text.isEmpty { return nil }
            result = .success(message)
        } catch {
            result = .failure(error)
        }
    }

    static func message(_ value: JSONValue, name: String) throws(ParseError) -> Message {
        let parts: [JSONValue]
        switch value["text_entities"] ?? value["text"] {
        case nil, .null?: return Message(text: "")
        case .string(let s)?: return Message(text: s)
        case .array(let a)?: parts = a
        default:
            throw ParseError(.invalidJSON, "\(name): 'text' must be a string or an array of parts")
        }
        var text = ""
        var utf16 = 0
        var entities: [Entity] = []
        for (k, part) in parts.enumerated() {
            switch part {
            case .string(let s):
                text += s
                utf16 += s.utf16.count
            case .object:
                guard let s = part["text"]?.stringValue else {
                    throw ParseError(.invalidJSON, "\(name): part \(k) has no 'text' string")
                }
                let length = s.utf16.count
                if length > 0, let e = try entity(part, offset: utf16, length: length, name: "\(name), part \(k)") {
                    entities.append(e)
                }
                text += s
                utf16 += length
            default:
                throw ParseError(.invalidJSON, "\(name): part \(k) must be a string or an object")
            }
        }
        return Message(text: text, entities: entities)
    }

    /// The entity for one part, or nil for `plain` and unknown types.
    static func entity(_ part: JSONValue, offset: Int, length: Int, name: String) throws(ParseError) -> Entity? {
        let type = part["type"]?.stringValue ?? "plain"
        var e = Entity(.bold, offset: offset, length: length)
        switch type {
        case "bold", "italic", "underline", "strikethrough", "spoiler", "code", "mention", "hashtag", "cashtag",
            "bot_command", "email", "bank_card", "expandable_blockquote":
            e.type = EntityType(rawValue: type)!
        case "blockquote":
            e.type = part["collapsed"] == .bool(true) ? .expandableBlockquote : .blockquote
        case "pre":
            e.type = .pre
            if let language = part["language"]?.stringValue, !language.isEmpty { e.language = language }
        case "text_link":
            e.type = .textLink
            guard let href = part["href"]?.stringValue else {
                throw ParseError(.invalidEntity, "\(name): a text_link part needs 'href'")
            }
            e.url = href
        case "link":
            e.type = .url
        case "mention_name":
            e.type = .textMention
            guard let user = part["user_id"], let id = user.intValue ?? user.stringValue.flatMap({ Int64($0) }) else {
                throw ParseError(.invalidEntity, "\(name): a mention_name part needs a numeric 'user_id'")
            }
            e.userID = id
        case "phone":
            e.type = .phoneNumber
        case "custom_emoji":
            e.type = .customEmoji
            switch part["document_id"] {
            case .string(let s)?: e.customEmojiID = s
            case .number(let n)?: e.customEmojiID = n
            default:
                throw ParseError(.invalidEntity, "\(name): a custom_emoji part needs 'document_id'")
            }
        default:
            return nil  // plain, and types this reader does not know
        }
        return e
    }
}
