import SpoilerCore

/// Telegram Bot API MarkdownV2, with TDLib's semantics (`parse_markdown_v2` in
/// td/telegram/MessageEntity.cpp): the same text, the same entities in the same order, the
/// same inputs rejected with the same messages.
///
/// The rules, as TDLib applies them:
/// - `\` followed by any ASCII character 1–126 gives that character; any other `\` is text.
/// - Outside code, ``_*[]()~`>#+-=|{}.!`` are reserved: each opens or closes an entity or is
///   an error ("Character '.' is reserved and must be escaped with the preceding '\'").
///   Inside `` `code` `` and ```` ```pre``` ```` only `` ` `` is special.
/// - `*bold*`, `_italic_`, `__underline__`, `~strikethrough~`, `||spoiler||`,
///   `` `code` ``, ```` ```language\npre``` ````, `[text](url)` (a `tg://user?id=` URL gives a
///   `text_mention`; an invalid URL drops the entity; `[text]` alone uses the text as URL),
///   `![emoji](tg://emoji?id=N)` and `![text](tg://time?unix=T&format=F)`. An entity closes
///   only the innermost open one; empty entities are dropped.
/// - `>` at the start of a line (after nothing but `\r` since the start or the last line
///   break outside code, escaped or not) starts a
///   block quotation that goes on while each line break is followed by `>`; it ends with,
///   and includes, the first line break not followed by `>`. Entities opened inside it must
///   close inside it. `||` right before that end (or the end of the text) makes it an
///   `expandable_blockquote`.
///
/// - Complexity: O(n) in the input bytes, with a heap-allocated stack of open entities, except
///   that a `[text]` link without a URL copies its text to check it as a URL (nested ones
///   copy nested text again, as TDLib does).
enum MarkdownV2Parser {
    /// Parses MarkdownV2 `bytes` (valid UTF-8).
    ///
    /// - Throws: ``ParseError`` with TDLib's message and the byte position.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        var parser = MarkdownV2Scanner(bytes)
        try parser.run()
        return Message(text: TDLibText.string(parser.out), entities: TDLibEntityOrder.sorted(parser.entities))
    }
}

/// The state of one MarkdownV2 parse.
struct MarkdownV2Scanner {
    /// What an open entity will become.
    enum Kind {
        case bold, italic, underline, strikethrough, spoiler, code, pre, preCode, textURL, customEmoji, blockquote

        /// TDLib's name for the entity type, used in error messages.
        var tdlibName: String {
            switch self {
            case .bold: "Bold"
            case .italic: "Italic"
            case .underline: "Underline"
            case .strikethrough: "Strikethrough"
            case .spoiler: "Spoiler"
            case .code: "Code"
            case .pre: "Pre"
            case .preCode: "PreCode"
            case .textURL: "TextUrl"
            case .customEmoji: "CustomEmoji"
            case .blockquote: "BlockQuote"
            }
        }

        var isCode: Bool { self == .code || self == .pre || self == .preCode }
    }

    /// An entity that has begun and not yet ended.
    struct Open {
        var kind: Kind
        /// The language of a `preCode`.
        var language: String?
        /// UTF-16 offset in the output where the entity starts.
        var utf16Start: Int
        /// Byte offset in the input of the markup that opened it.
        var byteOffset: Int
        /// Byte offset in the output where the entity starts.
        var outStart: Int
    }

