import SpoilerCore

/// Writes a ``Message`` as a Matrix `m.room.message` content object (`--to matrix`):
/// `{"msgtype":"m.text","body":…,"format":"org.matrix.custom.html","formatted_body":…}`.
///
/// `formatted_body` is HTML that mautrix-python's `MatrixParser` (and ``MatrixParser``) read
/// back as the same message: `<strong> <em> <u> <del> <code>`, `<pre><code
/// class="language-x">`, `<blockquote>`, `<a href="…">`, `<span data-mx-spoiler>` or
/// `<span data-mx-spoiler="reason">`, and `<br>` for a line break. A spoiler goes outside a
/// link or code with the same text, so a spoilered link's URL is an attribute of a tag
/// inside the spoiler (never text inside an `href`, mautrix/telegram#971).
///
/// `body`, the fallback that notifications and plain clients show, never holds a spoiler's
/// text: each spoiler (merged where spoilers overlap or touch) is `[Spoiler]`, or
/// `[Spoiler for reason]` with a reason, as the Matrix spec's example has it (without the
/// uploaded `mxc://` file). Links show their text alone, so no URL under a spoiler leaks.
///
/// What Matrix HTML (as Matrix clients and mautrix read it) cannot say, and so changes in a
/// round trip: runs of whitespace outside code (one space is read), whitespace at the start
/// or end of the message or of any formatted run (entities are shrunk to their non-blank
/// part), whitespace right after a block quotation or `pre`, a block quotation or `pre` that
/// does not cover whole lines (the quotation is left out, the `pre` written as `code`),
/// `expandable_blockquote` (a plain `blockquote`), formatting inside `code` or `pre` (left
/// out; a spoiler inside cuts the code around it, so the hidden part stays hidden), and the
/// entities Telegram finds by itself, mentions, custom emoji and dates (their text is kept).
enum MatrixSerializer {
    static func serialize(_ message: Message) -> String {
        var w = JSONWriter()
        w.object { w in
            w.key("msgtype"); w.string("m.text")
            w.key("body"); w.string(body(message))
            w.key("format"); w.string(MatrixParser.htmlFormat)
            w.key("formatted_body"); w.string(html(message))
        }
        return w.string
    }

    /// The plain-text fallback, spoilers masked.
    static func body(_ message: Message) -> String {
        var out = ""
        for part in SpoilerMasking.parts(of: message) {
            switch part {
            case .visible(let c, _): out.append(c)
            case .hidden(let region):
                out +=
                    region.reasons.isEmpty
                    ? "[Spoiler]" : "[Spoiler for " + region.reasons.joined(separator: ", ") + "]"
            }
        }
        return out
    }

    static func rank(_ e: Entity) -> Int {
        switch e.type {
        case .blockquote: 0
        case .pre: 1
        case .spoiler: 2
        case .bold: 10
        case .italic: 11
        case .underline: 12
        case .strikethrough: 13
        case .textLink: 20
        case .code: 40
        default: 50
        }
    }

    static func isBlock(_ e: Entity) -> Bool { e.type == .blockquote || e.type == .pre }

    /// The entities as they will be written: mapped, shrunk, made to nest.
    static func writable(_ message: Message, scalars: ScalarText) -> [Entity] {
        let u = Array(message.text.utf16)
        func isSpace(_ at: Int) -> Bool {
            guard at >= 0 && at < u.count, !UTF16.isLeadSurrogate(u[at]), !UTF16.isTrailSurrogate(u[at]) else {
                return false
            }
            return Unicode.Scalar(u[at]).map(MatrixHTMLReader.isWhitespace) ?? false
        }
        func isLineStart(_ at: Int) -> Bool { at == 0 || u[at - 1] == 0x0A }
        func isLineEnd(_ at: Int) -> Bool { at == u.count || u[at] == 0x0A }
        var entities: [Entity] = []
        for var e in EntityNesting.validEntities(of: message) {
            switch e.type {
            case .bold, .italic, .underline, .strikethrough, .spoiler, .code, .pre, .blockquote: break
            case .expandableBlockquote: e.type = .blockquote
            case .textLink: if (e.url ?? "").isEmpty { continue }
            default: continue
            }
            if e.type != .code && e.type != .pre {
                var start = e.offset
                var end = e.end
                while start < end && isSpace(start) { start += 1 }
                while end > start && isSpace(end - 1) { end -= 1 }
                e.offset = start
                e.length = end - start
            }
            guard e.length > 0 else { continue }
            if isBlock(e) && !(isLineStart(e.offset) && isLineEnd(e.end)) {
                if e.type == .blockquote { continue }
                e.type = .code
                e.language = nil
            }
            entities.append(e)
        }
        entities = CodeCuts.cuttingCode(around: entities)
        // Inline entities are cut at block boundaries, so that no block is ever split.
        let blocks = entities.filter(isBlock)
        var result: [Entity] = []
        for e in entities {
            guard !isBlock(e) else {
                result.append(e)
                continue
            }
            var points = Set([e.offset, e.end])
            for b in blocks {
                if b.offset > e.offset && b.offset < e.end { points.insert(b.offset) }
                if b.end > e.offset && b.end < e.end { points.insert(b.end) }
            }
            let sorted = points.sorted()
            for (a, b) in zip(sorted, sorted.dropFirst()) {
                var piece = e
                piece.offset = a
                piece.length = b - a
                // Shrink again: a cut can leave a line break at an edge.
                while piece.length > 0 && isSpace(piece.offset) && piece.type != .code {
                    piece.offset += 1
                    piece.length -= 1
                }
                while piece.length > 0 && isSpace(piece.end - 1) && piece.type != .code { piece.length -= 1 }
                if piece.length > 0 { result.append(piece) }
            }
        }
        return result
    }

