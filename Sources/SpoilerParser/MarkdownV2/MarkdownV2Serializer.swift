import SpoilerCore

/// Writes a ``Message`` as Telegram MarkdownV2 that ``MarkdownV2Parser`` (and TDLib) read back
/// as the same message.
///
/// Text outside code has every reserved character (`_*[]()~`, the backtick, `>#+-=|{}.!` and
/// `\`) escaped; inside `code` and `pre`, the backtick, `\` and line breaks are escaped.
/// Entities become `*bold*`, `_italic_`, `__underline__`, `~strikethrough~`, `||spoiler||`,
/// code between backticks, pre blocks between three backticks with the language,
/// `[text](url)`, `[text](tg://user?id=N)`, `![text](tg://emoji?id=N)`,
/// `![text](tg://time?unix=T&format=F)` and `>` block quotations (`||` at the end for an
/// expandable one). An empty link, `[]`, separates markup that would otherwise run together
/// (`_a_[]_b_`, two code spans, two quotations in a row).
///
/// MarkdownV2 cannot say everything a message can hold; this is what the serializer does
/// with what it cannot write exactly:
/// - Entities that cross each other are split where they cross.
/// - Entities of the same kind among bold, italic, underline, strikethrough, spoiler and
///   block quotation that overlap or nest are merged into one (MarkdownV2 closes the outer
///   one at the inner one's end).
/// - Nothing can be nested inside `code`, and only `code` inside `pre`: other entities
///   inside them are left out (an entity with exactly the same range as the code goes
///   around it).
/// - A block quotation covers whole lines: it starts at the start of a line (after a line
///   break, or only `\r` since one) and ends with its line break included, or at the end of
///   the text; one that does not is widened to whole lines. Entities inside a quotation
///   cannot include its final line break, so they end before it.
/// - A `pre` language ends at the first space or backtick; `text_link` URLs are written as
///   given, and TDLib normalises them on reading (`t.me` becomes `http://t.me/`) or drops
///   the entity when it rejects the URL.
/// - Entities Telegram finds by itself (`mention`, `hashtag`, `cashtag`, `bot_command`,
///   `url`, `email`, `phone_number`, `bank_card`) have no markup and are left out, as are the
///   entities ``HTMLSerializer`` leaves out.
///
/// - Complexity: O(n + k log k + k·d) for n UTF-16 units and k entities nested d deep.
public enum MarkdownV2Serializer {
    /// `message` written as Telegram MarkdownV2.
    ///
    /// - Parameter message: The message to write.
    /// - Returns: The markup.
    public static func serialize(_ message: Message) -> String {
        var writer = MarkdownV2Writer(message, out: MarkupOutput())
        writer.write()
        return writer.out.string
    }

    /// `message` written as Telegram MarkdownV2 a piece at a time, so that long markup is
    /// never held whole.
    ///
    /// ```swift
    /// MarkdownV2Serializer.serialize(message) { piece in send(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - message: The message to write.
    ///   - write: Called with the markup's UTF-8 bytes in order, in pieces of about 64 KB
    ///     (the last one shorter); their concatenation is ``serialize(_:)``'s result.
    public static func serialize(_ message: Message, write: ([UInt8]) -> Void) {
        withoutActuallyEscaping(write) { write in
            var writer = MarkdownV2Writer(message, out: MarkupOutput(write: write))
            writer.write()
            writer.out.passOn()
        }
    }
}

/// One MarkdownV2 serialization.
struct MarkdownV2Writer {
    let message: Message
    var text: ScalarCursor
    /// The text's UTF-16 units, read only where there are quotations (empty without).
    var units: [UInt16] = []
    var out: MarkupOutput
    /// The last markup token written, when nothing came after it; "" after text.
    var lastToken = ""
    /// Whether the output ends with the line break that ended a quotation.
    var endsQuotation = false
    /// The open quotation: where it ends (UTF-16) and whether it is expandable.
    var quotation: (end: Int, isExpandable: Bool, endsWithLineBreak: Bool)?
    var codeDepth = 0
    /// Whether the outermost open code is a written `pre` (which may hold `code`).
    var inPre = false
    /// For each open piece, whether it was written (pieces inside code are not).
    var written: [Bool] = []