    let bytes: [UInt8]
    var out: [UInt8] = []
    var entities: [Entity] = []
    var stack: [Open] = []
    var utf16 = 0
    var i = 0
    /// Whether the output since the last line break outside code (or the start) holds only `\r`.
    var atLineStart = true
    var inBlockquote = false
    var isExpandable = false

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        out.reserveCapacity(bytes.count)
    }

    @inline(__always) func at(_ index: Int) -> UInt8 { TDLibText.byte(bytes, index) }

    /// Appends `b` to the output. A line break starts a line only when it is markup or
    /// escaped (`startsLine`); one inside code does not, as in TDLib.
    @inline(__always) mutating func emit(_ b: UInt8, startsLine: Bool = true) {
        out.append(b)
        utf16 += TDLibText.utf16Width(ofUTF8Byte: b)
        if b == 0x0A && startsLine {
            atLineStart = true
        } else if b != 0x0D {
            atLineStart = false
        }
    }

    func reserved(_ c: UInt8, at offset: Int) -> ParseError {
        .tdlib(
            "Character '\(Character(Unicode.Scalar(c)))' is reserved and must be escaped with the preceding '\\'",
            at: offset, in: bytes)
    }

    func unclosed(_ open: Open) -> ParseError {
        .tdlib(
            "Can't find end of \(open.kind.tdlibName) entity at byte offset \(open.byteOffset)", at: open.byteOffset,
            in: bytes)
    }

    static func isReserved(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "_"), UInt8(ascii: "*"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "~"), UInt8(ascii: "`"), UInt8(ascii: ">"), UInt8(ascii: "#"),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "="), UInt8(ascii: "|"), UInt8(ascii: "{"),
            UInt8(ascii: "}"), UInt8(ascii: "."), UInt8(ascii: "!"), 0x0A:
            return true
        default:
            return false
        }
    }

    mutating func run() throws(ParseError) {
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "\\") {
                let next = at(i + 1)
                if next > 0 && next <= 126 {
                    emit(next)
                    i += 2
                    continue
                }
            }
            let inCode = stack.last?.kind.isCode ?? false
            if inCode ? c != UInt8(ascii: "`") : !Self.isReserved(c) {
                emit(c, startsLine: false)
                i += 1
                continue
            }
            if isEndOfEntity(c) {
                try end(c)
            } else {
                try begin(c)
            }
        }
        if inBlockquote, let top = stack.last, top.kind == .blockquote {
            closeBlockquote(top)
            stack.removeLast()
        }
        if let top = stack.last { throw unclosed(top) }
    }

    /// Whether the reserved byte `c` at `i` ends the innermost open entity.
    func isEndOfEntity(_ c: UInt8) -> Bool {
        guard let top = stack.last else { return false }
        if inBlockquote && c == 0x0A && at(i + 1) != UInt8(ascii: ">") { return true }
        let next = at(i + 1)
        switch top.kind {
        case .bold: return c == UInt8(ascii: "*")
        case .italic: return c == UInt8(ascii: "_") && next != UInt8(ascii: "_")
        case .underline: return c == UInt8(ascii: "_") && next == UInt8(ascii: "_")
        case .strikethrough: return c == UInt8(ascii: "~")
        case .spoiler: return c == UInt8(ascii: "|") && next == UInt8(ascii: "|")
        case .code: return c == UInt8(ascii: "`")
        case .pre, .preCode:
            return c == UInt8(ascii: "`") && next == UInt8(ascii: "`") && at(i + 2) == UInt8(ascii: "`")
        case .textURL, .customEmoji: return c == UInt8(ascii: "]")
        case .blockquote: return false
        }
    }

    /// Whether `||` at `i` sits right before the end of the block quotation: the end of the
    /// text, or a line break (`\n` or `\r\n`) not followed by `>`.
    func isExpandabilityMark() -> Bool {
        let a = at(i + 2)
        if i + 2 >= bytes.count { return true }
        if a == 0x0A { return at(i + 3) != UInt8(ascii: ">") }
        if a == 0x0D && at(i + 3) == 0x0A { return at(i + 4) != UInt8(ascii: ">") }
        return false
    }

    mutating func push(_ kind: Kind, byteOffset: Int, language: String? = nil) {
        stack.append(Open(kind: kind, language: language, utf16Start: utf16, byteOffset: byteOffset, outStart: out.count))
    }

    mutating func begin(_ c: UInt8) throws(ParseError) {
        let start = i
        let next = at(i + 1)
        switch c {
        case UInt8(ascii: "_"):
            if next == UInt8(ascii: "_") {
                push(.underline, byteOffset: start)
                i += 2
            } else {
                push(.italic, byteOffset: start)
                i += 1
            }
        case UInt8(ascii: "*"):
            push(.bold, byteOffset: start)
            i += 1
        case UInt8(ascii: "~"):
            push(.strikethrough, byteOffset: start)
            i += 1
        case UInt8(ascii: "|"):
            guard next == UInt8(ascii: "|") else { throw reserved(c, at: start) }
            if inBlockquote && isExpandabilityMark() {
                isExpandable = true
            } else {
                push(.spoiler, byteOffset: start)
            }
            i += 2
        case UInt8(ascii: "["):
            push(.textURL, byteOffset: start)
            i += 1
        case UInt8(ascii: "`"):
            if next == UInt8(ascii: "`") && at(i + 2) == UInt8(ascii: "`") {
                i += 3
                var kind = Kind.pre
                var language: String?
                var languageEnd = i
                while !TDLibText.isSpace(at(languageEnd)) && at(languageEnd) != UInt8(ascii: "`") { languageEnd += 1 }
                if i != languageEnd && languageEnd < bytes.count && at(languageEnd) != UInt8(ascii: "`") {
                    kind = .preCode
                    language = TDLibText.string(bytes[i..<languageEnd])
                    i = languageEnd
                }
                // One line break right after the opening (or the language) is not text.
                let a = at(i)
                if a == 0x0A || a == 0x0D {
                    let b = at(i + 1)
                    i += (b == 0x0A || b == 0x0D) && a != b ? 2 : 1
                }
                push(kind, byteOffset: start, language: language)
            } else {
                push(.code, byteOffset: start)
                i += 1
            }
        case UInt8(ascii: "!"):
            guard next == UInt8(ascii: "[") else { throw reserved(c, at: start) }
            push(.customEmoji, byteOffset: start)
            i += 2
        case 0x0A:
            emit(0x0A)
            i += 1
        case UInt8(ascii: ">"):
            guard atLineStart else { throw reserved(c, at: start) }
            if !inBlockquote {
                inBlockquote = true
                isExpandable = false
                push(.blockquote, byteOffset: start)
            }
            i += 1
        default:
            throw reserved(c, at: start)
        }
    }

    /// Reads a `(url)` whose `(` is at `i`: backslash escapes as in text; leaves `i` after `)`.
    mutating func readURL() throws(ParseError) -> [UInt8] {
        i += 1
        let urlStart = i
        var url: [UInt8] = []
        while i < bytes.count && bytes[i] != UInt8(ascii: ")") {
            let next = at(i + 1)
            if bytes[i] == UInt8(ascii: "\\") && next > 0 && next <= 126 {
                url.append(next)
                i += 2
                continue
            }
            url.append(bytes[i])
            i += 1
        }
        if i >= bytes.count {
            throw .tdlib("Can't find end of a URL at byte offset \(urlStart)", at: urlStart, in: bytes)
        }
        i += 1
        return url
    }

    mutating func closeBlockquote(_ top: Open) {
        inBlockquote = false
        let length = utf16 - top.utf16Start
        if length > 0 {
            entities.append(Entity(isExpandable ? .expandableBlockquote : .blockquote, offset: top.utf16Start, length: length))
        }
        isExpandable = false
    }

    mutating func end(_ c: UInt8) throws(ParseError) {
        let top = stack[stack.count - 1]
        if c == 0x0A && top.kind != .blockquote { throw unclosed(top) }
        let length = utf16 - top.utf16Start
        var entity: Entity?
        switch top.kind {
        case .bold, .italic, .code, .strikethrough:
            i += 1
            let type: EntityType =
                switch top.kind {
                case .bold: .bold
                case .italic: .italic
                case .code: .code
                default: .strikethrough
                }
            entity = Entity(type, offset: top.utf16Start, length: length)
        case .underline, .spoiler:
            i += 2
            entity = Entity(top.kind == .underline ? .underline : .spoiler, offset: top.utf16Start, length: length)
        case .pre, .preCode:
            i += 3
            entity = Entity(.pre, offset: top.utf16Start, length: length, language: top.language)
        case .textURL:
            let url: [UInt8]
            if at(i + 1) != UInt8(ascii: "(") {
                url = Array(out[top.outStart...])
                i += 1
            } else {
                i += 1
                url = try readURL()
            }
            if let user = TelegramLink.userID(url) {
                entity = Entity(.textMention, offset: top.utf16Start, length: length, userID: user)
            } else if let link = TelegramLink.checkedLink(url) {
                entity = Entity(.textLink, offset: top.utf16Start, length: length, url: link)
            }
        case .customEmoji:
            guard at(i + 1) == UInt8(ascii: "(") else {
                throw .tdlib("The entity must contain a tg://emoji or tg://time URL", at: i + 1, in: bytes)
            }
            i += 1
            let urlStart = i + 1
            let url = try readURL()
            if let id = TelegramLink.customEmojiID(url) {
                entity = Entity(.customEmoji, offset: top.utf16Start, length: length, customEmojiID: String(id))
            } else if let date = TelegramLink.dateTime(url) {
                entity = Entity(
                    .dateTime, offset: top.utf16Start, length: length, unixTime: date.unixTime,
                    tdlibDateFlags: date.flags, dateTimeFormat: TelegramLink.dateTimeFormat(flags: date.flags))
            } else {
                throw .tdlib("Invalid tg://emoji or tg://time URL specified", at: urlStart, in: bytes)
            }
        case .blockquote:
            emit(0x0A)
            i += 1
            stack.removeLast()
            closeBlockquote(top)
            return
        }
        stack.removeLast()
        if let entity, length > 0 { entities.append(entity) }
    }
}
