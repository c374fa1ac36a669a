import SpoilerCore

/// The state of one HTML parse.
///
/// Bytes are written as hex literals in the scanning code (0x3C is `<`, 0x3E `>`, 0x2F `/`,
/// 0x26 `&`, 0x3D `=`, 0x22 `"`, 0x27 `'`, 0x23 `#`, 0x3B `;`): in debug builds
/// `UInt8(ascii:)` costs a call per byte. Helpers that only read are `mutating` so that debug
/// builds do not copy the scanner to call them.
struct HTMLScanner: TDLibScanner {
    /// The supported tags, as ``OpenEntity/kind``.
    enum Tag: UInt8 {
        case a, b, strong, i, em, s, strike, del, u, ins, tgSpoiler, tgEmoji, tgTime, span, pre, code, blockquote

        /// The tag named by the `count` bytes at `name`, in any case; nil for other names.
        ///
        /// Reads the bytes in place (no string is made for the common case).
        static func named(_ name: UnsafePointer<UInt8>, count: Int) -> Tag? {
            func lower(_ k: Int) -> UInt8 { TDLibText.lower(name[k]) }
            func equals(_ literal: StaticString) -> Bool {
                guard literal.utf8CodeUnitCount == count else { return false }
                let p = literal.utf8Start
                for k in 0..<count where lower(k) != p[k] { return false }
                return true
            }
            guard count > 0 else { return nil }
            switch (count, lower(0)) {
            case (1, 0x61): return .a
            case (1, 0x62): return .b
            case (1, 0x69): return .i
            case (1, 0x73): return .s
            case (1, 0x75): return .u
            case (2, 0x65): return equals("em") ? .em : nil
            case (3, 0x64): return equals("del") ? .del : nil
            case (3, 0x69): return equals("ins") ? .ins : nil
            case (3, 0x70): return equals("pre") ? .pre : nil
            case (4, 0x63): return equals("code") ? .code : nil
            case (4, 0x73): return equals("span") ? .span : nil
            case (6, 0x73): return equals("strong") ? .strong : equals("strike") ? .strike : nil
            case (7, 0x74): return equals("tg-time") ? .tgTime : nil
            case (8, 0x74): return equals("tg-emoji") ? .tgEmoji : nil
            case (10, 0x74): return equals("tg-spoiler") ? .tgSpoiler : nil
            case (10, 0x62): return equals("blockquote") ? .blockquote : nil
            default: return nil
            }
        }

        var name: String {
            switch self {
            case .a: "a"
            case .b: "b"
            case .strong: "strong"
            case .i: "i"
            case .em: "em"
            case .s: "s"
            case .strike: "strike"
            case .del: "del"
            case .u: "u"
            case .ins: "ins"
            case .tgSpoiler: "tg-spoiler"
            case .tgEmoji: "tg-emoji"
            case .tgTime: "tg-time"
            case .span: "span"
            case .pre: "pre"
            case .code: "code"
            case .blockquote: "blockquote"
            }
        }
    }

    /// The attributes TDLib keeps from a start tag.
    struct Attributes {
        /// `href`, `class` (without its `language-` or `tg-` prefix) or `emoji-id`.
        var argument: [UInt8] = []
        var unixTime: [UInt8] = []
        var dateFormat: [UInt8] = []
        var isExpandable = false

        var isEmpty: Bool { argument.isEmpty && unixTime.isEmpty && dateFormat.isEmpty && !isExpandable }
    }

    let input: UnsafePointer<UInt8>
    let n: Int
    let original: [UInt8]
    var out: OutputBytes
    var entities: [Entity] = []
    var stack = OpenEntityStack()
    /// Attributes of open tags that have any, indexed by ``OpenEntity/attributes``.
    var attributeTable: [Attributes] = []
    var utf16 = 0
    var i = 0
    var decodedSurrogate = false

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

    @inline(__always) mutating func at(_ index: Int) -> UInt8 { index < n ? input[index] : 0 }

    func error(_ reason: String, at offset: Int) -> ParseError {
        .tdlib(reason, at: offset, in: original)
    }

    mutating func run() throws(ParseError) {
        while i < n {
            let c = input[i]
            if c == 0x26, let (code, next) = decodeCharacterReference(at: i) {
                i = next
                appendScalar(code)
                if code >= 0xD800 && code <= 0xDFFF { decodedSurrogate = true }
                continue
            }
            if c != 0x3C {
                out.append(c)
                if c & 0xC0 != 0x80 { utf16 += c >= 0xF0 ? 2 : 1 }
                i += 1
                continue
            }
            if at(i + 1) != 0x2F {
                try startTag()
            } else {
                try endTag()
            }
        }
        if !stack.isEmpty {
            let top = stack.top
            let name = Tag(rawValue: top.kind)?.name ?? "?"
            throw error("Can't find end tag corresponding to start tag \"\(name)\"", at: top.byteOffset)
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

    /// Decodes the character reference at `pos` (an `&`): the code point and the offset
    /// after the reference, or nil when it is not one TDLib decodes.
    mutating func decodeCharacterReference(at pos: Int) -> (UInt32, Int)? {
        var end = pos + 1
        var value: UInt32 = 0
        if at(pos + 1) == 0x23 {
            end += 1
            let x = at(pos + 2)
            if x == 0x78 || x == 0x58 {  // x X
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
            let p = input + pos + 1
            switch end - pos - 1 {
            case 2 where p[1] == 0x74 && (p[0] == 0x6C || p[0] == 0x67):  // lt gt
                value = p[0] == 0x6C ? 0x3C : 0x3E
            case 3 where p[0] == 0x61 && p[1] == 0x6D && p[2] == 0x70:  // amp
                value = 0x26
            case 4 where p[0] == 0x71 && p[1] == 0x75 && p[2] == 0x6F && p[3] == 0x74:  // quot
                value = 0x22
            default:
                return nil
            }
        }
        return (value, at(end) == 0x3B ? end + 1 : end)
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

    /// Appends the UTF-8 form of `code` to the output (surrogates included, as TDLib does;
    /// the parse then fails).
    mutating func appendScalar(_ code: UInt32) {
        if code < 0x80 {
            out.append(UInt8(code))
        } else {
            var bytes: [UInt8] = []
            Self.appendUTF8(code, to: &bytes)
            for b in bytes { out.append(b) }
        }
        utf16 += code > 0xFFFF ? 2 : 1
    }

    static func appendUTF8(_ code: UInt32, to buffer: inout [UInt8]) {
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
}
