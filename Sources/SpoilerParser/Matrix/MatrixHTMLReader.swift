import SpoilerCore

/// Turns a ``MatrixHTMLTree`` into text and entities the way mautrix-python's `MatrixParser`
/// (mautrix/util/formatter/parser.py, the reader behind the mautrix bridges) does, so that a
/// message reads the same here as in a bridge: the same text and, character by character,
/// the same formatting.
///
/// - `b strong` bold, `i em` italic, `u ins` underline, `s del strike` strikethrough,
///   `code` code, `pre` (with `<code class="language-x">` inside) pre, `blockquote`,
///   `a href` text_link, `span`/`font` with `data-mx-spoiler[="reason"]` a spoiler with its
///   reason, `h1`–`h6` bold (Telegram has no headings), `br` a line break, `p` a paragraph
///   (a line break after it), `ul`/`ol`/`li` lines with `● ` or `N. ` in front, `hr` `---`,
///   `img` its `alt` or `title`; `mx-reply` is dropped with its content; other tags give
///   their content.
/// - Outside `pre` and `code`, each run of whitespace becomes one space, and every element's
///   content is trimmed of whitespace at both ends (as mautrix does: `a <b>b </b>c` reads
///   `a bc`). A block element (`p pre blockquote ol ul li h1`–`h6 div hr table`) ends its line,
///   and the first block in an element starts a new line; whitespace after a block is dropped.
///
/// Where SpoilerKit differs from mautrix 0.21 on purpose: `strike` is strikethrough (mautrix
/// ignores it, the Matrix spec allows it); a `mailto:` link keeps its text (mautrix replaces
/// the text with the address); tags inside `code` and `pre` add no spaces between their text
/// (mautrix joins the pieces with a space).
struct MatrixHTMLReader {
    /// Text in Unicode scalars, with entities over scalar offsets (mautrix counts code points).
    struct Piece {
        var scalars: [Unicode.Scalar] = []
        var entities: [Entity] = []

        mutating func append(_ other: Piece) {
            let shift = scalars.count
            for var e in other.entities {
                e.offset += shift
                entities.append(e)
            }
            scalars.append(contentsOf: other.scalars)
        }

        mutating func append(_ s: Unicode.Scalar) { scalars.append(s) }

        mutating func prepend(_ s: Unicode.Scalar) {
            scalars.insert(s, at: 0)
            for i in entities.indices { entities[i].offset += 1 }
        }

        /// Puts `type` over the whole piece; outer entities come after inner ones, as in
        /// mautrix, and the message sorts them at the end.
        mutating func format(_ e: Entity) {
            var e = e
            e.offset = 0
            e.length = scalars.count
            entities.append(e)
        }

        /// Drops whitespace at both ends, clipping the entities as mautrix's `trim` does.
        mutating func trim() {
            var start = 0
            while start < scalars.count && MatrixHTMLReader.isWhitespace(scalars[start]) { start += 1 }
            var end = scalars.count
            while end > start && MatrixHTMLReader.isWhitespace(scalars[end - 1]) { end -= 1 }
            guard start > 0 || end < scalars.count else { return }
            scalars = Array(scalars[start..<end])
            let count = scalars.count
            entities = entities.compactMap { e in
                var e = e
                e.offset -= start
                if e.offset < 0 {
                    e.length += e.offset
                    if e.length < 0 { return nil }
                    e.offset = 0
                } else if e.offset > count {
                    return nil
                }
                if e.offset + e.length > count { e.length = count - e.offset }
                return e
            }
        }
    }

    static let blockTags: Set<String> = [
        "p", "pre", "blockquote", "ol", "ul", "li", "h1", "h2", "h3", "h4", "h5", "h6", "div", "hr", "table",
    ]
    static let listBullets: [Unicode.Scalar] = ["●", "○", "■", "‣"]

    let tree: MatrixHTMLTree

    /// The message in `html`.
    static func message(fromHTML html: String) -> Message {
        inlineMessage(Array(html.utf8)) ?? treeMessage(fromHTML: html)
    }

    /// The message in `html`, read through its element tree.
    static func treeMessage(fromHTML html: String) -> Message {
        let reader = MatrixHTMLReader(tree: MatrixHTMLTree(html))
        var piece = reader.convert(0, preserveWhitespace: false, listDepth: 0)
        piece.trim()
        return reader.message(from: piece)
    }