    /// `formatted_body`.
    static func html(_ message: Message) -> String {
        let text = ScalarText(message.text)
        let entities = writable(message, scalars: text)
        let events = hoistingWhitespace(
            EntityNesting.events(entities, textLength: message.utf16Length, rank: rank),
            utf16: Array(message.text.utf16))
        var out = ""
        // Per open element (the root first): its end, and whether a block has been written in it.
        var parents: [(end: Int, sawBlock: Bool)] = [(message.utf16Length, false)]
        var codeDepth = 0
        var preDepth = 0
        // The `<br>` just written for a line break at this offset, and where it starts in `out`.
        var lastBreak: (offset: Int, outIndex: String.Index)?
        var skipNewlineAt = -1
        for event in events {
            switch event {
            case .text(let start, let end):
                var u = start
                for scalar in text.scalars(from: start, to: end) {
                    defer { u += scalar.utf16.count }
                    if scalar == "\n" && codeDepth == 0 && preDepth == 0 {
                        if u == skipNewlineAt { continue }
                        lastBreak = (u, out.endIndex)
                        out += "<br>"
                        continue
                    }
                    HTMLSerializer.appendEscaped(scalar, to: &out)
                }
            case .open(let piece):
                let e = piece.entity
                if codeDepth > 0 || preDepth > 0, e.type != .spoiler, e.type != .code { continue }
                if isBlock(e) {
                    // The first block in an element gets a line break before it from the
                    // reader: the text's own one is not written.
                    if !parents[parents.count - 1].sawBlock, let b = lastBreak, b.offset == e.offset - 1 {
                        out.removeSubrange(b.outIndex...)
                    }
                    parents[parents.count - 1].sawBlock = true
                }
                lastBreak = nil
                out += openTag(e)
                parents.append((e.end, false))
                if e.type == .code { codeDepth += 1 }
                if e.type == .pre { preDepth += 1 }
            case .close(let piece):
                let e = piece.entity
                if (codeDepth > 0 || preDepth > 0) && e.type != .spoiler && e.type != .code && e.type != .pre {
                    continue
                }
                if e.type == .code { codeDepth -= 1 }
                if e.type == .pre { preDepth -= 1 }
                out += closeTag(e)
                parents.removeLast()
                lastBreak = nil
                // The reader ends the line after a block: the text's own line break is not written.
                if isBlock(e), e.end < parents[parents.count - 1].end { skipNewlineAt = e.end }
            }
        }
        return out
    }

    /// `events` with whitespace moved out of inline elements: before the elements that open
    /// right before it, after those that close right after it. Entities were shrunk, but a
    /// split piece of a crossing entity can still start or end at a space, and the reader
    /// (as mautrix) would trim it away.
    static func hoistingWhitespace(_ events: [EntityNesting.Event], utf16 u: [UInt16]) -> [EntityNesting.Event] {
        func isWS(_ at: Int) -> Bool { Unicode.Scalar(u[at]).map(MatrixHTMLReader.isWhitespace) ?? false }
        func movable(_ e: Entity) -> Bool { !isBlock(e) && e.type != .code }
        var out: [EntityNesting.Event] = []
        out.reserveCapacity(events.count)
        var pending: [EntityNesting.Event] = []
        for event in events {
            switch event {
            case .open(let p) where movable(p.entity):
                pending.append(event)
            case .text(let start, let end):
                var w = start
                if !pending.isEmpty { while w < end && isWS(w) { w += 1 } }
                if w > start { out.append(.text(start: start, end: w)) }
                out.append(contentsOf: pending)
                pending.removeAll()
                if end > w { out.append(.text(start: w, end: end)) }
            case .close(let p) where movable(p.entity):
                out.append(contentsOf: pending)
                pending.removeAll()
                if case .text(let start, let end)? = out.last {
                    var w = end
                    while w > start && isWS(w - 1) { w -= 1 }
                    if w < end {
                        out.removeLast()
                        if w > start { out.append(.text(start: start, end: w)) }
                        out.append(event)
                        out.append(.text(start: w, end: end))
                        continue
                    }
                }
                out.append(event)
            default:
                out.append(contentsOf: pending)
                pending.removeAll()
                out.append(event)
            }
        }
        out.append(contentsOf: pending)
        return out
    }

    static func openTag(_ e: Entity) -> String {
        switch e.type {
        case .bold: return "<strong>"
        case .italic: return "<em>"
        case .underline: return "<u>"
        case .strikethrough: return "<del>"
        case .spoiler:
            guard let reason = e.reason, !reason.isEmpty else { return "<span data-mx-spoiler>" }
            return "<span data-mx-spoiler=" + HTMLSerializer.attribute(reason) + ">"
        case .code: return "<code>"
        case .pre:
            guard let language = e.language, !language.isEmpty else { return "<pre><code>" }
            return "<pre><code class=" + HTMLSerializer.attribute("language-" + language) + ">"
        case .blockquote: return "<blockquote>"
        case .textLink: return "<a href=" + HTMLSerializer.attribute(e.url ?? "") + ">"
        default: return ""
        }
    }

    static func closeTag(_ e: Entity) -> String {
        switch e.type {
        case .bold: return "</strong>"
        case .italic: return "</em>"
        case .underline: return "</u>"
        case .strikethrough: return "</del>"
        case .spoiler: return "</span>"
        case .code: return "</code>"
        case .pre: return "</code></pre>"
        case .blockquote: return "</blockquote>"
        case .textLink: return "</a>"
        default: return ""
        }
    }
}
