/// The kind of a formatted run of message text, named as in the Telegram Bot API's
/// `MessageEntity.type`.
///
/// Raw values are the Bot API's strings, so they can be written to and read from JSON
/// unchanged.
public enum EntityType: String, Sendable, Hashable, CaseIterable, Codable {
    case mention
    case hashtag
    case cashtag
    case botCommand = "bot_command"
    case url
    case email
    case phoneNumber = "phone_number"
    case bankCard = "bank_card"
    case bold
    case italic
    case underline
    case strikethrough
    case spoiler
    case blockquote
    case expandableBlockquote = "expandable_blockquote"
    case code
    case pre
    case textLink = "text_link"
    case textMention = "text_mention"
    case customEmoji = "custom_emoji"
    case dateTime = "date_time"
}
