/// Whether an entity of Telegram MarkdownV2 is open, followed as the bytes go by, so that
/// ``ChunkBoundaryScanner`` cuts such a text after a blank line only where none is: a
/// spoiler (or any entity) across a blank line then stays in one chunk, which parses,
/// instead of two that each fail ("Can't find end of Spoiler entity"); and a chunk it has to
/// cut where one is open (past the chunk's maximum) is cut with the markers that close what
/// is open before the cut and open it again after (``openingMarkup``, ``closingMarkup``).
/// (HTML is followed exactly, by `HTMLTagTracker`.)
///
/// It reads the markup as TDLib's parser does in outline, without checking it: a backslash
/// escapes the next character; `*`, `_`, `__`, `~` and `||` open an entity, or close the
/// innermost one when it is of their kind; code between backticks and pre between three
/// hold no markup but their closing backticks; `[text]` may be followed by `(url)`, which
/// holds no markup but its `)`; a line that starts with `>` is a quotation's, and a `||` in
/// a quotation right before its end (the end of the text, or a line break not followed by
/// `>`) makes it expandable instead of opening a spoiler. A text it misreads is only cut
/// elsewhere (or, past the chunk's maximum, as before), and a chunk that does not parse says
/// so.
struct EntityBalance: Sendable, Equatable {
    enum Syntax: Sendable, Equatable {
        case markdownV2
    }

    /// A `||` in a quotation that may be the mark that makes it expandable, waiting for the
    /// bytes after it: a line break (after a carriage return, if any) not followed by `>`
    /// makes it the mark, anything else a spoiler's start.
    private enum Mark: Sendable, Equatable {
        case none, afterBars, afterReturn, afterBreak
    }

    let syntax: Syntax
    /// MarkdownV2: the kinds of the open entities, innermost last (their marker's first
    /// byte; `U` for `__`, `[` for a link's text), the byte offset of each one's marker, and
    /// a number given to each as it opens (no two the same), which tells whether the
    /// entities open at a place are still open (``holds(_:)``).
    private var open: [Open] = []
    private var opened = 0

    /// An open entity: its kind, its marker's byte offset and its number.
    private struct Open: Sendable, Equatable {
        var kind: UInt8
        var at: Int
        var number: Int
    }
    /// MarkdownV2: a backslash is waiting for the byte it escapes.
    private var escaped = false
    /// MarkdownV2: a `|` or `_` waiting to see whether the next byte doubles it, and its offset.
    private var pending: UInt8?
    private var pendingAt = 0
    /// MarkdownV2: backticks in a row not yet taken (the first at `backticksAt`), and
    /// whether they are inside code (1), pre (3) or code inside pre (4), the code opened at
    /// `codeAt`, the pre at `preAt`.
    private var backticks = 0
    private var backticksAt = 0
    private var code = 0
    private var codeAt = 0
    private var preAt = 0
    /// MarkdownV2: right after a link's `]`; inside its `(url)`, which starts at `urlAt`.
    private var afterLinkText = false
    private var inURL = false
    private var urlAt = 0
    /// MarkdownV2: whether the text since the last line break (or the start) is only
    /// carriage returns, where a `>` starts a quotation.
    private var lineStart = true
    /// MarkdownV2: inside a quotation; a line break in it waits for the next byte (`>` goes
    /// on with it).
    private var inQuote = false
    private var quoteBreak = false
    /// MarkdownV2: a `||` in a quotation that may make it expandable, at `markAt`.
    private var mark = Mark.none
    private var markAt = 0
    /// What is open at a place: how many entities, and the number of the innermost
    /// (-1: none), for ``holds(_:)`` to tell later whether they are all still open.
    struct Depth: Sendable, Equatable {
        var count = 0
        var innermost = -1
    }

    init(_ syntax: Syntax) {
        self.syntax = syntax
    }

    /// Whether no entity is open and nothing waits for its next byte (a link's `]` waits for
    /// a `(`).
    @inline(__always)
    var isBalanced: Bool {
        open.isEmpty && code == 0 && backticks == 0 && !escaped && pending == nil && !inURL && mark == .none
            && !afterLinkText
    }

    /// MarkdownV2: whether the next byte is escaped (a backslash came before it).
    var isEscaping: Bool { escaped }

    /// Whether what is open can be closed before a cut and opened again after it by
    /// ``closingMarkup`` and ``openingMarkup``: bold, italic, underline, strikethrough and
    /// spoilers, outside a quotation, with nothing waiting for its next byte. (A link's text
    /// would need its URL, which comes after it; code and pre hold no markup; a quotation's
    /// `>` must start its line.)
    var canReopen: Bool {
        code == 0 && backticks == 0 && !escaped && pending == nil && !inURL && !afterLinkText && mark == .none
            && !inQuote && !quoteBreak && !open.contains { $0.kind == UInt8(ascii: "[") }
    }

