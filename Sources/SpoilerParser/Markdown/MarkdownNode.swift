/// The kinds of node in a parsed Markdown document: CommonMark's, GFM's and the spoiler.
enum MarkdownNodeKind: UInt8, Sendable {
    case document, blockQuote, list, item, codeBlock, htmlBlock, customBlock, paragraph
    case heading, thematicBreak, footnoteDefinition, table, tableRow, tableCell
    case text, softBreak, lineBreak, code, htmlInline, customInline, emphasis, strong
    case link, image, footnoteReference, strikethrough, spoiler
    /// A node of an extension this package does not know; its children are kept.
    case other
}

/// One node of a parsed Markdown document, as `CmarkConverter` hands it to a
/// ``MarkdownVisitor``: plain Swift values, plus the node's text as bytes that stay valid
/// only during the visitor call (they belong to the cmark tree, which is freed after).
struct MarkdownNode {
    var kind: MarkdownNodeKind
    /// Text of `text`, `code`, `htmlInline`, `htmlBlock` and `codeBlock` nodes (UTF-8).
    var literal: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    /// Destination of a link or image (UTF-8).
    var url: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    /// Info string of a fenced code block (UTF-8).
    var info: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0)
    /// Lists: ordered (else bullet), first number, `)` delimiter (else `.`), tight.
    var isOrdered = false
    var start = 0
    var isParenDelimited = false
    var isTight = false
    /// Heading level, 1 to 6.
    var level = 0
    /// A GFM task list item: nil for an ordinary item, else whether it is checked.
    var taskChecked: Bool? = nil
    /// A table's header row.
    var isHeaderRow = false
}

/// Receives a Markdown document's nodes in document order: each container entered and
/// exited, each node without children (text, code, breaks, code and HTML blocks,
/// thematic breaks) once.
///
/// A walk is iterative (cmark's iterator), so 10,000 nested block quotes cost no stack.
protocol MarkdownVisitor {
    mutating func enter(_ node: MarkdownNode)
    mutating func exit(_ kind: MarkdownNodeKind)
    mutating func leaf(_ node: MarkdownNode)
}
