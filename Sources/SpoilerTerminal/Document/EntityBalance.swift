/// Whether an entity of Telegram MarkdownV2 is open, followed as the bytes go by, so that
/// ``ChunkBoundaryScanner`` cuts such a text after a blank line only where none is: a
/// spoiler (or any entity) across a blank line then stays in one chunk, which parses,
/// instead of two that each fail ("Can't find end of Spoiler entity"); and a chunk it has to
/// cut where one is open (past the chunk's maximum) is known to be cut so, and not parsed.
/// (HTML is followed exactly, by `HTMLTagTracker`.)
///
/// It reads the markup as TDLib's parser does in outline, without checking it: a backslash
/// escapes the next character; `*`, `_`, `__`, `~` and `||` open an entity, or close the
/// innermost one when it is of their kind; code between backticks and pre between three
/// hold no markup but their closing backticks; `[text]` may be followed by `(url)`, which
/// holds no markup but its `)`. A text it misreads is only cut elsewhere (or, past the
/// chunk's maximum, as before), and a chunk that does not parse says so.
struct EntityBalance: Sendable, Equatable {
    enum Syntax: Sendable, Equatable {
        case markdownV2
    }

    let syntax: Syntax
    /// MarkdownV2: the kinds of the open entities, innermost last (their marker's first
    /// byte; `U` for `__`, `[` for a link's text).
    private var open: [UInt8] = []
    /// MarkdownV2: a backslash is waiting for the byte it escapes.
    private var escaped = false
    /// MarkdownV2: a `|` or `_` waiting to see whether the next byte doubles it.
    private var pending: UInt8?
    /// MarkdownV2: backticks in a row not yet taken, and whether they are inside code (1)
    /// or pre (3).
    private var backticks = 0
    private var code = 0
    /// MarkdownV2: right after a link's `]`; inside its `(url)`.
    private var afterLinkText = false
    private var inURL = false

    init(_ syntax: Syntax) {
        self.syntax = syntax
    }

    /// Whether no entity is open and nothing waits for its next byte.
    var isBalanced: Bool {
        open.isEmpty && code == 0 && backticks == 0 && !escaped && pending == nil && !inURL
    }

    /// MarkdownV2: whether the next byte is escaped (a backslash came before it).
    var isEscaping: Bool { escaped }

    /// Whether `b` changes what is open, or may: the bytes that must be taken one at a time
    /// (any run of others goes to ``takeText()`` at once).
    static func isMarkup(_ b: UInt8, in syntax: Syntax) -> Bool {
        switch b {
        case UInt8(ascii: "\\"), UInt8(ascii: "*"), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "|"),
            UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("), UInt8(ascii: ")"):
            true
        default: false
        }
    }

    /// Takes a run of bytes none of which is markup.
    mutating func takeText() {
        escaped = false
        settle()
        afterLinkText = false
    }

    /// Takes one byte.
    mutating func take(_ b: UInt8) {
        takeMarkdownV2(b)
    }

    /// A `|`, `_` or run of backticks waiting for the next byte is taken as it stands.
    private mutating func settle() {
        if let p = pending {
            pending = nil
            if p == UInt8(ascii: "_") { toggle(UInt8(ascii: "_")) }
            // A lone `|` is an error of its own in MarkdownV2: nothing opens.
        }
        if backticks > 0 {
            let run = backticks
            backticks = 0
            switch code {
            case 0:
                // Three open pre; one opens code; two are empty code.
                code = run >= 3 ? 3 : run == 1 ? 1 : 0
            case 1:
                // Each backtick closes code or opens it again.
                if run % 2 == 1 { code = 0 }
            default:
                if run >= 3 { code = 0 }
            }
        }
    }

    private mutating func toggle(_ kind: UInt8) {
        if open.last == kind {
            open.removeLast()
        } else {
            open.append(kind)
        }
    }

    private mutating func takeMarkdownV2(_ b: UInt8) {
        if escaped {
            escaped = false
            return
        }
        if b == UInt8(ascii: "`") {
            if let p = pending {
                pending = nil
                if p == UInt8(ascii: "_") { toggle(p) }
            }
            backticks += 1
            return
        }
        let doubled = pending == b
        if doubled {
            pending = nil
        }
        settle()
        if b == UInt8(ascii: "\\") {
            escaped = true
            afterLinkText = false
            return
        }
        if code > 0 { return }
        if inURL {
            if b == UInt8(ascii: ")") { inURL = false }
            return
        }
        let linkTextEnded = afterLinkText
        afterLinkText = false
        switch b {
        case UInt8(ascii: "|"):
            if doubled { toggle(UInt8(ascii: "|")) } else { pending = b }
        case UInt8(ascii: "_"):
            if doubled { toggle(UInt8(ascii: "U")) } else { pending = b }
        case UInt8(ascii: "*"), UInt8(ascii: "~"):
            toggle(b)
        case UInt8(ascii: "["):
            open.append(b)
        case UInt8(ascii: "]"):
            if open.last == UInt8(ascii: "[") {
                open.removeLast()
                afterLinkText = true
            }
        case UInt8(ascii: "("):
            if linkTextEnded { inURL = true }
        default:
            break
        }
    }
}