    /// The markers that open what is open, outermost first, for text that starts with a
    /// byte that is no markup (``isPlain(_:)``). Markers of italic and underline side by
    /// side would read as others (`___`), so an empty bold entity (`**`) stands between
    /// them; it makes no entity.
    var openingMarkup: [UInt8] { Self.markup(open.map(\.kind)) }

    /// The markers that close what is open, innermost first, after text that ends with a
    /// byte that is no markup.
    var closingMarkup: [UInt8] { Self.markup(open.reversed().map(\.kind)) }

    private static func markup(_ kinds: some Sequence<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        for kind in kinds {
            let marker: [UInt8] =
                switch kind {
                case UInt8(ascii: "U"): [0x5F, 0x5F]
                case UInt8(ascii: "|"): [0x7C, 0x7C]
                default: [kind]
                }
            if bytes.last == 0x5F && marker[0] == 0x5F { bytes += [0x2A, 0x2A] }
            bytes += marker
        }
        return bytes
    }

    /// Whether `b` reads as text wherever it stands in MarkdownV2 and no markup before or
    /// after it reads otherwise beside it: not a character TDLib reserves (nor a line break),
    /// a backslash, a carriage return, or a byte inside a character.
    @inline(__always)
    static func isPlain(_ b: UInt8) -> Bool {
        switch b {
        case 0x5F, 0x2A, 0x5B, 0x5D, 0x28, 0x29, 0x7E, 0x60, 0x3E, 0x23, 0x2B, 0x2D, 0x3D, 0x7C, 0x7B, 0x7D, 0x2E,
            0x21, 0x0A, 0x0D, 0x5C:
            false
        default: b & 0xC0 != 0x80
        }
    }

    /// What the whole text's parse fails with when the text ends with this open, and where:
    /// the innermost open entity's end is missing (TDLib's sentence); nil when nothing is.
    var unclosed: (reason: String, byteOffset: Int)? {
        var end = self
        end.escaped = false
        end.settle()
        // A `||` waiting at the end makes its quotation expandable.
        end.mark = .none
        if end.inURL { return ("Can't find end of a URL at byte offset \(end.urlAt)", end.urlAt) }
        if end.code == 3 { return ("Can't find end of Pre entity at byte offset \(end.preAt)", end.preAt) }
        if end.code > 0 { return ("Can't find end of Code entity at byte offset \(end.codeAt)", end.codeAt) }
        guard let innermost = end.open.last else { return nil }
        let at = innermost.at
        let name =
            switch innermost.kind {
            case UInt8(ascii: "*"): "Bold"
            case UInt8(ascii: "_"): "Italic"
            case UInt8(ascii: "U"): "Underline"
            case UInt8(ascii: "~"): "Strikethrough"
            case UInt8(ascii: "|"): "Spoiler"
            default: "TextUrl"
            }
        return ("Can't find end of \(name) entity at byte offset \(at)", at)
    }

    /// What is open now, to be told later whether it still is.
    var depth: Depth { Depth(count: open.count, innermost: open.last?.number ?? -1) }

    /// Whether the entities open at the place `depth` was taken at are all still open (the
    /// innermost of them has not closed since: those around it cannot have either).
    func holds(_ depth: Depth) -> Bool {
        depth.count == 0 || (open.count >= depth.count && open[depth.count - 1].number == depth.innermost)
    }

    /// The markers that open the outermost `depth` entities open now, as ``openingMarkup``.
    func openingMarkup(_ depth: Depth) -> [UInt8] { Self.markup(open.prefix(depth.count).map(\.kind)) }

    /// The markers that close the outermost `depth` entities open now, as ``closingMarkup``.
    func closingMarkup(_ depth: Depth) -> [UInt8] { Self.markup(open.prefix(depth.count).reversed().map(\.kind)) }

