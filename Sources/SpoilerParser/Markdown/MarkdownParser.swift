import SpoilerCore

/// Markdown (CommonMark + GitHub Flavored Markdown + `||spoiler||`) to ``Message``.
///
/// libcmark-gfm parses the input with the table, strikethrough, autolink, tagfilter and
/// tasklist extensions and the spoiler extension; ``MarkdownFlattener`` documents how the
/// blocks become lines and the inlines entities. Any bytes are accepted: invalid UTF-8 is
/// replaced with U+FFFD as `cmark-gfm --validate-utf8` does.
///
/// ```swift
/// let m = try MarkdownParser.parse(Array("**bold ||hidden|| text**".utf8))
/// // text "bold hidden text", bold 0..<16, spoiler 5..<11
/// ```
enum MarkdownParser {
    /// The message of the Markdown document `bytes`.
    ///
    /// Never throws: every input is a document.
    ///
    /// - Complexity: O(n), with no recursion over the document's depth.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        MarkdownFlattener.message(markdown: bytes)
    }
}
