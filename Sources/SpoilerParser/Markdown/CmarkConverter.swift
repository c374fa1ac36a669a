internal import CCmarkGFM
internal import CSpoilerSyntax

/// Parses Markdown and walks it: the only code that reads cmark nodes.
enum MarkdownDocument {
    /// Parses `bytes` and hands every node to `visitor` as Swift values.
    ///
    /// Any bytes are read: invalid UTF-8 becomes U+FFFD, as `--validate-utf8` does. The
    /// GFM extensions and `||spoiler||` are attached. Every C object is freed before this
    /// returns.
    ///
    /// - Complexity: O(n), iterative.
    static func walk<V: MarkdownVisitor>(_ bytes: [UInt8], _ visitor: inout V) {
        CmarkDocument.withDocument(bytes, options: MarkdownOptions.validateUTF8.rawValue) { doc in
            var converter = CmarkConverter()
            converter.convert(doc.root, &visitor)
        }
    }
}

/// Walks a cmark-gfm tree once, with `cmark_iter`.
///
/// Each node goes, as a ``MarkdownNode``, to a ``MarkdownVisitor``.
/// Extension nodes are recognised by their type string (their numeric types are handed
/// out at run time), cached per numeric type.
struct CmarkConverter {
    /// The numeric types of the extension nodes, found once per process by parsing a
    /// document that holds each of them.
    private static let knownExtensionKinds: [(type: UInt32, kind: MarkdownNodeKind)] = {
        let probe = Array("~~s~~ ||h||\n\n| t |\n|---|\n| c |\n".utf8)
        return CmarkDocument.withDocument(probe, options: 0) { doc in
            var found: [(type: UInt32, kind: MarkdownNodeKind)] = []
            let iter = cmark_iter_new(doc.root)!
            defer { cmark_iter_free(iter) }
            while cmark_iter_next(iter) != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iter) else { continue }
                let raw = UInt32(cmark_node_get_type(node).rawValue)
                let kind = extensionKind(node)
                if kind != .other && !found.contains(where: { $0.type == raw }) { found.append((raw, kind)) }
            }
            return found
        }
    }()

    mutating func convert<V: MarkdownVisitor>(_ root: OpaquePointer, _ visitor: inout V) {
        let iter = cmark_iter_new(root)!
        defer { cmark_iter_free(iter) }
        let kinds = Self.kindTable
        while true {
            let event = cmark_iter_next(iter)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iter) else { continue }
            let kind = kind(of: node, kinds)
            if event == CMARK_EVENT_EXIT {
                visitor.exit(kind)
                continue
            }
            var value = MarkdownNode(kind: kind)
            switch kind {
            case .text, .code, .htmlInline, .htmlBlock, .codeBlock:
                var length = 0
                let literal = spoiler_syntax_node_literal(node, &length)
                value.literal = UnsafeBufferPointer(start: literal, count: literal == nil ? 0 : length)
                if kind == .codeBlock { value.info = bytes(cmark_node_get_fence_info(node)) }
            case .link, .image:
                value.url = bytes(cmark_node_get_url(node))
            case .list:
                value.isOrdered = cmark_node_get_list_type(node) == CMARK_ORDERED_LIST
                value.start = Int(cmark_node_get_list_start(node))
                value.isParenDelimited = cmark_node_get_list_delim(node) == CMARK_PAREN_DELIM
                value.isTight = cmark_node_get_list_tight(node) != 0
            case .item:
                if let type = cmark_node_get_type_string(node), Self.equals(type, "tasklist") {
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
                visitor.leaf(value)
            default:
                visitor.enter(value)
            }
        }
    }

    /// The bytes of a C string owned by the tree (valid until the tree is freed).
    private func bytes(_ string: UnsafePointer<CChar>?) -> UnsafeBufferPointer<UInt8> {
        guard let string else { return UnsafeBufferPointer(start: nil, count: 0) }
        return string.withMemoryRebound(to: UInt8.self, capacity: 1) { p in
            var n = 0
            while p[n] != 0 { n += 1 }
            return UnsafeBufferPointer(start: p, count: n)
        }
    }

    /// Node kinds by numeric type: block types at `type & 0x3F`, inline ones 64 further
    /// (cmark numbers its types, extension types after the core ones, from 1 up).
    private static let kindTable: [MarkdownNodeKind?] = {
        var table = [MarkdownNodeKind?](repeating: nil, count: 128)
        let core: [(cmark_node_type, MarkdownNodeKind)] = [
            (CMARK_NODE_DOCUMENT, .document), (CMARK_NODE_BLOCK_QUOTE, .blockQuote), (CMARK_NODE_LIST, .list),
            (CMARK_NODE_ITEM, .item), (CMARK_NODE_CODE_BLOCK, .codeBlock), (CMARK_NODE_HTML_BLOCK, .htmlBlock),
            (CMARK_NODE_CUSTOM_BLOCK, .customBlock), (CMARK_NODE_PARAGRAPH, .paragraph),
            (CMARK_NODE_HEADING, .heading), (CMARK_NODE_THEMATIC_BREAK, .thematicBreak),
            (CMARK_NODE_FOOTNOTE_DEFINITION, .footnoteDefinition), (CMARK_NODE_TEXT, .text),
            (CMARK_NODE_SOFTBREAK, .softBreak), (CMARK_NODE_LINEBREAK, .lineBreak), (CMARK_NODE_CODE, .code),
            (CMARK_NODE_HTML_INLINE, .htmlInline), (CMARK_NODE_CUSTOM_INLINE, .customInline),
            (CMARK_NODE_EMPH, .emphasis), (CMARK_NODE_STRONG, .strong), (CMARK_NODE_LINK, .link),
            (CMARK_NODE_IMAGE, .image), (CMARK_NODE_FOOTNOTE_REFERENCE, .footnoteReference),
        ]
        for (type, kind) in core { if let i = slot(UInt32(type.rawValue)) { table[i] = kind } }
        for known in knownExtensionKinds { if let i = slot(known.type) { table[i] = known.kind } }
        return table
    }()

    private static func slot(_ raw: UInt32) -> Int? {
        guard raw & 0x3FC0 == 0 else { return nil }
        return Int((raw >> 14) & 1) * 64 + Int(raw & 0x3F)
    }

    /// The kind of `node`, from `kinds` (``kindTable``) or else by its type string.
    private func kind(of node: OpaquePointer, _ kinds: [MarkdownNodeKind?]) -> MarkdownNodeKind {
        let raw = UInt32(cmark_node_get_type(node).rawValue)
        if let i = Self.slot(raw), let kind = kinds[i] { return kind }
        return Self.extensionKind(node)
    }

    /// The kind of an extension node, by its type string.
    private static func extensionKind(_ node: OpaquePointer) -> MarkdownNodeKind {
        var kind = MarkdownNodeKind.other
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
        return kind
    }

    private static func equals(_ c: UnsafePointer<CChar>, _ s: StaticString) -> Bool {
        let p = s.utf8Start
        var i = 0
        while i < s.utf8CodeUnitCount {
            if UInt8(bitPattern: c[i]) != p[i] { return false }
            i += 1
        }
        return c[i] == 0
    }
}
