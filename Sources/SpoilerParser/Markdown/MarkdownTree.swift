/// A parsed Markdown document as plain Swift values: its nodes in document order, each
/// container entered and exited, each leaf once, with all literal text in one byte buffer.
///
/// Made from the cmark-gfm tree by `CmarkConverter` (the only code that touches cmark
/// nodes) and read by ``MarkdownFlattener``. A flat list keeps every walk over it
/// iterative, so 10,000 nested block quotes cost no stack.
struct MarkdownTree {
    /// The kinds of node, core CommonMark and GFM ones and the spoiler.
    enum Kind: UInt8, Sendable {
        case document, blockQuote, list, item, codeBlock, htmlBlock, customBlock, paragraph
        case heading, thematicBreak, footnoteDefinition, table, tableRow, tableCell
        case text, softBreak, lineBreak, code, htmlInline, customInline, emphasis, strong
        case link, image, footnoteReference, strikethrough, spoiler
        /// A node of an extension this package does not know; its children are kept.
        case other
    }

    /// One node and what the flattening needs of it. Ranges index ``bytes``.
    struct Node: Sendable {
        var kind: Kind
        /// Text of `text`, `code`, `htmlInline`, `htmlBlock` and `codeBlock` nodes.
        var literal: Range<Int> = 0..<0
        /// Destination of a link or image.
        var url: Range<Int> = 0..<0
        /// Info string of a fenced code block.
        var info: Range<Int> = 0..<0
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

    /// A step of the walk over the document.
    enum Event: Sendable {
        case enter(Node)
        case exit(Kind)
        /// A node without children (text, code, breaks, code and HTML blocks, …).
        case leaf(Node)
    }

    var events: [Event] = []
    /// The UTF-8 bytes of all literals and destinations.
    var bytes: [UInt8] = []
}
