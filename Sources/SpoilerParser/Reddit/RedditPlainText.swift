import SpoilerCore

extension RedditParser {
    /// The message of a Reddit message that holds no Markdown but `>!spoilers!<` and
    /// one-backtick code spans on a line, read without cmark-gfm; nil for any other
    /// message, which cmark-gfm then reads.
    ///
    /// Most chat messages are such text, and reading them here is several times faster
    /// than building and walking cmark-gfm's tree. The test is strict, so that the answer
    /// is always the one cmark-gfm gives (a differential test compares the two on generated
    /// messages): one paragraph (no blank line, no line that starts with a space, a `-`
    /// or a number and `.` or `)`, no space before a line break or at the end), no
    /// character that Markdown or its extensions read outside code (``isPlain(_:)``:
    /// emphasis, links, HTML, entities, escapes, tables, autolinks), no whitespace but
    /// ASCII spaces and line breaks; a spoiler opens after the start, a space or a line
    /// break and closes before a space, a line break or the end, on its line, without
    /// code inside; a code span holds no line break and does not both start and end with
    /// a space.
    static func plainTextMessage(_ b: [UInt8]) -> Message? {
        let n = b.count
        guard n > 0, b[0] != 0x0A, b[n - 1] != 0x0A, b[n - 1] != 0x20 else { return nil }
        // No room reserved: most messages have markup and leave early.
        var out = UTF8Message(capacity: 0)
        var i = 0
        var run = 0
        var lineStart = true
        var spoiler: (entity: Int, start: Int)?
        while i < n {
            let c = b[i]
            if lineStart {
                lineStart = false
                if c == 0x20 || c == 0x0A || c == UInt8(ascii: "-") { return nil }
                if c >= 0x30 && c <= 0x39 {
                    var k = i
                    while k < n && b[k] >= 0x30 && b[k] <= 0x39 { k += 1 }
                    if k < n && (b[k] == UInt8(ascii: ".") || b[k] == UInt8(ascii: ")")) { return nil }
                }
            }
            if RedditParser.isQuiet(c) {
                i = RedditParser.quietRunEnd(b, from: i + 1, to: n)
                continue
            }
            if c >= 0x80 {
                if UTF8Whitespace.mayStart(c) && UTF8Whitespace.length(in: b, at: i) > 0 { return nil }
                i += 1
                continue
            }
            if RedditParser.isPlain(c) {
                if c == UInt8(ascii: ":") && i + 1 < n && b[i + 1] != 0x20 && b[i + 1] != 0x0A { return nil }
                if c == UInt8(ascii: "w") || c == UInt8(ascii: "W") {
                    if i + 3 < n && b[i + 1] | 0x20 == UInt8(ascii: "w") && b[i + 2] | 0x20 == UInt8(ascii: "w")
                        && b[i + 3] == UInt8(ascii: ".")
                    {
                        return nil
                    }
                }
                i += 1
                continue
            }
            switch c {
            case 0x0A:
                if b[i - 1] == 0x20 || spoiler != nil { return nil }
                lineStart = true
                i += 1
            case UInt8(ascii: "!"):
                guard i + 1 < n, b[i + 1] == UInt8(ascii: "<") else {
                    i += 1
                    continue
                }
                // A closing `!<`, after the spoiler's first character, before a space,
                // a line break or the end, after a character that is not whitespace.
                guard let open = spoiler, i > open.start, b[i - 1] != 0x20,
                    i + 2 == n || b[i + 2] == 0x20 || b[i + 2] == 0x0A
                else { return nil }
                out.append(b, run, i)
                out.close(open.entity)
                spoiler = nil
                i += 2
                run = i
            case UInt8(ascii: ">"):
                guard spoiler == nil, i + 2 < n, b[i + 1] == UInt8(ascii: "!"),
                    i == 0 || b[i - 1] == 0x20 || b[i - 1] == 0x0A,
                    b[i + 2] != 0x20, b[i + 2] != 0x0A, b[i + 2] >= 0x20, UTF8Whitespace.length(in: b, at: i + 2) == 0
                else { return nil }
                out.append(b, run, i)
                spoiler = (out.open(Entity(.spoiler, offset: 0, length: 0)), i + 2)
                i += 2
                run = i
            case UInt8(ascii: "`"):
                guard spoiler == nil, i + 1 < n, b[i + 1] != UInt8(ascii: "`") else { return nil }
                var j = i + 1
                while j < n && b[j] != UInt8(ascii: "`") {
                    if b[j] < 0x20 { return nil }
                    j += 1
                }
                guard j < n, j + 1 == n || b[j + 1] != UInt8(ascii: "`"), !(b[i + 1] == 0x20 && b[j - 1] == 0x20) else {
                    return nil
                }
                out.append(b, run, i)
                let e = out.open(Entity(.code, offset: 0, length: 0))
                out.append(b, i + 1, j)
                out.close(e)
                i = j + 1
                run = i
            default:
                return nil
            }
        }
        guard spoiler == nil else { return nil }
        out.append(b, run, n)
        return out.takeMessage()
    }

    /// Whether byte `c` needs no look at its neighbours in a line of text: a plain byte but
    /// `:`, `w` and `W` (which may start an autolink), or a byte of a non-ASCII scalar that
    /// cannot start whitespace (not C2, E1, E2, E3).
    @inline(__always)
    static func isQuiet(_ c: UInt8) -> Bool {
        if c >= 0x80 { return !UTF8Whitespace.mayStart(c) }
        return isPlain(c) && c != UInt8(ascii: ":") && c | 0x20 != UInt8(ascii: "w")
    }

    /// Where the run of quiet bytes (``isQuiet(_:)``) from `i` ends, before `end`: each byte
    /// looked up in a 256-bit set, without a branch on its class (which mixed scripts make
    /// hard to predict). A test checks the set against ``isQuiet(_:)``.
    static func quietRunEnd(_ b: [UInt8], from i: Int, to end: Int) -> Int {
        let bits: (UInt64, UInt64, UInt64, UInt64) = (
            0x8BFF_F3B5_0000_0000, 0x2F7F_FFFE_477F_FFFE, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFF1_FFFF_FFFB
        )
        return withUnsafeBytes(of: bits) { set in
            b.withUnsafeBufferPointer { p in
                var k = i
                while k < end {
                    let c = p[k]
                    let word = set.load(fromByteOffset: Int(c &>> 6) &* 8, as: UInt64.self)
                    if word &>> UInt64(c & 63) & 1 == 0 { break }
                    k += 1
                }
                return k
            }
        }
    }

    /// The ASCII bytes that mean nothing to Markdown in the middle of a line of text:
    /// letters, digits, the space, and `. , ? ; : ' " ( ) / % $ ^ { } -` (`:` only before a
    /// space or a line break, checked by the caller, since `scheme:` starts an autolink).
    static let plainBytes: [Bool] = (0..<128).map { b in
        let c = UInt8(b)
        if (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x20 { return true }
        return ".,?;:'\"()/%$^{}-".utf8.contains(c)
    }

    @inline(__always)
    static func isPlain(_ c: UInt8) -> Bool {
        // ``plainBytes`` as two 64-bit masks (a table would be a global's lazy initialisation
        // checked at every byte); `plainBytesMatchTheMasks` in the tests checks them.
        if c < 64 { return (0x8FFF_F3B5_0000_0000 as UInt64) &>> UInt64(c) & 1 != 0 }
        return c < 0x80 && (0x2FFF_FFFE_47FF_FFFE as UInt64) &>> UInt64(c &- 64) & 1 != 0
    }
}
