import SpoilerCore

/// Flattens a parsed Markdown document into a ``Message``: chat text with entities.
///
/// The blocks become lines of text:
/// - paragraphs, headings, code blocks, HTML blocks, tables and block quotes are separated
///   by a blank line (`\n\n`); the items of a tight list by a single `\n`, of a loose one by
///   a blank line;
/// - a list item starts with its marker: `• ` for a bullet, `N. ` or `N) ` for an ordered
///   item counted from the list's start, then `[ ] ` or `[x] ` for a GFM task; nested
///   lists and an item's later lines are indented to the item's text (at most 16 levels);
/// - a heading is a line in `bold`; a thematic break is the line `———`;
/// - a code block is its text (without the last newline) as `pre`, with the first word of
///   the info string as `language`; an HTML block is its source, as is inline HTML;
/// - a block quote is a `blockquote` entity over its text;
/// - a table is a line per row with the cells joined by ` | `, the header row in `bold`;
/// - a soft line break is `\n` (the author's line, as chat shows it), so is a hard break.
///
/// Inline formatting becomes entities: emphasis `italic`, strong emphasis `bold`,
/// strikethrough, code spans `code`, spoilers `spoiler`, links and images `text_link`
/// (an image shows its description), or `url` when the link text is the destination
/// itself and `email` for `mailto:` autolinks. An entity nested in one of the same type
/// (and a quote in a quote) is dropped, as Telegram allows no such nesting; empty entities
/// are dropped. Offsets count UTF-16 code units.
///
/// - Complexity: O(n) in the size of the tree plus the text, iterative.
struct MarkdownFlattener {
    private let tree: MarkdownTree
    private var out: [UInt8] = []
    private var utf16Count = 0
    private var entities: [Entity] = []
    /// Per open container: the entity it opened (index into `entities`) and its start.
    private var open: [(kind: MarkdownTree.Kind, entity: Int?, utf8Start: Int)] = []
    private var openCounts: [Int] = Array(repeating: 0, count: EntityType.allCases.count)
    /// Newlines owed before the next content (0, 1 or 2).
    private var pendingBreaks = 0
    private var atLineStart = true
    /// Indentation (spaces) for each new line, per open list item.
    private var indents: [Int] = []
    /// Per open list: whether it is tight, and the next item's number. Block quotes push
    /// a loose entry so that their paragraphs are set apart.
    private var lists: [(isTight: Bool, ordered: Bool, next: Int, paren: Bool)] = []
    /// Cells already written in the current table row.
    private var cellsInRow = 0

    private static let maximumIndentLevels = 16

    init(_ tree: MarkdownTree) {
        self.tree = tree
        out.reserveCapacity(tree.bytes.count)
    }

    /// The message.
    static func message(from tree: MarkdownTree) -> Message {
        var f = MarkdownFlattener(tree)
        f.run()
        return Message(
            text: String(decoding: f.out, as: UTF8.self), entities: f.entities.filter { $0.length > 0 })
    }

    private mutating func run() {
        for event in tree.events {
            switch event {
            case .enter(let node): enter(node)
            case .exit(let kind): exit(kind)
            case .leaf(let node): leaf(node)
            }
        }
    }

    // MARK: Writing text

    /// The newline count owed after a block that just ended.
    private var blockGap: Int { (lists.last?.isTight ?? false) ? 1 : 2 }

    /// Writes owed newlines and the indentation of a new line.
    private mutating func startContent() {
        if pendingBreaks > 0 {
            if !out.isEmpty {
                for _ in 0..<pendingBreaks { appendByte(0x0A) }
                atLineStart = true
            }
            pendingBreaks = 0
        }
        if atLineStart {
            atLineStart = false
            if let indent = indents.last, indent > 0 {
                for _ in 0..<indent { appendByte(0x20) }
            }
        }
    }

    private mutating func appendByte(_ b: UInt8) {
        out.append(b)
        utf16Count += 1
    }

    /// Appends UTF-8 `bytes`, indenting each line after a newline when inside a list item.
    private mutating func write(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        startContent()
        let indent = indents.last ?? 0
        tree.bytes.withUnsafeBufferPointer { all in
            var n = 0
            var i = range.lowerBound
            while i < range.upperBound {
                let b = all[i]
                if b & 0xC0 != 0x80 { n += b >= 0xF0 ? 2 : 1 }
                out.append(b)
                if b == 0x0A && indent > 0 && i + 1 < range.upperBound {
                    for _ in 0..<indent { out.append(0x20) }
                    n += indent
                }
                i += 1
            }
            utf16Count += n
        }
    }

    private mutating func write(_ s: StaticString) {
        startContent()
        let p = s.utf8Start
        for i in 0..<s.utf8CodeUnitCount {
            let b = p[i]
            out.append(b)
            if b & 0xC0 != 0x80 { utf16Count += b >= 0xF0 ? 2 : 1 }
        }
    }

    private mutating func write(number: Int) {
        startContent()
        for b in String(number).utf8 { appendByte(b) }
    }

    /// A newline inside a block (line breaks, table rows).
    private mutating func newline() {
        startContent()
        appendByte(0x0A)
        atLineStart = true
    }

    // MARK: Entities

    private mutating func openEntity(_ kind: MarkdownTree.Kind, _ type: EntityType?, url: String? = nil,
                                     language: String? = nil) {
        var index: Int? = nil
        if let type {
            let slot = EntityType.allCases.firstIndex(of: type)!
            if openCounts[slot] == 0 {
                index = entities.count
                entities.append(Entity(type, offset: utf16Count, length: 0, url: url, language: language))
            }
            openCounts[slot] += 1
        }
        open.append((kind, index, out.count))
    }

