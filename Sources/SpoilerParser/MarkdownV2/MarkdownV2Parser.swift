import SpoilerCore

/// Telegram Bot API MarkdownV2, with TDLib's semantics (`parse_markdown_v2` in
/// td/telegram/MessageEntity.cpp): the same text, the same entities in the same order, the
/// same inputs rejected with the same messages.
///
/// The rules, as TDLib applies them:
/// - `\` followed by any ASCII character 1–126 gives that character; any other `\` is text.
/// - Outside code, the characters `_*[]()~` and the backtick, and `>#+-=|{}.!`, are reserved:
///   each opens or closes an entity or is an error ("Character '.' is reserved and must be
///   escaped with the preceding '\'"). Inside code and pre only the backtick is special.
/// - `*bold*`, `_italic_`, `__underline__`, `~strikethrough~`, `||spoiler||`, code between
///   backticks, pre between three backticks and a line break after the language,
///   `[text](url)` (a `tg://user?id=` URL gives a
///   `text_mention`; an invalid URL drops the entity; `[text]` alone uses the text as URL),
///   `![emoji](tg://emoji?id=N)` and `![text](tg://time?unix=T&format=F)`. An entity closes
///   only the innermost open one; empty entities are dropped.
/// - `>` at the start of a line (after nothing but `\r` since the start or the last line
///   break outside code, escaped or not) starts a
///   block quotation that goes on while each line break is followed by `>`; it ends with,
///   and includes, the first line break not followed by `>`. Entities opened inside it must
///   close inside it. `||` right before that end (or the end of the text) makes it an
///   `expandable_blockquote`.
///
/// - Complexity: O(n) in the input bytes, with a heap-allocated stack of open entities, except
///   that a `[text]` link without a URL copies its text to check it as a URL (nested ones
///   copy nested text again, as TDLib does).
public enum MarkdownV2Parser {
    /// Parses `bytes` as Telegram MarkdownV2.
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

    /// Parses `text` as Telegram MarkdownV2.
    ///
    /// ```swift
    /// let message = try MarkdownV2Parser.parse("*bold* ||hidden||")
    /// ```
    ///
    /// - Parameter text: The message as written.
    /// - Returns: The message: its text and its entities, offsets in UTF-16 code units.
    /// - Throws: ``ParseError`` naming the position and the reason.
    public static func parse(_ text: String) throws(ParseError) -> Message {
        try parse(validUTF8: Array(text.utf8))
    }

    /// Parses MarkdownV2 `bytes` (valid UTF-8).
    ///
    /// - Throws: ``ParseError`` with TDLib's message and the byte position.
    static func parse(validUTF8 bytes: [UInt8]) throws(ParseError) -> Message {
        try MarkdownV2Scanner.scan(bytes)
    }
}