    init(_ message: Message, out: MarkupOutput) {
        self.message = message
        self.out = out
        text = ScalarCursor(message.text)
    }

    /// Where the quotations start that run to the end of the text, end with a line break, and
    /// end together with an entity begun before them (set by ``prepared()``).
    var quotationsEndingAnEntity: Set<Int> = []

    /// Whether quotation `e` is ended by its own final line break: it ends with one, before
    /// the end of the text, or at the end of the text when an entity begun before it ends
    /// there too (that entity can close only after the quotation has, `[a\n>b\n](url)`).
    /// Otherwise one that runs to the end of the text ends there, and a line break it ends
    /// with is written as any other, with `>` after it, so that entities inside it may hold
    /// that line break.
    func endsWithLineBreak(_ e: Entity) -> Bool {
        guard e.end > 0 && e.end <= units.count && units[e.end - 1] == 0x0A else { return false }
        return e.end < units.count || quotationsEndingAnEntity.contains(e.offset)
    }

    /// Nesting order of entities with the same range (lower is outer).
    ///
    /// A quotation ended by its line break goes inside the others (they close after that
    /// line break); one that runs to the end of the text goes outside them (it cannot close
    /// before them).
    func rank(_ e: Entity) -> Int {
        switch e.type {
        case .blockquote, .expandableBlockquote: endsWithLineBreak(e) ? 30 : 0
        case .bold: 10
        case .italic: 11
        case .underline: 12
        case .strikethrough: 13
        case .spoiler: 14
        case .textLink, .textMention, .customEmoji, .dateTime: 20
        case .pre: 40
        case .code: 41
        default: 50
        }
    }

    mutating func write() {
        let entities = prepared()
        let ranker = self
        EntityNesting.forEachEvent(entities, textLength: message.utf16Length, rank: { ranker.rank($0) }) { event in
            switch event {
            case .text(_, let end):
                var text = self.text
                text.forEach(to: end) { scalar, offset in
                    currentOffset = offset
                    appendText(scalar)
                }
                self.text = text
            case .open(let piece):
                open(piece.entity)
            case .close(let piece):
                close(piece.entity)
            }
        }
    }

    // MARK: - Making the entities writable