    private mutating func closeEntity() {
        guard let top = open.popLast() else { return }
        guard let index = top.entity else {
            if let type = entityType(top.kind) { openCounts[EntityType.allCases.firstIndex(of: type)!] -= 1 }
            return
        }
        var entity = entities[index]
        openCounts[EntityType.allCases.firstIndex(of: entity.type)!] -= 1
        entity.length = utf16Count - entity.offset
        if entity.type == .textLink, let url = entity.url {
            let text = out[top.utf8Start...]
            if text.elementsEqual(url.utf8) {
                entity.type = .url
                entity.url = nil
            } else if url.hasPrefix("mailto:"), text.elementsEqual(url.utf8.dropFirst(7)) {
                entity.type = .email
                entity.url = nil
            }
        }
        entities[index] = entity
    }

    private func entityType(_ kind: MarkdownTree.Kind) -> EntityType? {
        switch kind {
        case .blockQuote: return .blockquote
        case .heading: return .bold
        case .emphasis: return .italic
        case .strong: return .bold
        case .strikethrough: return .strikethrough
        case .spoiler: return .spoiler
        case .link, .image: return .textLink
        case .tableRow: return nil
        default: return nil
        }
    }

    private func string(_ range: Range<Int>) -> String {
        String(decoding: tree.bytes[range], as: UTF8.self)
    }

    // MARK: Events

    private mutating func enter(_ node: MarkdownTree.Node) {
        switch node.kind {
        case .document, .customBlock, .footnoteDefinition, .customInline, .other:
            open.append((node.kind, nil, out.count))
        case .paragraph, .table:
            startContent()
            open.append((node.kind, nil, out.count))
        case .heading:
            startContent()
            openEntity(.heading, .bold)
        case .blockQuote:
            startContent()
            openEntity(.blockQuote, .blockquote)
            lists.append((false, false, 0, false))
        case .list:
            lists.append((node.isTight, node.isOrdered, node.start, node.isParenDelimited))
            open.append((node.kind, nil, out.count))
        case .item:
            startContent()
            let before = utf16Count
            if var list = lists.popLast() {
                if list.ordered {
                    write(number: list.next)
                    if list.paren { write(")") } else { write(".") }
                    write(" ")
                    list.next += 1
                } else {
                    write("• ")
                }
                lists.append(list)
            }
            if let checked = node.taskChecked { if checked { write("[x] ") } else { write("[ ] ") } }
            let markerWidth = utf16Count - before
            let outer = indents.last ?? 0
            indents.append(indents.count < Self.maximumIndentLevels ? outer + markerWidth : outer)
            open.append((node.kind, nil, out.count))
        case .tableRow:
            startContent()
            cellsInRow = 0
            if node.isHeaderRow { openEntity(.tableRow, .bold) } else { open.append((node.kind, nil, out.count)) }
        case .tableCell:
            if cellsInRow > 0 { write(" | ") }
            cellsInRow += 1
            open.append((node.kind, nil, out.count))
        case .emphasis: openEntity(.emphasis, .italic)
        case .strong: openEntity(.strong, .bold)
        case .strikethrough: openEntity(.strikethrough, .strikethrough)
        case .spoiler: openEntity(.spoiler, .spoiler)
        case .link, .image: openEntity(node.kind, .textLink, url: string(node.url))
        default:
            open.append((node.kind, nil, out.count))
        }
    }

    private mutating func exit(_ kind: MarkdownTree.Kind) {
        switch kind {
        case .blockQuote:
            lists.removeLast()
            closeEntity()
            pendingBreaks = blockGap
        case .list:
            lists.removeLast()
            closeEntity()
            pendingBreaks = blockGap
        case .item:
            indents.removeLast()
            closeEntity()
            pendingBreaks = blockGap
        case .paragraph, .heading, .table:
            closeEntity()
            pendingBreaks = blockGap
        case .tableRow:
            closeEntity()
            pendingBreaks = max(pendingBreaks, 1)
        default:
            closeEntity()
        }
    }

    private mutating func leaf(_ node: MarkdownTree.Node) {
        switch node.kind {
        case .text, .htmlInline:
            write(node.literal)
        case .softBreak, .lineBreak:
            newline()
        case .code:
            startContent()
            let start = utf16Count
            write(node.literal)
            addLeafEntity(.code, from: start)
        case .codeBlock:
            startContent()
            let start = utf16Count
            var literal = node.literal
            if tree.bytes[literal].last == 0x0A { literal = literal.lowerBound..<(literal.upperBound - 1) }
            write(literal)
            let info = tree.bytes[node.info]
            let word = info.prefix { $0 != 0x20 && $0 != 0x09 }
            addLeafEntity(.pre, from: start, language: word.isEmpty ? nil : String(decoding: word, as: UTF8.self))
            pendingBreaks = blockGap
        case .htmlBlock:
            var literal = node.literal
            while let last = tree.bytes[literal].last, last == 0x0A {
                literal = literal.lowerBound..<(literal.upperBound - 1)
            }
            write(literal)
            pendingBreaks = blockGap
        case .thematicBreak:
            write("———")
            pendingBreaks = blockGap
        default:
            break
        }
    }

    private mutating func addLeafEntity(_ type: EntityType, from start: Int, language: String? = nil) {
        guard utf16Count > start else { return }
        entities.append(Entity(type, offset: start, length: utf16Count - start, language: language))
    }
}
