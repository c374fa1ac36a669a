import SpoilerCore

/// Markdown (CommonMark + GitHub Flavored Markdown + `||spoiler||`) to ``Message``.
///
/// libcmark-gfm parses the input with the table, strikethrough, autolink, tagfilter and
/// tasklist extensions and the spoiler extension; `MarkdownFlattener` documents how the
/// blocks become lines and the inlines entities. Any bytes are accepted: invalid UTF-8 is
/// replaced with U+FFFD as `cmark-gfm --validate-utf8` does.
///
/// ```swift
/// let m = try MarkdownParser.parse(Array("**bold ||hidden|| text**".utf8))
/// // text "bold hidden text", bold 0..<16, spoiler 5..<11
/// ```
public enum MarkdownParser {
    /// The message of the Markdown document `text`.
    ///
    /// ```swift
    /// let message = try MarkdownParser.parse("**bold ||hidden|| text**")
    /// ```
    ///
    /// - Parameter text: The document.
    /// - Returns: The flattened message: its text and entities, offsets in UTF-16 code units.
    /// - Throws: Never: every input is a document (the signature matches the other parsers').
    public static func parse(_ text: String) throws(ParseError) -> Message {
        try parse(Array(text.utf8))
    }

    /// The message of the Markdown document `bytes`.
    ///
    /// Any bytes are accepted: invalid UTF-8 becomes U+FFFD, as `cmark-gfm --validate-utf8` does.
    ///
    /// - Parameter bytes: The document's bytes.
    /// - Returns: The flattened message: its text and entities, offsets in UTF-16 code units.
    /// - Throws: Never: every input is a document (the signature matches the other parsers').
    /// - Complexity: O(n), with no recursion over the document's depth.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        MarkdownFlattener.message(markdown: bytes)
    }
}