    /// The entities to write: writable ones, merged, quotations on whole lines, and
    /// entities around quotations split or cut so that they nest as MarkdownV2 needs.
    mutating func prepared() -> [Entity] {
        let length = message.utf16Length
        var entities = EntityNesting.validEntities(of: message).keepingAll(where: HTMLSerializer.isWritable)
        let hasQuotations = entities.contains { $0.type == .blockquote || $0.type == .expandableBlockquote }
        if hasQuotations { units = Array(message.text.utf16) }
        // Each step below leaves the array as it is (no copy) when it has nothing to change.
        if entities.contains(where: { $0.type == .pre && $0.language != nil }) {
            entities = entities.map(Self.cuttingLanguage)
        }
        guard hasQuotations else {
            return EntityNesting.mergingOverlaps(
                entities, ofTypes: [.bold, .italic, .underline, .strikethrough, .spoiler])
        }
        // Quotations on whole lines, then merged with each other and with the other kinds
        // that cannot nest in themselves.
        entities = entities.map { e in
            guard e.type == .blockquote || e.type == .expandableBlockquote else { return e }
            var e = e
            var start = e.offset
            var k = start
            while k > 0 && units[k - 1] == 0x0D { k -= 1 }
            if k > 0 && units[k - 1] != 0x0A {
                while start > 0 && units[start - 1] != 0x0A { start -= 1 }
            }
            var end = e.end
            if end < length && units[end - 1] != 0x0A {
                while end < length && units[end - 1] != 0x0A { end += 1 }
            }
            e.offset = start
            e.length = end - start
            return e
        }
        entities = mergingQuotations(entities)
        entities = EntityNesting.mergingOverlaps(
            entities, ofTypes: [.bold, .italic, .underline, .strikethrough, .spoiler])

        // Around each quotation: split what crosses its start, cut what lies inside at its
        // final line break.
        let quotations = entities.filter { $0.type == .blockquote || $0.type == .expandableBlockquote }
        for q in quotations where q.end == length {
            let endsAnEntity = entities.contains { e in
                e.type != .blockquote && e.type != .expandableBlockquote && e.offset < q.offset && e.end == q.end
            }
            if endsAnEntity { quotationsEndingAnEntity.insert(q.offset) }
        }
        for q in quotations {
            let qRank = rank(q)
            let qEndsWithLineBreak = endsWithLineBreak(q)
            var next: [Entity] = []
            for e in entities {
                if e.type == .blockquote || e.type == .expandableBlockquote {
                    next.append(e)
                    continue
                }
                if e.offset < q.offset && e.end > q.offset && (e.end < q.end || (!qEndsWithLineBreak && e.end == q.end))
                {
                    var head = e
                    head.length = q.offset - e.offset
                    var tail = e
                    tail.offset = q.offset
                    tail.length = e.end - q.offset
                    next.append(head)
                    next.append(tail)
                    continue
                }
                next.append(e)
            }
            entities = next.compactMap { e in
                guard qEndsWithLineBreak else { return e }
                let inside =
                    (e.offset > q.offset && e.offset < q.end)
                    || (e.offset == q.offset && e.type != q.type
                        && (e.end < q.end || (e.end == q.end && rank(e) > qRank)))
                guard inside else { return e }
                var e = e
                e.length = min(e.end, q.end - 1) - e.offset
                return e.length > 0 ? e : nil
            }
        }
        return entities
    }

    /// `e` with a `pre` language cut at its first space or backtick (nil when that leaves
    /// nothing).
    static func cuttingLanguage(_ e: Entity) -> Entity {
        var e = e
        if e.type == .pre, let language = e.language {
            let cut = language.unicodeScalars.prefix {
                !($0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r"
                    || $0 == "\u{0}" || $0 == "\u{B}" || $0 == "`")
            }
            e.language = cut.isEmpty ? nil : String(String.UnicodeScalarView(cut))
        }
        return e
    }

    /// Quotations that overlap after widening become one (expandable if either was).
    func mergingQuotations(_ entities: [Entity]) -> [Entity] {
        var others: [Entity] = []
        var quotations: [Entity] = []
        for e in entities {
            if e.type == .blockquote || e.type == .expandableBlockquote {
                quotations.append(e)
            } else {
                others.append(e)
            }
        }
        quotations.sort { $0.offset < $1.offset }
        var merged: [Entity] = []
        for q in quotations {
            if var last = merged.last, q.offset < last.end {
                last.length = max(last.end, q.end) - last.offset
                if q.type == .expandableBlockquote { last.type = .expandableBlockquote }
                merged[merged.count - 1] = last
            } else {
                merged.append(q)
            }
        }
        return others + merged
    }

    // MARK: - Writing

    /// Writes a markup token.
    ///
    /// A single `_` or `` ` `` followed by a token starting with the same character would
    /// read as `__` or ```` ``` ````: an empty link keeps them apart (`_a_[]_b_`,
    /// `` `a`[]`b` ``).
    mutating func markup(_ token: String) {
        guard let first = token.utf8.first else { return }
        if (lastToken == "_" && first == 0x5F) || (lastToken == "`" && first == 0x60) {
            out += "[]"
        }
        out += token
        lastToken = token
        endsQuotation = false
    }

