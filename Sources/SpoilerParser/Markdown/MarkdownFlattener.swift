import SpoilerCore

/// Flattens a Markdown document into a ``Message``: chat text with entities.
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
struct MarkdownFlattener: MarkdownVisitor {
    private var out: ByteWriter
    private var utf16Count = 0
    /// The entities so far, kept small until the end (an ``Entity`` is large).
    private var entities: [PendingEntity] = []
    /// Per open container: the entity it opened (index into `entities`) and its start.
    private var open: [(kind: MarkdownNodeKind, entity: Int?, utf8Start: Int)] = []
    /// How many entities of each type are open (see `slot`): an entity inside one of the
    /// same type is dropped.
    private var openCounts = OpenCounts()
    /// Newlines owed before the next content (0, 1 or 2).
    private var pendingBreaks = 0
    private var atLineStart = true
    /// Indentation (spaces) for each new line, per open list item.
    private var indents: [Int] = []
    /// Per open list: whether it is tight, and the next item's number.
    ///
    /// Block quotes push a loose entry so that their paragraphs are set apart.
    private var lists: [(isTight: Bool, ordered: Bool, next: Int, paren: Bool)] = []
    /// Cells already written in the current table row.
    private var cellsInRow = 0

    private static let maximumIndentLevels = 16

    /// The message of the Markdown document `bytes`.
    static func message(markdown bytes: [UInt8]) -> Message {
        var f = MarkdownFlattener(out: ByteWriter(capacity: bytes.count + bytes.count / 4))
        defer { f.out.deallocate() }
        f.open.reserveCapacity(16)
        f.entities.reserveCapacity(16)
        MarkdownDocument.walk(bytes, &f)
        var entities: [Entity] = []
        entities.reserveCapacity(f.entities.count)
        for e in f.entities where e.length > 0 {
            entities.append(
                Entity(
                    e.type, offset: e.offset, length: e.length, url: e.type == .textLink ? e.extra : nil,
                    language: e.type == .pre ? e.extra : nil))
        }
        let text = String(decoding: f.out.bytes, as: UTF8.self)
        // Entities are made in document order, outer before inner, which is canonical
        // order; the check is linear, the sort only a safeguard.
        var canonical = true
        for i in entities.indices.dropFirst() where Entity.canonicalOrder(entities[i], entities[i - 1]) {
            canonical = false
            break
        }
        return canonical ? Message(text: text, unsortedEntities: entities) : Message(text: text, entities: entities)
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
                out.append(repeating: 0x20, count: indent)
                utf16Count += indent
            }
        }
    }

    private mutating func appendByte(_ b: UInt8) {
        out.append(b)
        utf16Count += 1
    }

    /// Appends UTF-8 `bytes`, indenting each line after a newline when inside a list item.
    private mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty else { return }
        startContent()
        let indent = indents.last ?? 0
        var n = 0
        if indent == 0 {
            out.append(bytes)
            n = Self.utf16Length(bytes)
        } else {
            // Line by line: text nodes hold no newline, code and HTML blocks a few.
            var rest = bytes
            while true {
                let newline = rest.firstIndex(of: 0x0A)
                let end = newline.map { $0 + 1 } ?? rest.endIndex
                let line = UnsafeBufferPointer(rebasing: rest[..<end])
                out.append(line)
                n += Self.utf16Length(line)
                guard newline != nil, end < rest.endIndex else { break }
                out.append(repeating: 0x20, count: indent)
                n += indent
                rest = UnsafeBufferPointer(rebasing: rest[end...])
            }
        }
        utf16Count += n
    }

    /// The UTF-16 length of the valid UTF-8 `bytes`: one unit per byte that is not a
    /// continuation byte, two for a four-byte sequence's first byte.
    ///
    /// Eight bytes at a time; a word of ASCII costs one test.
    static func utf16Length(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        let high: UInt64 = 0x8080_8080_8080_8080
        var n = count
        var i = 0
        while i + 8 <= count {
            let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if w & high != 0 {
                // Bit 7 of each byte: continuation (10xxxxxx), four-byte lead (1111xxxx).
                let continuation = w & ~(w << 1) & high
                let fourByteLead = w & (w << 1) & (w << 2) & (w << 3) & high
                n += fourByteLead.nonzeroBitCount - continuation.nonzeroBitCount
            }
            i += 8
        }
        while i < count {
            let b = base[i]
            if b & 0xC0 == 0x80 { n -= 1 } else if b >= 0xF0 { n += 1 }
            i += 1
        }
        return n
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

    /// A line break inside a block: written before the next content, so that a break
    /// that ends a block or starts the text leaves no empty line.
    private mutating func newline() {
        pendingBreaks = max(pendingBreaks, 1)
    }

    // MARK: Entities

    private mutating func openEntity(
        _ kind: MarkdownNodeKind, _ type: EntityType?, url: String? = nil,
        language: String? = nil
    ) {
        var index: Int? = nil
        startContent()
        if let type {
            let slot = Self.slot(type)
            if openCounts[slot] == 0 {
                index = entities.count
                entities.append(PendingEntity(type: type, offset: utf16Count, length: 0, extra: url ?? language))
            }
            openCounts[slot] += 1
        }
        open.append((kind, index, out.count))
    }

    private mutating func closeEntity() {
        guard let top = open.popLast() else { return }
        guard let index = top.entity else {
            if let type = entityType(top.kind) { openCounts[Self.slot(type)] -= 1 }
            return
        }
        var entity = entities[index]
        openCounts[Self.slot(entity.type)] -= 1
        entity.length = utf16Count - entity.offset
        if entity.type == .textLink, let url = entity.extra {
            let text = out.bytes[top.utf8Start...]
            let urlLength = url.utf8.count
            if text.count == urlLength && text.elementsEqual(url.utf8) {
                entity.type = .url
                entity.extra = nil
            } else if text.count == urlLength - 7, url.hasPrefix("mailto:"), text.elementsEqual(url.utf8.dropFirst(7)) {
                entity.type = .email
                entity.extra = nil
            }
        }
        entities[index] = entity
    }

    /// The `openCounts` slot of each entity type a container opens.
    private static func slot(_ type: EntityType) -> Int {
        switch type {
        case .bold: return 0
        case .italic: return 1
        case .strikethrough: return 2
        case .spoiler: return 3
        case .textLink: return 4
        case .blockquote: return 5
        default: return 6
        }
    }

    private func entityType(_ kind: MarkdownNodeKind) -> EntityType? {
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

    private func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Events

    mutating func enter(_ node: MarkdownNode) {
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
            // A row of empty cells writes nothing, not even its line break.
            if node.isHeaderRow { startContent() }
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

    mutating func exit(_ kind: MarkdownNodeKind) {
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

    mutating func leaf(_ node: MarkdownNode) {
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
            var literal = node.literal
            if literal.last == 0x0A { literal = UnsafeBufferPointer(rebasing: literal.dropLast()) }
            if !literal.isEmpty { startContent() }
            let start = utf16Count
            write(literal)
            let info = node.info
            let word = info.prefix { $0 != 0x20 && $0 != 0x09 }
            addLeafEntity(.pre, from: start, language: word.isEmpty ? nil : String(decoding: word, as: UTF8.self))
            pendingBreaks = blockGap
        case .htmlBlock:
            var literal = node.literal
            while literal.last == 0x0A { literal = UnsafeBufferPointer(rebasing: literal.dropLast()) }
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
        entities.append(PendingEntity(type: type, offset: start, length: utf16Count - start, extra: language))
    }
}