    /// Python's `str.isspace` (and `\s`), which mautrix uses to collapse and trim.
    @inline(__always)
    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if v < 0x80 { return v == 0x20 || (v >= 0x09 && v <= 0x0D) || (v >= 0x1C && v <= 0x1F) }
        return s.properties.isWhitespace
    }

    func message(from piece: Piece) -> Message {
        ScalarMessage(scalars: piece.scalars, entities: piece.entities).message
    }

    // MARK: mautrix's node_to_fstring

    func convert(_ index: Int, preserveWhitespace: Bool, listDepth: Int) -> Piece {
        let node = tree.nodes[index]
        switch node.tag {
        case "mx-reply":
            return Piece()
        case "blockquote":
            var p = tagAware(index, preserveWhitespace, listDepth)
            p.format(Entity(.blockquote, offset: 0, length: 0))
            return p
        case "hr":
            return Piece(scalars: Array("---".unicodeScalars))
        case "ol", "ul":
            return list(index, preserveWhitespace, node.tag == "ul" ? listDepth + 1 : listDepth)
        case "h1", "h2", "h3", "h4", "h5", "h6":
            var p = Piece()
            for child in tagged(index, preserveWhitespace, listDepth) { p.append(child.piece) }
            p.format(Entity(.bold, offset: 0, length: 0))
            return p
        case "br":
            return Piece(scalars: ["\n"])
        case "b", "strong", "i", "em", "s", "del", "strike", "u", "ins":
            var p = tagAware(index, preserveWhitespace, listDepth)
            if node.attribute("data-mautrix-exclude-plaintext") != nil { return p }
            let type: EntityType =
                switch node.tag {
                case "b", "strong": .bold
                case "i", "em": .italic
                case "u", "ins": .underline
                default: .strikethrough
                }
            p.format(Entity(type, offset: 0, length: 0))
            return p
        case "a":
            var p = tagAware(index, preserveWhitespace, listDepth)
            guard case let href?? = node.attribute("href"), !href.isEmpty else { return p }
            if node.attribute("data-mautrix-exclude-plaintext") != nil { return p }
            p.format(Entity(.textLink, offset: 0, length: 0, url: href))
            return p
        case "img":
            let alt = (node.attribute("alt") ?? nil).flatMap { $0.isEmpty ? nil : $0 }
            let title = (node.attribute("title") ?? nil) ?? ""
            return Piece(scalars: Array((alt ?? title).unicodeScalars))
        case "p":
            var p = tagAware(index, preserveWhitespace, listDepth)
            p.append("\n")
            return p
        case "span", "font":
            var p = tagAware(index, preserveWhitespace, listDepth)
            if let reason = node.attribute("data-mx-spoiler") {
                let r = (reason ?? "").isEmpty ? nil : reason
                p.format(Entity(.spoiler, offset: 0, length: 0, reason: r))
            }
            return p
        case "pre":
            var content = index
            var language = ""
            if case .element(let first)? = node.children.first(where: { if case .element = $0 { true } else { false } }),
                tree.nodes[first].tag == "code"
            {
                // mautrix looks only at the first element child, and takes `class` minus
                // its first nine characters ("language-").
                content = first
                if case let cls?? = tree.nodes[first].attribute("class") {
                    language = String(cls.unicodeScalars.dropFirst(9).map(Character.init))
                }
            }
            var p = joined(content, listDepth)
            p.format(Entity(.pre, offset: 0, length: 0, language: language.isEmpty ? nil : language))
            return p
        case "code":
            var p = joined(index, listDepth)
            p.format(Entity(.code, offset: 0, length: 0))
            return p
        default:
            return tagAware(index, preserveWhitespace, listDepth)
        }
    }

    /// mautrix's `parse_node` inside code: the children's text, whitespace kept.
    func joined(_ index: Int, _ listDepth: Int) -> Piece {
        var p = Piece()
        for child in tagged(index, true, listDepth) { p.append(child.piece) }
        return p
    }

    /// mautrix's `node_to_tagged_fstrings`: the text and the children of an element.
    func tagged(_ index: Int, _ preserveWhitespace: Bool, _ listDepth: Int) -> [(piece: Piece, tag: String)] {
        var out: [(piece: Piece, tag: String)] = []
        var previousTag: String?
        for child in tree.nodes[index].children {
            switch child {
            case .text(let scalars):
                let strip = previousTag.map { MatrixHTMLReader.blockTags.contains($0) } ?? false
                out.append((text(scalars, preserveWhitespace, stripLeading: strip), "text"))
                previousTag = nil
            case .element(let e):
                let tag = tree.nodes[e].tag
                out.append((convert(e, preserveWhitespace: preserveWhitespace, listDepth: listDepth), tag))
                previousTag = tag
            }
        }
        return out
    }

    func text(_ scalars: [Unicode.Scalar], _ preserveWhitespace: Bool, stripLeading: Bool) -> Piece {
        if preserveWhitespace { return Piece(scalars: scalars) }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(scalars.count)
        var inSpace = false
        var leading = stripLeading
        for s in scalars {
            if MatrixHTMLReader.isWhitespace(s) {
                if leading { continue }
                if !inSpace { out.append(" ") }
                inSpace = true
            } else {
                leading = false
                inSpace = false
                out.append(s)
            }
        }
        return Piece(scalars: out)
    }

    /// mautrix's `tag_aware_parse_node`: blocks on lines of their own, the result trimmed.
    func tagAware(_ index: Int, _ preserveWhitespace: Bool, _ listDepth: Int) -> Piece {
        var output = Piece()
        var previousWasBlock = false
        for case (var piece, let tag) in tagged(index, preserveWhitespace, listDepth) {
            if MatrixHTMLReader.blockTags.contains(tag) {
                piece.append("\n")
                // mautrix never resets this: only the first block gets a line break before it.
                if !previousWasBlock { piece.prepend("\n") }
                previousWasBlock = true
            }
            output.append(piece)
        }
        output.trim()
        return output
    }

    /// mautrix's `list_to_fstring`.
    func list(_ index: Int, _ preserveWhitespace: Bool, _ listDepth: Int) -> Piece {
        let node = tree.nodes[index]
        let ordered = node.tag == "ol"
        let items = tagged(index, preserveWhitespace, listDepth)
        var counter = 1
        var indent = 2
        if ordered {
            if case let start?? = node.attribute("start"), let n = Int(start) { counter = n }
            let longest = counter - 1 + items.count
            indent = String(longest).count + 2
        }
        var out = Piece()
        var first = true
        for (item, tag) in items where tag == "li" {
            var prefix: [Unicode.Scalar]
            if ordered {
                prefix = Array("\(counter). ".unicodeScalars)
                counter += 1
            } else {
                let depth = max(listDepth, 1)
                prefix = [MatrixHTMLReader.listBullets[(depth - 1) % MatrixHTMLReader.listBullets.count], " "]
            }
            var line = Piece(scalars: prefix)
            line.append(item)
            // Lines after the first are indented under the text.
            var indented = Piece()
            for s in line.scalars {
                indented.scalars.append(s)
                if s == "\n" { indented.scalars.append(contentsOf: repeatElement(" ", count: indent)) }
            }
            indented.entities = MatrixHTMLReader.shifted(line.entities, in: line.scalars, indent: indent)
            if !first { out.append("\n") }
            out.append(indented)
            first = false
        }
        return out
    }

    /// Entities of `scalars` moved by the indents inserted after each line break, clipped to
    /// their own lines as mautrix's `split` and `join` clip them.
    static func shifted(_ entities: [Entity], in scalars: [Unicode.Scalar], indent: Int) -> [Entity] {
        // Line starts in the old text, and how far each line moves.
        var lineStarts = [0]
        for (i, s) in scalars.enumerated() where s == "\n" { lineStarts.append(i + 1) }
        var out: [Entity] = []
        for e in entities {
            // The lines the entity may touch: from the last that starts at or before it
            // (a binary search, so that many entities on many lines cost no product).
            var after = 0
            var upper = lineStarts.count
            while after < upper {
                let mid = (after + upper) / 2
                if lineStarts[mid] <= e.offset { after = mid + 1 } else { upper = mid }
            }
            for line in max(after - 1, 0)..<lineStarts.count {
                let start = lineStarts[line]
                if start > e.offset + e.length { break }
                let end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : scalars.count
                let lo = max(e.offset, start)
                let hi = min(e.offset + e.length, end)
                guard lo < hi || (e.length == 0 && e.offset == start) else { continue }
                var piece = e
                piece.offset = lo + line * indent
                piece.length = max(hi - lo, 0)
                out.append(piece)
            }
        }
        return out
    }
}
