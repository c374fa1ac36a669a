import SpoilerCore

/// Telegram's HTML subset, with TDLib's semantics (`parse_html` in
/// td/telegram/MessageEntity.cpp): the same text, entities, order and errors.
///
/// - Tags, in any case: `b strong i em u ins s strike del tg-spoiler`,
///   `span class="tg-spoiler"`, `a href` (a `tg://user?id=` link gives a `text_mention`, an
///   invalid link drops the entity, `<a>` alone uses its text as the link), `code`, `pre`,
///   `pre` around `code class="language-x"` (a `pre` with a language), `blockquote`,
///   `blockquote expandable`, `tg-emoji emoji-id`, `tg-time unix format`.
/// - Attributes: `name`, `name=token` (letters, digits, `.`, `-`; lower-cased) or
///   `name="string"`/`'string'` with character references; unknown ones are ignored and the
///   last of a name wins. An end tag may be just `</>`.
/// - Character references: `&lt; &gt; &amp; &quot;` and `&#N;`/`&#xN;` (the `;` is
///   optional); anything else is text.
/// - Empty entities are dropped. A decoded lone surrogate is an error.
///
/// - Complexity: O(n) in the input bytes; the stack of open tags lives on the heap.
public enum HTMLParser {
    /// Parses `bytes` as Telegram HTML.
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

    /// Parses `text` as Telegram HTML.
    ///
    /// ```swift
    /// let message = try HTMLParser.parse("<b>bold</b> <tg-spoiler>hidden</tg-spoiler>")
    /// ```
    ///
    /// - Parameter text: The message as written.
    /// - Returns: The message: its text and its entities, offsets in UTF-16 code units.
    /// - Throws: ``ParseError`` naming the position and the reason.
    public static func parse(_ text: String) throws(ParseError) -> Message {
        try parse(validUTF8: Array(text.utf8))
    }

    /// Parses Telegram HTML `bytes` (valid UTF-8).
    ///
    /// - Throws: ``ParseError`` with TDLib's message and the byte position.
    static func parse(validUTF8 bytes: [UInt8]) throws(ParseError) -> Message {
        try HTMLScanner.scan(bytes)
    }
}