    mutating func open(_ e: Entity) {
        let isCode = e.type == .code || e.type == .pre
        if codeDepth > 0 {
            // Inside `pre`, a single backtick opens `code`; nothing else can nest in code.
            let isCodeInPre = codeDepth == 1 && inPre && e.type == .code
            written.append(isCodeInPre)
            if isCodeInPre { out += "`" }
            if isCode { codeDepth += 1 }
            return
        }
        written.append(true)
        if let marker = Self.pairedMarker(e.type) {
            markup(marker)
            if isCode { codeDepth += 1 }
            return
        }
        switch e.type {
        case .pre:
            markup("```" + (e.language ?? "") + "\n")
            inPre = true
        case .textLink, .textMention: markup("[")
        case .customEmoji, .dateTime: markup("![")
        case .blockquote, .expandableBlockquote:
            if endsQuotation { markup("[]") }
            markup(">")
            quotation = (e.end, e.type == .expandableBlockquote, endsWithLineBreak(e))
        default: break
        }
        if isCode { codeDepth += 1 }
    }

    /// The marker that both opens and closes an entity of `type`, if it has one.
    static func pairedMarker(_ type: EntityType) -> String? {
        switch type {
        case .bold: return "*"
        case .italic: return "_"
        case .underline: return "__"
        case .strikethrough: return "~"
        case .spoiler: return "||"
        case .code: return "`"
        default: return nil
        }
    }

    mutating func close(_ e: Entity) {
        let isCode = e.type == .code || e.type == .pre
        if isCode { codeDepth -= 1 }
        guard written.removeLast() else { return }
        if codeDepth > 0 {
            out += "`"  // `code` inside `pre`
            return
        }
        if let marker = Self.pairedMarker(e.type) {
            markup(marker)
            return
        }
        switch e.type {
        case .pre:
            // Straight after the backtick closing a `code`: "````" reads as that backtick
            // and this end, and an empty link here would be text.
            out += "```"
            lastToken = "```"
            inPre = false
        case .textLink: markup("](" + Self.escapedURL(e.url ?? "") + ")")
        case .textMention: markup("](tg://user?id=\(e.userID ?? 0))")
        case .customEmoji: markup("](tg://emoji?id=\(e.customEmojiID ?? ""))")
        case .dateTime:
            var url = "tg://time?unix=\(e.unixTime ?? 0)"
            if let format = HTMLSerializer.dateFormat(of: e), !format.isEmpty { url += "&format=" + format }
            markup("](" + url + ")")
        case .blockquote, .expandableBlockquote:
            if let q = quotation, !q.endsWithLineBreak, q.isExpandable { markup("||") }
            quotation = nil
        default: break
        }
    }

    static func escapedURL(_ url: String) -> String {
        var s = ""
        for c in url.unicodeScalars {
            if c == ")" || c == "\\" { s += "\\" }
            s.unicodeScalars.append(c)
        }
        return s
    }

    static func isReserved(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "_", "*", "[", "]", "(", ")", "~", "`", ">", "#", "+", "-", "=", "|", "{", "}", ".", "!", "\\": true
        default: false
        }
    }

    /// Writes one scalar of text at UTF-16 offset ``currentOffset``.
    mutating func appendText(_ scalar: Unicode.Scalar) {
        lastToken = ""
        endsQuotation = false
        if codeDepth > 0 {
            switch scalar {
            case "`", "\\": out += "\\"
            case "\n": out += "\\"
            case "\r": out += "\\"
            default: break
            }
            out.append(scalar)
            return
        }
        if scalar == "\n", let q = quotation {
            // The quotation's own final line break ends it; any other goes on with `>`.
            if q.endsWithLineBreak && isAtQuotationEnd() {
                if q.isExpandable { out += "||" }
                out += "\n"
                endsQuotation = true
            } else {
                out += "\n>"
            }
            return
        }
        if Self.isReserved(scalar) { out += "\\" }
        out.append(scalar)
    }

    /// The UTF-16 offset of the scalar being written.
    var currentOffset = 0

    /// Whether the line break being written is the last unit of the open quotation.
    func isAtQuotationEnd() -> Bool {
        guard let q = quotation else { return false }
        return currentOffset + 1 == q.end
    }
}