    /// Whether `b` changes what is open, or may: the bytes that must be taken one at a time
    /// (any run of others goes to ``takeText()`` at once).
    @inline(__always)
    static func isMarkup(_ b: UInt8, in syntax: Syntax) -> Bool {
        switch b {
        case UInt8(ascii: "\\"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "|"),
            UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: ">"), 0x0A, 0x0D:
            true
        default: false
        }
    }

    /// Takes a run of bytes none of which is markup.
    @inline(__always)
    mutating func takeText() {
        escaped = false
        resolveLookahead(0)
        settle()
        afterLinkText = false
        lineStart = false
    }

    /// Takes one byte, at byte offset `p`.
    mutating func take(_ b: UInt8, at p: Int) {
        takeMarkdownV2(b, at: p)
    }

    /// A `|`, `_` or run of backticks waiting for the next byte is taken as it stands.
    private mutating func settle() {
        if let p = pending {
            pending = nil
            if p == UInt8(ascii: "_") { toggle(UInt8(ascii: "_"), at: pendingAt) }
            // A lone `|` is an error of its own in MarkdownV2: nothing opens.
        }
        if backticks > 0 {
            // As TDLib's parser reads them from the first: three open pre, or close it; one
            // opens code (inside pre too), or closes it.
            var at = backticksAt
            let end = backticksAt + backticks
            backticks = 0
            while at < end {
                switch code {
                case 0 where end - at >= 3:
                    code = 3
                    preAt = at
                    at += 3
                case 0:
                    code = 1
                    codeAt = at
                    at += 1
                case 1:
                    code = 0
                    at += 1
                case 4:
                    code = 3
                    at += 1
                default:
                    if end - at >= 3 {
                        code = 0
                        at += 3
                    } else {
                        code = 4
                        codeAt = at
                        at += 1
                    }
                }
            }
        }
    }

    /// What a `||` that may make a quotation expandable, and a line break in a quotation,
    /// become now that the next byte is `b` (0: text that is neither `>` nor a line break).
    @inline(__always)
    private mutating func resolveLookahead(_ b: UInt8) {
        guard mark != .none || quoteBreak else { return }
        switch mark {
        case .none: break
        case .afterBars:
            if b == 0x0A {
                mark = .afterBreak
            } else if b == 0x0D {
                mark = .afterReturn
            } else {
                openMarkedSpoiler()
            }
        case .afterReturn:
            if b == 0x0A { mark = .afterBreak } else { openMarkedSpoiler() }
        case .afterBreak:
            // Not followed by `>`: the quotation ends there, expandable; nothing opens.
            if b == 0x3E { openMarkedSpoiler() } else { mark = .none }
        }
        if quoteBreak {
            quoteBreak = false
            if b != 0x3E { inQuote = false }
        }
    }

    private mutating func openMarkedSpoiler() {
        mark = .none
        push(UInt8(ascii: "|"), at: markAt)
    }

    private mutating func toggle(_ kind: UInt8, at p: Int) {
        if open.last?.kind == kind {
            pop()
        } else {
            push(kind, at: p)
        }
    }

    private mutating func push(_ kind: UInt8, at p: Int) {
        open.append(Open(kind: kind, at: p, number: opened))
        opened += 1
    }

    private mutating func pop() {
        open.removeLast()
    }

    private mutating func takeMarkdownV2(_ b: UInt8, at p: Int) {
        if escaped {
            // The character a backslash escapes is text (a line break one that starts a line).
            escaped = false
            lineStart = b == 0x0A
            return
        }
        resolveLookahead(b)
        // (A backtick in a link's URL is the URL's.)
        if b == UInt8(ascii: "`") && !inURL {
            if let q = pending {
                pending = nil
                if q == UInt8(ascii: "_") { toggle(q, at: pendingAt) }
            }
            if backticks == 0 { backticksAt = p }
            backticks += 1
            return
        }
        let doubled = pending == b
        let firstAt = pendingAt
        if doubled {
            pending = nil
        }
        settle()
        if b == UInt8(ascii: "\\") {
            escaped = true
            afterLinkText = false
            return
        }
        if code > 0 {
            // Code's text (a carriage return leaves a line's start as it is).
            if b != 0x0D { lineStart = false }
            return
        }
        if inURL {
            if b == UInt8(ascii: ")") { inURL = false }
            return
        }
        let linkTextEnded = afterLinkText
        afterLinkText = false
        switch b {
        case UInt8(ascii: "|"):
            if !doubled {
                pending = b
                pendingAt = p
            } else if open.last?.kind == b {
                toggle(b, at: firstAt)
            } else if inQuote {
                mark = .afterBars
                markAt = firstAt
            } else {
                toggle(b, at: firstAt)
            }
        case UInt8(ascii: "_"):
            if doubled {
                toggle(UInt8(ascii: "U"), at: firstAt)
            } else {
                pending = b
                pendingAt = p
            }
        case UInt8(ascii: "*"), UInt8(ascii: "~"):
            toggle(b, at: p)
        case UInt8(ascii: "["):
            push(b, at: p)
        case UInt8(ascii: "]"):
            if open.last?.kind == UInt8(ascii: "[") {
                pop()
                afterLinkText = true
            }
        case UInt8(ascii: "("):
            if linkTextEnded {
                inURL = true
                urlAt = p + 1
            }
        case 0x0A:
            if inQuote { quoteBreak = true }
            lineStart = true
        case 0x3E:
            // At a line's start a quotation's; elsewhere TDLib's parse fails.
            if lineStart { inQuote = true }
        default:
            // A carriage return is text that leaves a line's start as it is.
            break
        }
    }
}
