import SpoilerCore

/// ``Message`` to Markdown (CommonMark + GFM + `||spoiler||`), escaped so that parsing the
/// output with ``MarkdownParser`` gives the same message wherever Markdown can say it.
///
/// - `bold` `**…**`, `italic` `*…*`, `strikethrough` `~~…~~`, `spoiler` `||…||`, `code` a
///   code span with a long enough backtick fence, `text_link` `[…](<url>)`, `url` and
///   `email` links whose text is the address, `pre` a fenced code block with its language,
///   `blockquote` (and `expandable_blockquote`) lines prefixed with `> `.
/// - Inline entities are trimmed of surrounding whitespace (Markdown delimiters cannot
///   touch it); entities that cross each other are split; nothing is written inside code.
/// - Text is escaped: `\`, the backtick, `*`, `_`, `[`, `]`, `<`, `>`, `|`, `~` and `&` always,
///   `#`, `+`, `-`, `=`, `:` and a list number's `.` or `)` at the start of a line, the `:` of
///   `://`, an `@` after an address character and the `.` of `www.` (so that no autolink
///   appears); spaces and tabs at the start or end of a line become `&#32;` and `&#9;`,
///   `\r` becomes `&#13;`, and newlines that Markdown would drop (at the start or the end
///   of the text, or a third one in a row) become `&#10;`.
///
/// Not representable, and so changed by a round trip: `underline` and the other entity
/// types (their text is kept), a `pre` or `blockquote` that does not cover whole lines (it
/// is moved to lines of its own), the line right after a block quote (a blank line is
/// added), a new line inside `code`, emphasis whose delimiters cannot flank (as in
/// `**(a)**b`), and an email address in plain text (GFM's autolink extension finds it
/// after escapes are resolved, so it reads back as an `email` entity).
public enum MarkdownSerializer {
    /// `message` written as Markdown (CommonMark + GFM + `||spoiler||`).
    ///
    /// - Parameter message: The message to write.
    /// - Returns: The markup.
    public static func serialize(_ message: Message) -> String {
        serialize(message, spoilerOpen: "||", spoilerClose: "||")
    }

    /// `message` as Markdown whose spoilers open with `spoilerOpen` and close with
    /// `spoilerClose` (Reddit writes `>!` and `!<`).
    static func serialize(_ message: Message, spoilerOpen: String, spoilerClose: String) -> String {
        var writer = MarkdownWriter(message)
        writer.spoilerOpen = spoilerOpen
        writer.spoilerClose = spoilerClose
        writer.run()
        return String(decoding: writer.out, as: UTF8.self)
    }
}
