/// The kind of a formatted run of message text, named as in the Telegram Bot API's
/// `MessageEntity.type`.
///
/// Raw values are the Bot API's strings, so they can be written to and read from JSON
/// unchanged.
public enum EntityType: String, Sendable, Hashable, CaseIterable, Codable {
    /// An `@username` mention.
    case mention
    /// A `#hashtag`.
    case hashtag
    /// A `$USD` cashtag.
    case cashtag
    /// A `/start@bot` command.
    case botCommand = "bot_command"
    /// A URL in the text (`https://telegram.org`).
    case url
    /// An email address.
    case email
    /// A phone number.
    case phoneNumber = "phone_number"
    /// A bank card number.
    case bankCard = "bank_card"
    /// Bold text.
    case bold
    /// Italic text.
    case italic
    /// Underlined text.
    case underline
    /// Struck-through text.
    case strikethrough
    /// Hidden text, shown as dust until revealed.
    case spoiler
    /// A block quotation.
    case blockquote
    /// A block quotation shown collapsed until expanded.
    case expandableBlockquote = "expandable_blockquote"
    /// Monospace code inside a line.
    case code
    /// A block of monospace code, with an optional ``Entity/language``.
    case pre
    /// Text that links to ``Entity/url``.
    case textLink = "text_link"
    /// A mention of a user without a username (``Entity/userID``).
    case textMention = "text_mention"
    /// A custom emoji sticker (``Entity/customEmojiID``); its text is the emoji shown without it.
    case customEmoji = "custom_emoji"
    /// A date and time (``Entity/unixTime``), shown in the reader's time zone.
    case dateTime = "date_time"
}
