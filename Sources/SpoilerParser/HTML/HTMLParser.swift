import SpoilerCore

/// Telegram's HTML subset, with TDLib's semantics (`parse_html` in
/// td/telegram/MessageEntity.cpp): the same text, entities, order and errors.
///
/// - Tags, in any case: `b strong i em u ins s strike del tg-spoiler`,
///   `span class="tg-spoiler"`, `a href` (a `tg://user?id=` link gives a `text_mention`, an
///   invalid link drops the entity, `<a>` alone uses its text as the link), `code`, `pre`,
///   `pre` around `code class="language-x"` (a `pre` with a language), `blockquote`,
///   `blockquote expandable`, `tg-emoji emoji-id`, `tg-time unix format`.
/// - Attributes: `name`, `name=token` (letters, digits, `.`, `-`; lower-cased) or
///   `name="string"`/`'string'` with character references; unknown ones are ignored and the
///   last of a name wins. An end tag may be just `</>`.
/// - Character references: `&lt; &gt; &amp; &quot;` and `&#N;`/`&#xN;` (the `;` is
///   optional); anything else is text.
/// - Empty entities are dropped. A decoded lone surrogate is an error.
///
/// - Complexity: O(n) in the input bytes; the stack of open tags lives on the heap.
enum HTMLParser {
    /// Parses Telegram HTML `bytes` (valid UTF-8).
    ///
    /// - Throws: ``ParseError`` with TDLib's message and the byte position.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        var scanner = HTMLScanner(bytes)
        try scanner.run()
        return Message(text: TDLibText.string(scanner.out), entities: TDLibEntityOrder.sorted(scanner.entities))
    }
}

/// The state of one HTML parse.
struct HTMLScanner {
    /// A start tag that has not been closed yet.
    struct Open {
        var tag: String
        /// `href`, `class` (without its `language-` or `tg-` prefix) or `emoji-id`.
        var argument: [UInt8]
        var unixTime: [UInt8]
        var dateFormat: [UInt8]
        var isExpandable: Bool
        var utf16Start: Int
        var outStart: Int
        var byteOffset: Int
    }

    static let supportedTags: Set<String> = [
        "a", "b", "strong", "i", "em", "s", "strike", "del", "u", "ins", "tg-spoiler", "tg-emoji", "tg-time",
        "span", "pre", "code", "blockquote",
    ]

