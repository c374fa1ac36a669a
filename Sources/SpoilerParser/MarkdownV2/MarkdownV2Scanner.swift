import SpoilerCore

/// The state of one MarkdownV2 parse.
///
/// Bytes are written as hex literals here (0x2A is `*`, 0x5F `_`, 0x7C `|`, 0x60 `` ` ``,
/// 0x5B `[`, 0x5D `]`, 0x28 `(`, 0x29 `)`, 0x3E `>`, 0x21 `!`, 0x7E `~`, 0x5C `\\`): in debug
/// builds `UInt8(ascii:)` and pattern matching on it cost a call per byte.
struct MarkdownV2Scanner: TDLibScanner {
    /// What an open entity will become (``OpenEntity/kind``); `none` when nothing is open.
    enum Kind: UInt8 {
        case bold, italic, underline, strikethrough, spoiler, code, pre, preCode, textURL, customEmoji, blockquote
        case none

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
            case .none: "?"
            }
        }
    }

    /// The input, and the same bytes as an array for error positions.
    let input: UnsafePointer<UInt8>
    let n: Int
    let original: [UInt8]
    var out: OutputBytes
    var entities: [Entity] = []
    var stack = OpenEntityStack()
    /// The kind of the innermost open entity.
    var topKind = Kind.none
    /// Whether the innermost open entity is code (`code`, `pre`), where only `` ` `` is markup.
    var inCode = false
    /// The language of the open `preCode` (code cannot nest, so there is at most one).
    var preLanguage: String?
    var utf16 = 0
    var i = 0
    /// Whether the output since the last line break outside code (or the start) holds only `\r`.
    var atLineStart = true
    var inBlockquote = false
    var isExpandable = false

    /// A scanner over `input`, which must not be empty (so that it has a base address).
    init(_ input: UnsafeBufferPointer<UInt8>, original: [UInt8]) {
        self.input = input.baseAddress!
        n = input.count
        self.original = original
        out = OutputBytes(capacity: input.count)
    }

    func deallocate() {
        out.deallocate()
        stack.deallocate()
    }

    // The hot helpers below are `mutating` although they only read: a non-mutating call
    // from a mutating method copies the whole scanner in debug builds.

    @inline(__always) mutating func at(_ index: Int) -> UInt8 { index < n ? input[index] : 0 }

    /// Appends `b` to the output.
    ///
    /// A line break starts a line only when it is markup or escaped (`startsLine`); one
    /// inside code does not, as in TDLib.
    @inline(__always) mutating func emit(_ b: UInt8, startsLine: Bool = true) {
        out.append(b)
        if b & 0xC0 != 0x80 { utf16 += b >= 0xF0 ? 2 : 1 }
        if b == 0x0A && startsLine {
            atLineStart = true
        } else if b != 0x0D {
            atLineStart = false
        }
    }

    func reserved(_ c: UInt8, at offset: Int) -> ParseError {
        .tdlib(
            "Character '\(Character(Unicode.Scalar(c)))' is reserved and must be escaped with the preceding '\\'",
            at: offset, in: original)
    }

    func unclosed(_ open: OpenEntity) -> ParseError {
        let name = Kind(rawValue: open.kind)?.tdlibName ?? "?"
        return .tdlib(
            "Can't find end of \(name) entity at byte offset \(open.byteOffset)", at: open.byteOffset, in: original)
    }

    @inline(__always) static func isReserved(_ c: UInt8) -> Bool {
        switch c {
        case 0x5F, 0x2A, 0x5B, 0x5D, 0x28,
            0x29, 0x7E, 0x60, 0x3E, 0x23,
            0x2B, 0x2D, 0x3D, 0x7C, 0x7B,
            0x7D, 0x2E, 0x21, 0x0A:
            return true
        default:
            return false
        }
    }

    mutating func run() throws(ParseError) {
        while i < n {
            if !inCode { copyPlainRun() }
            if i >= n { break }
            let c = input[i]
            if c == 0x5C {
                let next = at(i + 1)
                if next > 0 && next <= 126 {
                    emit(next)
                    i += 2
                    continue
                }
            }
            if inCode ? c != 0x60 : !Self.isReserved(c) {
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
        if inBlockquote && topKind == .blockquote {
            closeBlockquote(pop())
        }
        if !stack.isEmpty { throw unclosed(stack.top) }
    }

    /// Copies the bytes from `i` up to the next backslash, reserved character or `\r`
    /// straight to the output.
    ///
    /// Outside code these bytes are text and none of them starts a line; the bytes that stop
    /// the run are handled one at a time.
    @inline(__always) mutating func copyPlainRun() {
        let start = i
        var units = 0
        while i < n {
            let b = input[i]
            if b == 0x5C || b == 0x0D || Self.isReserved(b) { break }
            if b & 0xC0 != 0x80 { units += b >= 0xF0 ? 2 : 1 }
            i += 1
        }
        if i > start {
            out.append(input + start, count: i - start)
            utf16 += units
            atLineStart = false
        }
    }

    /// Whether the reserved byte `c` at `i` ends the innermost open entity.
    mutating func isEndOfEntity(_ c: UInt8) -> Bool {
        let top = topKind
        let next = at(i + 1)
        if inBlockquote && c == 0x0A && next != 0x3E { return true }
        switch top {
        case .bold: return c == 0x2A
        case .italic: return c == 0x5F && next != 0x5F
        case .underline: return c == 0x5F && next == 0x5F
        case .strikethrough: return c == 0x7E
        case .spoiler: return c == 0x7C && next == 0x7C
        case .code: return c == 0x60
        case .pre, .preCode:
            return c == 0x60 && next == 0x60 && at(i + 2) == 0x60
        case .textURL, .customEmoji: return c == 0x5D
        case .blockquote, .none: return false
        }
    }

    /// Whether `||` at `i` sits right before the end of the block quotation: the end of the
    /// text, or a line break (`\n` or `\r\n`) not followed by `>`.
    mutating func isExpandabilityMark() -> Bool {
        if i + 2 >= n { return true }
        let a = at(i + 2)
        if a == 0x0A { return at(i + 3) != 0x3E }
        if a == 0x0D && at(i + 3) == 0x0A { return at(i + 4) != 0x3E }
        return false
    }

    @inline(__always) mutating func push(_ kind: Kind, byteOffset: Int) {
        stack.push(
            OpenEntity(
                kind: kind.rawValue, flags: 0, attributes: -1, utf16Start: utf16, byteOffset: byteOffset,
                outStart: out.count))
        topKind = kind
        inCode = kind == .code || kind == .pre || kind == .preCode
    }

    @discardableResult
    @inline(__always) mutating func pop() -> OpenEntity {
        let open = stack.pop()
        topKind = stack.isEmpty ? .none : Kind(rawValue: stack.top.kind) ?? .none
        inCode = topKind == .code || topKind == .pre || topKind == .preCode
        return open
    }

    mutating func begin(_ c: UInt8) throws(ParseError) {
        let start = i
        let next = at(i + 1)
        switch c {
        case 0x5F:
            if next == 0x5F {
                push(.underline, byteOffset: start)
                i += 2
            } else {
                push(.italic, byteOffset: start)
                i += 1
            }
        case 0x2A:
            push(.bold, byteOffset: start)
            i += 1
        case 0x7E:
            push(.strikethrough, byteOffset: start)
            i += 1
        case 0x7C:
            guard next == 0x7C else { throw reserved(c, at: start) }
            if inBlockquote && isExpandabilityMark() {
                isExpandable = true
            } else {
                push(.spoiler, byteOffset: start)
            }
            i += 2
        case 0x5B:
            push(.textURL, byteOffset: start)
            i += 1
        case 0x60:
            if next == 0x60 && at(i + 2) == 0x60 {
                i += 3
                var kind = Kind.pre
                var languageEnd = i
                while !TDLibText.isSpace(at(languageEnd)) && at(languageEnd) != 0x60 { languageEnd += 1 }
                preLanguage = nil
                if i != languageEnd && languageEnd < n && at(languageEnd) != 0x60 {
                    kind = .preCode
                    preLanguage = TDLibText.string(UnsafeBufferPointer(start: input + i, count: languageEnd - i))
                    i = languageEnd
                }
                // One line break right after the opening (or the language) is not text.
                let a = at(i)
                if a == 0x0A || a == 0x0D {
                    let b = at(i + 1)
                    i += (b == 0x0A || b == 0x0D) && a != b ? 2 : 1
                }
                push(kind, byteOffset: start)
            } else {
                push(.code, byteOffset: start)
                i += 1
            }
        case 0x21:
            guard next == 0x5B else { throw reserved(c, at: start) }
            push(.customEmoji, byteOffset: start)
            i += 2
        case 0x0A:
            emit(0x0A)
            i += 1
        case 0x3E:
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
        while i < n && input[i] != 0x29 {
            let next = at(i + 1)
            if input[i] == 0x5C && next > 0 && next <= 126 {
                url.append(next)
                i += 2
                continue
            }
            url.append(input[i])
            i += 1
        }
        if i >= n {
            throw .tdlib("Can't find end of a URL at byte offset \(urlStart)", at: urlStart, in: original)
        }
        i += 1
        return url
    }

    mutating func closeBlockquote(_ open: OpenEntity) {
        inBlockquote = false
        let length = utf16 - open.utf16Start
        if length > 0 {
            entities.append(
                Entity(isExpandable ? .expandableBlockquote : .blockquote, offset: open.utf16Start, length: length))
        }
        isExpandable = false
    }

    mutating func end(_ c: UInt8) throws(ParseError) {
        let top = stack.top
        let kind = topKind
        if c == 0x0A && kind != .blockquote { throw unclosed(top) }
        let offset = top.utf16Start
        let length = utf16 - offset
        switch kind {
        case .bold, .italic, .code, .strikethrough:
            i += 1
            pop()
            guard length > 0 else { return }
            let type: EntityType =
                switch kind {
                case .bold: .bold
                case .italic: .italic
                case .code: .code
                default: .strikethrough
                }
            entities.append(Entity(type, offset: offset, length: length))
        case .underline, .spoiler:
            i += 2
            pop()
            guard length > 0 else { return }
            entities.append(Entity(kind == .underline ? .underline : .spoiler, offset: offset, length: length))
        case .pre, .preCode:
            i += 3
            pop()
            guard length > 0 else { return }
            entities.append(
                Entity(.pre, offset: offset, length: length, language: kind == .preCode ? preLanguage : nil))
        case .textURL:
            let url: [UInt8]
            if at(i + 1) != 0x28 {
                url = out.bytes(from: top.outStart)
                i += 1
            } else {
                i += 1
                url = try readURL()
            }
            pop()
            guard length > 0 else { return }
            if let user = TelegramLink.userID(url) {
                entities.append(Entity(.textMention, offset: offset, length: length, userID: user))
            } else if let link = TelegramLink.checkedLink(url) {
                entities.append(Entity(.textLink, offset: offset, length: length, url: link))
            }
        case .customEmoji:
            guard at(i + 1) == 0x28 else {
                throw .tdlib("The entity must contain a tg://emoji or tg://time URL", at: i + 1, in: original)
            }
            i += 1
            let urlStart = i + 1
            let url = try readURL()
            pop()
            if let id = TelegramLink.customEmojiID(url) {
                if length > 0 {
                    entities.append(Entity(.customEmoji, offset: offset, length: length, customEmojiID: String(id)))
                }
            } else if let date = TelegramLink.dateTime(url) {
                if length > 0 {
                    entities.append(
                        Entity(
                            .dateTime, offset: offset, length: length, unixTime: date.unixTime,
                            tdlibDateFlags: date.flags, dateTimeFormat: TelegramLink.dateTimeFormat(flags: date.flags)))
                }
            } else {
                throw .tdlib("Invalid tg://emoji or tg://time URL specified", at: urlStart, in: original)
            }
        case .blockquote:
            emit(0x0A)
            i += 1
            closeBlockquote(pop())
        case .none:
            break
        }
    }
}
