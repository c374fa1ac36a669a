import SpoilerCore

/// Reads Reddit's Markdown (`--from reddit`): `>!text!<` hides `text`; the rest is Markdown,
/// read as `--from markdown` reads it (CommonMark and GFM through cmark-gfm).
///
/// - A spoiler opens at `>!` before a non-space and closes at the first `!<` after a
///   non-space; one that would start or end with a space is literal text, as Reddit's
///   formatting guide says ("the text must not start or end with a space"), and so is an
///   unclosed `>!`. A spoiler stays inside its paragraph (a blank line ends the search).
/// - It may hold other Markdown (`>!**bold**!<`), and nothing is a spoiler inside code spans
///   fenced code blocks and indented code blocks (four spaces or a tab, after a blank
///   line or another such line), or after a backslash (`\>!`).
/// - `||` is literal: Reddit has no `||` spoilers.
///
/// Implementation: the spoilers are found first and turned into the Markdown reader's own
/// `||` delimiters (other `||` runs escaped), then the document is read as Markdown.
enum RedditParser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        try MarkdownParser.parse(markdown(from: bytes))
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The byte ranges of `bytes` that are code (spans, fenced and indented blocks), as a mask.
    static func codeMask(_ b: [UInt8]) -> [Bool] {
        var mask = [Bool](repeating: false, count: b.count)
        var i = 0
        var lineStart = true
        var fence: (char: UInt8, count: Int)?
        // An indented line is code after a blank line or another indented code line
        // (otherwise it continues a paragraph), outside lists (where it is an item's).
        var previousBlank = true
        var previousIndentedCode = false
        var inList = false
        while i < b.count {
            if lineStart && fence == nil {
                var k = i
                var columns = 0
                while k < b.count && (b[k] == 0x20 || b[k] == 0x09) {
                    columns = b[k] == 0x09 ? columns + 4 - columns % 4 : columns + 1
                    k += 1
                }
                let blank = k >= b.count || b[k] == 0x0A || b[k] == 0x0D
                if !blank && columns < 4 {
                    if isListMarker(b, at: k) {
                        inList = true
                    } else if columns == 0 && previousBlank {
                        inList = false
                    }
                }
                if !blank && !inList && columns >= 4 && (previousBlank || previousIndentedCode) {
                    var e = i
                    while e < b.count && b[e] != 0x0A { mask[e] = true; e += 1 }
                    previousIndentedCode = true
                    previousBlank = false
                    i = e + 1
                    continue
                }
                if blank {
                    previousBlank = true
                } else {
                    previousBlank = false
                    previousIndentedCode = false
                }
            }
            if lineStart {
                var k = i
                var indent = 0
                while k < b.count && b[k] == 0x20 && indent < 3 {
                    k += 1
                    indent += 1
                }
                if k < b.count && (b[k] == 0x60 || b[k] == 0x7E) {
                    var r = k
                    while r < b.count && b[r] == b[k] { r += 1 }
                    if r - k >= 3 {
                        if let f = fence, f.char == b[k], r - k >= f.count {
                            fence = nil
                        } else if fence == nil {
                            fence = (b[k], r - k)
                        }
                        // The fence line itself is code.
                        var e = i
                        while e < b.count && b[e] != 0x0A { mask[e] = true; e += 1 }
                        i = e
                        continue
                    }
                }
            }
            if fence != nil {
                mask[i] = true
                lineStart = b[i] == 0x0A
                i += 1
                continue
            }
            lineStart = b[i] == 0x0A
            if b[i] == 0x5C {
                i += 2
                continue
            }
            if b[i] == 0x60 {
                var r = i
                while r < b.count && b[r] == 0x60 { r += 1 }
                let n = r - i
                var j = r
                var close: Int?
                while j < b.count {
                    if b[j] == 0x60 {
                        var q = j
                        while q < b.count && b[q] == 0x60 { q += 1 }
                        if q - j == n {
                            close = q
                            break
                        }
                        j = q
                    } else {
                        j += 1
                    }
                }
                if let close {
                    for k in i..<close { mask[k] = true }
                    i = close
                } else {
                    i = r
                }
                continue
            }
            i += 1
        }
        return mask
    }

    /// Whether a list item's marker (`-`, `*`, `+`, or digits and `.` or `)`, then a space or
    /// the line's end) starts at `k`.
    static func isListMarker(_ b: [UInt8], at k: Int) -> Bool {
        var r = k
        if r < b.count && (b[r] == 0x2D || b[r] == 0x2A || b[r] == 0x2B) {
            r += 1
        } else {
            while r < b.count && r - k < 9 && (0x30...0x39).contains(b[r]) { r += 1 }
            guard r > k, r < b.count, b[r] == 0x2E || b[r] == 0x29 else { return false }
            r += 1
        }
        return r >= b.count || b[r] == 0x20 || b[r] == 0x09 || b[r] == 0x0A || b[r] == 0x0D
    }

    /// `bytes` with Reddit spoilers as `||…||` and every other `||` escaped.
    static func markdown(from b: [UInt8]) -> [UInt8] {
        let code = codeMask(b)
        var opens = Set<Int>()
        var closes = Set<Int>()
        var escaped = [Bool](repeating: false, count: b.count)
        var i = 0
        while i < b.count {
            if !code[i] && b[i] == 0x5C && i + 1 < b.count {
                escaped[i + 1] = true
                i += 2
            } else {
                i += 1
            }
        }
        i = 0
        while i < b.count {
            if code[i] {
                i += 1
                continue
            }
            if b[i] == 0x5C {
                i += 2
                continue
            }
            if b[i] == 0x3E, i + 2 < b.count, b[i + 1] == 0x21, !isSpace(b[i + 2]) {
                var j = i + 2
                var found: Int?
                while j + 1 < b.count {
                    if b[j] == 0x0A && j + 1 < b.count && (b[j + 1] == 0x0A || (b[j + 1] == 0x0D)) { break }
                    if b[j] == 0x5C {
                        j += 2
                        continue
                    }
                    if !code[j], b[j] == 0x21, b[j + 1] == 0x3C, j > i + 2, !isSpace(b[j - 1]) {
                        found = j
                        break
                    }
                    j += 1
                }
                if let found {
                    opens.insert(i)
                    closes.insert(found)
                    i = found + 2
                    continue
                }
            }
            i += 1
        }
        var out: [UInt8] = []
        out.reserveCapacity(b.count + 16)
        i = 0
        while i < b.count {
            if opens.contains(i) || closes.contains(i) {
                out.append(0x7C)
                out.append(0x7C)
                i += 2
                // A pipe right inside the marker would make a run of three.
                if opens.contains(i - 2), i < b.count, b[i] == 0x7C { out.append(0x5C) }
                continue
            }
            if b[i] == 0x7C && !code[i] && !escaped[i] {
                // Escape a pipe that the Markdown reader could take as a spoiler: one of
                // exactly two, or one right before a closing marker.
                let pair = i + 1 < b.count && b[i + 1] == 0x7C && (i + 2 >= b.count || b[i + 2] != 0x7C)
                    && (i == 0 || b[i - 1] != 0x7C)
                if pair || closes.contains(i + 1) {
                    out.append(0x5C)
                    out.append(0x7C)
                    if pair {
                        out.append(0x5C)
                        out.append(0x7C)
                        i += 2
                    } else {
                        i += 1
                    }
                    continue
                }
            }
            out.append(b[i])
            i += 1
        }
        return out
    }
}