    let bytes: [UInt8]
    var out: [UInt8] = []
    var entities: [Entity] = []
    var stack: [Open] = []
    var utf16 = 0
    var i = 0
    var decodedSurrogate = false

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        out.reserveCapacity(bytes.count)
    }

    @inline(__always) func at(_ index: Int) -> UInt8 { TDLibText.byte(bytes, index) }

    func error(_ reason: String, at offset: Int) -> ParseError {
        .tdlib(reason, at: offset, in: bytes)
    }

    mutating func run() throws(ParseError) {
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            if c == UInt8(ascii: "&"), let code = decodeCharacterReference(&i) {
                appendScalar(code, to: &out)
                utf16 += code > 0xFFFF ? 2 : 1
                if code >= 0xD800 && code <= 0xDFFF { decodedSurrogate = true }
                continue
            }
            if c != UInt8(ascii: "<") {
                out.append(c)
                utf16 += TDLibText.utf16Width(ofUTF8Byte: c)
                i += 1
                continue
            }
            if at(i + 1) != UInt8(ascii: "/") {
                try startTag()
            } else {
                try endTag()
            }
        }
        if let top = stack.last {
            throw error("Can't find end tag corresponding to start tag \"\(top.tag)\"", at: top.byteOffset)
        }
        for index in entities.indices where entities[index].type == .code {
            entities[index].language = nil
        }
        if decodedSurrogate {
            throw error(
                "Text contains invalid Unicode characters after decoding HTML entities, check for unmatched "
                    + "surrogate code units", at: n)
        }
    }

    /// Decodes the character reference at `pos` (an `&`), moving `pos` past it; nil (and
    /// `pos` unchanged) when it is not one TDLib decodes.
    func decodeCharacterReference(_ pos: inout Int) -> UInt32? {
        var end = pos + 1
        var value: UInt32 = 0
        if at(pos + 1) == UInt8(ascii: "#") {
            end += 1
            let x = at(pos + 2)
            if x == UInt8(ascii: "x") || x == UInt8(ascii: "X") {
                end += 1
                while let d = Self.hexValue(at(end)) {
                    value = value &* 16 &+ d
                    end += 1
                }
            } else {
                while at(end) >= 0x30 && at(end) <= 0x39 {
                    value = value &* 10 &+ UInt32(at(end) - 0x30)
                    end += 1
                }
            }
            if value == 0 || value >= 0x10FFFF || end - pos >= 10 { return nil }
        } else {
            while Self.isAlpha(at(end)) { end += 1 }
            let name = bytes[(pos + 1)..<end]
            if name.elementsEqual("lt".utf8) {
                value = UInt32(UInt8(ascii: "<"))
            } else if name.elementsEqual("gt".utf8) {
                value = UInt32(UInt8(ascii: ">"))
            } else if name.elementsEqual("amp".utf8) {
                value = UInt32(UInt8(ascii: "&"))
            } else if name.elementsEqual("quot".utf8) {
                value = UInt32(UInt8(ascii: "\""))
            } else {
                return nil
            }
        }
        pos = at(end) == UInt8(ascii: ";") ? end + 1 : end
        return value
    }

    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 0x30...0x39: UInt32(c - 0x30)
        case 0x41...0x46: UInt32(c - 0x41 + 10)
        case 0x61...0x66: UInt32(c - 0x61 + 10)
        default: nil
        }
    }

    static func isAlpha(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
    }

    /// Appends the UTF-8 form of `code` (surrogates included, as TDLib does; the parse then
    /// fails).
    func appendScalar(_ code: UInt32, to buffer: inout [UInt8]) {
        switch code {
        case 0..<0x80:
            buffer.append(UInt8(code))
        case 0x80..<0x800:
            buffer.append(UInt8(0xC0 | (code >> 6)))
            buffer.append(UInt8(0x80 | (code & 0x3F)))
        case 0x800..<0x10000:
            buffer.append(UInt8(0xE0 | (code >> 12)))
            buffer.append(UInt8(0x80 | ((code >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (code & 0x3F)))
        default:
            buffer.append(UInt8(0xF0 | (code >> 18)))
            buffer.append(UInt8(0x80 | ((code >> 12) & 0x3F)))
            buffer.append(UInt8(0x80 | ((code >> 6) & 0x3F)))
            buffer.append(UInt8(0x80 | (code & 0x3F)))
        }
    }

    @inline(__always) mutating func skipSpaces() {
        while at(i) != 0 && TDLibText.isSpace(at(i)) { i += 1 }
    }

    mutating func startTag() throws(ParseError) {
        let begin = i
        i += 1
        while !TDLibText.isSpace(at(i)) && at(i) != UInt8(ascii: ">") { i += 1 }
        if at(i) == 0 { throw error("Unclosed start tag at byte offset \(begin)", at: begin) }
        let tag = TDLibText.string(TDLibText.lowercased(bytes[(begin + 1)..<i]))
        guard Self.supportedTags.contains(tag) else {
            throw error("Unsupported start tag \"\(tag)\" at byte offset \(begin)", at: begin)
        }

        var open = Open(
            tag: tag, argument: [], unixTime: [], dateFormat: [], isExpandable: false, utf16Start: utf16,
            outStart: out.count, byteOffset: begin)
        while at(i) != UInt8(ascii: ">") {
            skipSpaces()
            if at(i) == UInt8(ascii: ">") { break }
            let nameStart = i
            while !Self.endsAttributeName(at(i)) { i += 1 }
            let name = bytes[nameStart..<i]
            if name.isEmpty {
                throw error("Empty attribute name in the tag \"\(tag)\" at byte offset \(begin)", at: begin)
            }
            skipSpaces()
            var value: [UInt8] = []
            if at(i) != UInt8(ascii: "=") {
                if at(i) == 0 { throw error("Unclosed start tag \"\(tag)\" at byte offset \(begin)", at: begin) }
            } else {
                i += 1
                skipSpaces()
                if at(i) == 0 { throw error("Unclosed start tag \"\(tag)\" at byte offset \(begin)", at: begin) }
                let quote = at(i)
                if quote != UInt8(ascii: "'") && quote != UInt8(ascii: "\"") {
                    // A name token: letters, digits, periods and hyphens, not case sensitive.
                    let tokenStart = i
                    while TDLibText.isAlnum(at(i)) || at(i) == UInt8(ascii: ".") || at(i) == UInt8(ascii: "-") {
                        i += 1
                    }
                    value = TDLibText.lowercased(bytes[tokenStart..<i])
                    if !TDLibText.isSpace(at(i)) && at(i) != UInt8(ascii: ">") {
                        throw error("Unexpected end of name token at byte offset \(tokenStart)", at: tokenStart)
                    }
                } else {
                    i += 1
                    while at(i) != quote && at(i) != 0 {
                        if at(i) == UInt8(ascii: "&"), let code = decodeCharacterReference(&i) {
                            appendScalar(code, to: &value)
                            continue
                        }
                        value.append(at(i))
                        i += 1
                    }
                    if at(i) == quote { i += 1 }
                }
                if at(i) == 0 { throw error("Unclosed start tag at byte offset \(begin)", at: begin) }
            }
            apply(attribute: name, value: value, to: &open)
        }
        i += 1
        if tag == "span" && !open.argument.elementsEqual("spoiler".utf8) {
            throw error("Tag \"span\" must have class \"tg-spoiler\" at byte offset \(begin)", at: begin)
        }
        stack.append(open)
    }

    /// Whether `c` ends an attribute name: a space (or the end), `=`, `>`, `/`, `"` or `'`.
    static func endsAttributeName(_ c: UInt8) -> Bool {
        TDLibText.isSpace(c) || c == UInt8(ascii: "=") || c == UInt8(ascii: ">") || c == UInt8(ascii: "/")
            || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'")
    }

    func apply(attribute name: ArraySlice<UInt8>, value: [UInt8], to open: inout Open) {
        func named(_ s: String) -> Bool { name.elementsEqual(s.utf8) }
        switch open.tag {
        case "a" where named("href"):
            open.argument = value
        case "code" where named("class") && value.starts(with: "language-".utf8):
            open.argument = Array(value.dropFirst(9))
        case "span" where named("class") && value.starts(with: "tg-".utf8):
            open.argument = Array(value.dropFirst(3))
        case "tg-emoji" where named("emoji-id"):
            open.argument = value
        case "blockquote" where named("expandable"):
            open.isExpandable = true
        case "tg-time" where named("unix"):
            open.unixTime = value
        case "tg-time" where named("format"):
            open.dateFormat = value
        default:
            break
        }
    }

    mutating func endTag() throws(ParseError) {
        let begin = i
        guard let open = stack.last else { throw error("Unexpected end tag at byte offset \(begin)", at: begin) }
        i += 2
        while !TDLibText.isSpace(at(i)) && at(i) != UInt8(ascii: ">") { i += 1 }
        let endName = TDLibText.string(TDLibText.lowercased(bytes[(begin + 2)..<i]))
        while TDLibText.isSpace(at(i)) && at(i) != 0 { i += 1 }
        if at(i) != UInt8(ascii: ">") { throw error("Unclosed end tag at byte offset \(begin)", at: begin) }
        i += 1
        if !endName.isEmpty && endName != open.tag {
            throw error(
                "Unmatched end tag at byte offset \(begin), expected \"</\(open.tag)>\", found \"</\(endName)>\"",
                at: begin)
        }
        stack.removeLast()
        guard utf16 > open.utf16Start else { return }
        try close(open, at: begin)
    }

    mutating func close(_ open: Open, at begin: Int) throws(ParseError) {
        let offset = open.utf16Start
        let length = utf16 - offset
        switch open.tag {
        case "i", "em": entities.append(Entity(.italic, offset: offset, length: length))
        case "b", "strong": entities.append(Entity(.bold, offset: offset, length: length))
        case "s", "strike", "del": entities.append(Entity(.strikethrough, offset: offset, length: length))
        case "u", "ins": entities.append(Entity(.underline, offset: offset, length: length))
        case "tg-spoiler", "span": entities.append(Entity(.spoiler, offset: offset, length: length))
        case "tg-emoji":
            guard let id = TDLibText.canonicalInt64(open.argument), id != 0 else {
                throw error("Invalid custom emoji identifier specified", at: open.byteOffset)
            }
            entities.append(Entity(.customEmoji, offset: offset, length: length, customEmojiID: String(id)))
        case "tg-time":
            guard let flags = TelegramLink.dateFlags(open.dateFormat) else {
                throw error("Invalid date format used", at: open.byteOffset)
            }
            let unix = Self.wrappingInt32(open.unixTime)
            if unix > 0 {
                entities.append(
                    Entity(
                        .dateTime, offset: offset, length: length, unixTime: Int64(unix), tdlibDateFlags: flags,
                        dateTimeFormat: TelegramLink.dateTimeFormat(flags: flags)))
            }
        case "a":
            let url = open.argument.isEmpty ? Array(out[open.outStart...]) : open.argument
            if let user = TelegramLink.userID(url) {
                entities.append(Entity(.textMention, offset: offset, length: length, userID: user))
            } else if let link = TelegramLink.checkedLink(url) {
                entities.append(Entity(.textLink, offset: offset, length: length, url: link))
            }
        case "pre":
            if let last = entities.last, last.type == .code, last.offset == offset, last.length == length,
                let language = last.language, !language.isEmpty
            {
                entities[entities.count - 1] = Entity(.pre, offset: offset, length: length, language: language)
            } else {
                entities.append(Entity(.pre, offset: offset, length: length))
            }
        case "code":
            let language = TDLibText.string(open.argument)
            if let last = entities.last, last.type == .pre, last.language == nil, last.offset == offset,
                last.length == length, !language.isEmpty
            {
                entities[entities.count - 1].language = language
            } else {
                entities.append(Entity(.code, offset: offset, length: length, language: language))
            }
        case "blockquote":
            entities.append(Entity(open.isExpandable ? .expandableBlockquote : .blockquote, offset: offset, length: length))
        default:
            break
        }
    }

    /// TDLib's `to_integer<int32>`: an optional `-`, then digits up to the first non-digit,
    /// wrapping around on overflow; 0 when there are none.
    static func wrappingInt32(_ bytes: [UInt8]) -> Int32 {
        var i = 0
        var negative = false
        if i < bytes.count && bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var value: UInt32 = 0
        while i < bytes.count, bytes[i] >= 0x30 && bytes[i] <= 0x39 {
            value = value &* 10 &+ UInt32(bytes[i] - 0x30)
            i += 1
        }
        if negative { value = 0 &- value }
        return Int32(bitPattern: value)
    }
}
