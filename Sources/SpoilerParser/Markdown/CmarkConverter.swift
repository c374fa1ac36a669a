internal import CCmarkGFM
internal import CSpoilerSyntax

extension MarkdownTree {
    /// Parses `bytes` (any bytes: invalid UTF-8 becomes U+FFFD, as `--validate-utf8` does)
    /// with the GFM extensions and `||spoiler||`, and converts the cmark tree to Swift
    /// values. Every C object is freed before this returns.
    ///
    /// - Complexity: O(n), iterative.
    static func parse(_ bytes: [UInt8]) -> MarkdownTree {
        CmarkDocument.withDocument(bytes, options: MarkdownOptions.validateUTF8.rawValue) { _, root in
            var converter = CmarkConverter()
            converter.tree.bytes.reserveCapacity(bytes.count)
            converter.convert(root)
            return converter.tree
        }
    }
}

/// Walks a cmark-gfm tree once with `cmark_iter` and records it as a ``MarkdownTree``.
/// Extension nodes are recognised by their type string (their numeric types are handed
/// out at run time), cached per numeric type.
struct CmarkConverter {
    var tree = MarkdownTree()
    private var extensionKinds: [(type: UInt32, kind: MarkdownTree.Kind)] = []

    mutating func convert(_ root: OpaquePointer) {
        let iter = cmark_iter_new(root)!
        defer { cmark_iter_free(iter) }
        while true {
            let event = cmark_iter_next(iter)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iter) else { continue }
            let kind = kind(of: node)
            if event == CMARK_EVENT_EXIT {
                tree.events.append(.exit(kind))
                continue
            }
            var value = MarkdownTree.Node(kind: kind)
            switch kind {
            case .text, .code, .htmlInline, .htmlBlock, .codeBlock:
                value.literal = append(cmark_node_get_literal(node))
                if kind == .codeBlock { value.info = append(cmark_node_get_fence_info(node)) }
            case .link, .image:
                value.url = append(cmark_node_get_url(node))
            case .list:
                value.isOrdered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
                value.start = Int(cmark_node_get_list_start(node))
                value.isParenDelimited = cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM
                value.isTight = cmark_node_get_list_tight(node) != 0
            case .item:
                if let type = cmark_node_get_type_string(node), equals(type, "tasklist") {
                    value.taskChecked = cmark_gfm_extensions_get_tasklist_item_checked(node)
                }
            case .heading:
                value.level = Int(cmark_node_get_heading_level(node))
            case .tableRow:
                value.isHeaderRow = cmark_gfm_extensions_get_table_row_is_header(node) != 0
            default:
                break
            }
            // cmark_iter reports leaves (nodes that cannot have children) with ENTER only.
            switch kind {
            case .text, .softBreak, .lineBreak, .code, .htmlInline, .htmlBlock, .codeBlock,
                .thematicBreak, .footnoteReference:
                tree.events.append(.leaf(value))
            default:
                tree.events.append(.enter(value))
            }
        }
    }

    /// Appends a C string to the byte buffer and returns its range.
    private mutating func append(_ string: UnsafePointer<CChar>?) -> Range<Int> {
        let start = tree.bytes.count
        guard let string else { return start..<start }
        var n = 0
        while string[n] != 0 { n += 1 }
        string.withMemoryRebound(to: UInt8.self, capacity: n) {
            tree.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: n))
        }
        return start..<tree.bytes.count
    }

    private mutating func kind(of node: OpaquePointer) -> MarkdownTree.Kind {
        let type = cmark_node_get_type(node)
        switch type {
        case CMARK_NODE_DOCUMENT: return .document
        case CMARK_NODE_BLOCK_QUOTE: return .blockQuote
        case CMARK_NODE_LIST: return .list
        case CMARK_NODE_ITEM: return .item
        case CMARK_NODE_CODE_BLOCK: return .codeBlock
        case CMARK_NODE_HTML_BLOCK: return .htmlBlock
        case CMARK_NODE_CUSTOM_BLOCK: return .customBlock
        case CMARK_NODE_PARAGRAPH: return .paragraph
        case CMARK_NODE_HEADING: return .heading
        case CMARK_NODE_THEMATIC_BREAK: return .thematicBreak
        case CMARK_NODE_FOOTNOTE_DEFINITION: return .footnoteDefinition
        case CMARK_NODE_TEXT: return .text
        case CMARK_NODE_SOFTBREAK: return .softBreak
        case CMARK_NODE_LINEBREAK: return .lineBreak
        case CMARK_NODE_CODE: return .code
        case CMARK_NODE_HTML_INLINE: return .htmlInline
        case CMARK_NODE_CUSTOM_INLINE: return .customInline
        case CMARK_NODE_EMPH: return .emphasis
        case CMARK_NODE_STRONG: return .strong
        case CMARK_NODE_LINK: return .link
        case CMARK_NODE_IMAGE: return .image
        case CMARK_NODE_FOOTNOTE_REFERENCE: return .footnoteReference
        default: break
        }
        let raw = UInt32(type.rawValue)
        for known in extensionKinds where known.type == raw { return known.kind }
        var kind = MarkdownTree.Kind.other
        if let name = cmark_node_get_type_string(node) {
            if equals(name, "spoiler") {
                kind = .spoiler
            } else if equals(name, "strikethrough") {
                kind = .strikethrough
            } else if equals(name, "table") {
                kind = .table
            } else if equals(name, "table_header") || equals(name, "table_row") {
                kind = .tableRow
            } else if equals(name, "table_cell") {
                kind = .tableCell
            }
        }
        // "table_header" and "table_row" share one numeric type; both are rows.
        extensionKinds.append((raw, kind))
        return kind
    }

    private func equals(_ c: UnsafePointer<CChar>, _ s: StaticString) -> Bool {
        let p = s.utf8Start
        var i = 0
        while i < s.utf8CodeUnitCount {
            if UInt8(bitPattern: c[i]) != p[i] { return false }
            i += 1
        }
        return c[i] == 0
    }
}
