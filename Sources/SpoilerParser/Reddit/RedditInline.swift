import SpoilerCore

/// One line of a paragraph or quote for ``RedditParser/markupMessage(_:)``: its text and
/// inline markup, or false when it holds anything the fast reader leaves to cmark-gfm.
struct RedditInline {
    let b: [UInt8]
    /// The line's first byte (after a quote's `> `) and its end (its line break or the end).
    let start: Int
    let end: Int

    /// What CommonMark's flanking rules see next to a delimiter run.
    enum Side { case space, punctuation, other }

    /// The side before offset `k` (the line's start counts as whitespace).
    func before(_ k: Int) -> Side {
        guard k > start else { return .space }
        var s = k - 1
        while s > start && b[s] & 0xC0 == 0x80 { s -= 1 }
        return side(at: s)
    }

    /// The side at offset `k` (the line's end counts as whitespace).
    func after(_ k: Int) -> Side {
        guard k < end else { return .space }
        return side(at: k)
    }

    func side(at s: Int) -> Side {
        let c = b[s]
        if c < 0x80 {
            if c == 0x20 || c == 0x09 { return .space }
            let isPunctuation =
                (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60)
                || (c >= 0x7B && c <= 0x7E)
            return isPunctuation ? .punctuation : .other
        }
        // The scalar starting at `s` (valid UTF-8).
        let c0 = UInt32(c)
        let v: UInt32
        if c0 >= 0xF0 {
            v =
                (c0 & 0x07) << 18 | (UInt32(b[s + 1]) & 0x3F) << 12 | (UInt32(b[s + 2]) & 0x3F) << 6
                | (UInt32(b[s + 3]) & 0x3F)
        } else if c0 >= 0xE0 {
            v = (c0 & 0x0F) << 12 | (UInt32(b[s + 1]) & 0x3F) << 6 | (UInt32(b[s + 2]) & 0x3F)
        } else {
            v = (c0 & 0x1F) << 6 | (UInt32(b[s + 1]) & 0x3F)
        }
        if RedditInline.isNeitherPunctuationNorSpace(v) { return .other }
        guard let scalar = Unicode.Scalar(v) else { return .other }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return .punctuation
        case .spaceSeparator: return .space
        default: return .other
        }
    }

    /// Whether scalar `v` lies in a block of chat text's letters, marks and emoji that holds
    /// no punctuation and no space separator (Latin-1 letters to Latin Extended-B, combining
    /// diacritics, Cyrillic, CJK ideographs, variation selectors, pictographs and emoticons),
    /// so that its side is `.other` without a look at the character database; a test checks
    /// every scalar in them against it.
    @inline(__always)
    static func isNeitherPunctuationNorSpace(_ v: UInt32) -> Bool {
        switch v {
        case 0xC0...0x24F, 0x300...0x36F, 0x400...0x52F, 0x4E00...0x9FFF, 0xFE00...0xFE0F, 0x1F300...0x1F64F: true
        default: false
        }
    }

    /// Whether the delimiter run from `k` to `r` only opens (true), only closes (false), or
    /// nil when it could do both or neither.
    func opens(_ k: Int, _ r: Int) -> Bool? {
        let p = before(k)
        let q = after(r)
        let left = q != .space && (q != .punctuation || p != .other)
        let right = p != .space && (p != .punctuation || q != .other)
        if left == right { return nil }
        return left
    }

    /// Reads the line into `out`; `stack` (empty, its room kept from line to line) holds the
    /// open entities: type and index in `out.entities`.
    func read(into out: inout UTF8Message, stack: inout [(type: EntityType, index: Int)]) -> Bool {
        guard start < end, b[end - 1] != 0x20, b[end - 1] != 0x5C, lineStartIsText() else { return false }
        stack.removeAll(keepingCapacity: true)
        var i = start
        var run = start
        func flush(_ out: inout UTF8Message) {
            out.append(b, run, i)
        }
        while i < end {
            let c = b[i]
            if RedditParser.isQuiet(c) {
                i = RedditParser.quietRunEnd(b, from: i + 1, to: end)
                continue
            }
            if c >= 0x80 {
                if UTF8Whitespace.mayStart(c) && UTF8Whitespace.length(in: b, at: i) > 0 { return false }
                i += 1
                continue
            }
            if RedditParser.isPlain(c) {
                if c == UInt8(ascii: ":") && i + 1 < end && b[i + 1] != 0x20 { return false }
                if c | 0x20 == UInt8(ascii: "w") && i + 3 < end && b[i + 1] | 0x20 == UInt8(ascii: "w")
                    && b[i + 2] | 0x20 == UInt8(ascii: "w") && (b[i + 3] == UInt8(ascii: ".") || b[i + 3] == 0x5C)
                {
                    return false
                }
                i += 1
                continue
            }
            switch c {
            case 0x5C:
                // An escaped ASCII punctuation character is itself (not `:` or `@`, which
                // the autolink extension could still take).
                guard i + 1 < end, b[i + 1] < 0x80, after(i + 1) == .punctuation, b[i + 1] != UInt8(ascii: ":"),
                    b[i + 1] != UInt8(ascii: "@")
                else { return false }
                flush(&out)
                i += 1
                run = i
                i += 1
            case UInt8(ascii: "*"), UInt8(ascii: "~"):
                var r = i
                while r < end && b[r] == c { r += 1 }
                let type: EntityType
                switch (c, r - i) {
                case (UInt8(ascii: "*"), 1): type = .italic
                case (UInt8(ascii: "*"), 2): type = .bold
                case (UInt8(ascii: "~"), 2): type = .strikethrough
                default: return false
                }
                // A `*` run that could also open closes the same emphasis on top (`!<**!`):
                // lengths that match never make a multiple of three.
                guard
                    let opening = opens(i, r)
                        ?? (c == UInt8(ascii: "*") && stack.last?.type == type && before(i) != .space ? false : nil)
                else { return false }
                flush(&out)
                if opening {
                    guard !stack.contains(where: { $0.type == type }) else { return false }
                    stack.append((type, out.open(Entity(type, offset: 0, length: 0))))
                } else {
                    guard let top = stack.popLast(), top.type == type, out.bytes.count > out.entities[top.index].offset
                    else { return false }
                    out.close(top.index)
                }
                i = r
                run = i
            case UInt8(ascii: "`"):
                guard !stack.contains(where: { $0.type == .spoiler }), i + 1 < end, b[i + 1] != UInt8(ascii: "`")
                else { return false }
                var j = i + 1
                while j < end && b[j] != UInt8(ascii: "`") {
                    if b[j] < 0x20 { return false }
                    j += 1
                }
                guard j < end, j + 1 == end || b[j + 1] != UInt8(ascii: "`"), !(b[i + 1] == 0x20 && b[j - 1] == 0x20)
                else { return false }
                flush(&out)
                let e = out.open(Entity(.code, offset: 0, length: 0))
                out.append(b, i + 1, j)
                out.close(e)
                i = j + 1
                run = i
            case UInt8(ascii: ">"):
                // `>!` opens a spoiler after whitespace, before a character that is not.
                guard i + 2 < end, b[i + 1] == UInt8(ascii: "!"), before(i) == .space, after(i + 2) != .space,
                    b[i + 2] >= 0x20, !stack.contains(where: { $0.type == .spoiler })
                else { return false }
                flush(&out)
                stack.append((.spoiler, out.open(Entity(.spoiler, offset: 0, length: 0))))
                i += 2
                run = i
            case UInt8(ascii: "!"):
                if i + 1 < end && b[i + 1] == UInt8(ascii: "[") { return false }
                guard i + 1 < end, b[i + 1] == UInt8(ascii: "<") else {
                    i += 1
                    continue
                }
                // `!<` closes the spoiler on top, after a character that is not whitespace,
                // where `||` could only close.
                guard let top = stack.last, top.type == .spoiler, before(i) != .space, opens(i, i + 2) == false
                else { return false }
                flush(&out)
                guard out.bytes.count > out.entities[top.index].offset else { return false }
                out.close(top.index)
                stack.removeLast()
                i += 2
                run = i
            case UInt8(ascii: "["):
                guard !stack.contains(where: { $0.type == .textLink }) else { return false }
                flush(&out)
                stack.append((.textLink, out.open(Entity(.textLink, offset: 0, length: 0))))
                i += 1
                run = i
            case UInt8(ascii: "]"):
                guard let top = stack.popLast(), top.type == .textLink, i + 2 < end, b[i + 1] == UInt8(ascii: "("),
                    b[i + 2] == UInt8(ascii: "<")
                else { return false }
                var j = i + 3
                while j < end && b[j] > 0x20 && b[j] < 0x7F && b[j] != UInt8(ascii: ">") && b[j] != UInt8(ascii: "<")
                    && b[j] != 0x5C && b[j] != UInt8(ascii: "&")
                {
                    j += 1
                }
                guard j > i + 3, j + 1 < end, b[j] == UInt8(ascii: ">"), b[j + 1] == UInt8(ascii: ")") else {
                    return false
                }
                flush(&out)
                let offset = out.entities[top.index].offset
                let url = b[(i + 3)..<j]
                // A link whose text is its address reads as a `url`.
                guard out.bytes.count > offset, !out.bytes[offset...].elementsEqual(url) else { return false }
                out.entities[top.index].url = String(decoding: url, as: UTF8.self)
                out.close(top.index)
                i = j + 2
                run = i
            default:
                return false
            }
        }
        guard stack.isEmpty else { return false }
        flush(&out)
        return true
    }

    /// Whether the line starts with nothing that Markdown reads at a line's start (a space,
    /// a list marker, a heading, a table, a quote but `>!`, HTML).
    func lineStartIsText() -> Bool {
        let c = b[start]
        switch c {
        case 0x20, 0x09, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "#"), UInt8(ascii: "="), UInt8(ascii: "|"),
            UInt8(ascii: ":"), UInt8(ascii: "<"), UInt8(ascii: "_"):
            return false
        case UInt8(ascii: ">"):
            return start + 1 < end && b[start + 1] == UInt8(ascii: "!")
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var k = start
            while k < end && b[k] >= 0x30 && b[k] <= 0x39 { k += 1 }
            return !(k < end && (b[k] == UInt8(ascii: ".") || b[k] == UInt8(ascii: ")")))
        default:
            return true
        }
    }
}
