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
/// Implementation: a message of plain text, spoilers and code spans is read directly
/// (`plainTextMessage`), and so is one of paragraphs, quotes and code blocks with the common
/// inline markup (`markupMessage`); any other has its spoilers found first and turned into the
/// Markdown reader's own `||` delimiters (other `||` runs escaped), then is read as Markdown.
enum RedditParser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        if let message = plainTextMessage(bytes) ?? markupMessage(bytes) { return message }
        return try MarkdownParser.parse(markdown(from: bytes))
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// The byte ranges of `bytes` that are code (spans, fenced and indented blocks), as a mask.
    static func codeMask(_ b: [UInt8], steps: inout Int) -> [Bool] {
        var mask = [Bool](repeating: false, count: b.count)
        // Backtick runs by length, each list in order of start (built at the first one).
        var runs: [Int: [Int]]?
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
                steps += n
                // The first run of exactly n backticks after this one closes it.
                if runs == nil { runs = backtickRuns(b, steps: &steps) }
                var close: Int?
                if let starts = runs?[n] {
                    var lo = 0
                    var hi = starts.count
                    while lo < hi {
                        let mid = (lo + hi) / 2
                        if starts[mid] < r { lo = mid + 1 } else { hi = mid }
                    }
                    if lo < starts.count { close = starts[lo] + n }
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

    /// The maximal runs of backticks in `b`: their starts, by length.
    static func backtickRuns(_ b: [UInt8], steps: inout Int) -> [Int: [Int]] {
        steps += b.count
        var runs: [Int: [Int]] = [:]
        var j = 0
        while j < b.count {
            guard b[j] == 0x60 else {
                j += 1
                continue
            }
            var r = j
            while r < b.count && b[r] == 0x60 { r += 1 }
            runs[r - j, default: []].append(j)
            j = r
        }
        return runs
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

    /// The first closing `!<` at or after `start` (skipping escaped characters and code, and
    /// stopping at a blank line), as a search from there finds it.
    ///
    /// The search is a function of where it is, not of where it began; so every offset it
    /// passes records its answer in `known`, and a later search that reaches one stops
    /// there: each offset is searched once, however many spoilers are left unclosed.
    static func closer(_ b: [UInt8], _ code: [Bool], from start: Int, _ known: inout [Int32], steps: inout Int) -> Int?
    {
        var visited: [Int] = []
        var j = start
        var result: Int32 = -1
        while j + 1 < b.count {
            if known[j] != -2 {
                result = known[j]
                break
            }
            visited.append(j)
            steps += 1
            if b[j] == 0x0A && (b[j + 1] == 0x0A || b[j + 1] == 0x0D) { break }
            if b[j] == 0x5C {
                j += 2
                continue
            }
            if !code[j], b[j] == 0x21, b[j + 1] == 0x3C, !isSpace(b[j - 1]) {
                result = Int32(j)
                break
            }
            j += 1
        }
        for v in visited { known[v] = result }
        return result >= 0 ? Int(result) : nil
    }

    /// `bytes` with Reddit spoilers as `||…||` and every other `||` escaped.
    static func markdown(from b: [UInt8]) -> [UInt8] {
        var steps = 0
        return markdown(from: b, steps: &steps)
    }

    /// ``markdown(from:)``, adding to `steps` one per byte read by a scan or a table built
    /// (for the tests that keep the reader linear).
    static func markdown(from b: [UInt8], steps: inout Int) -> [UInt8] {
        steps += b.count
        let code = codeMask(b, steps: &steps)
        // 1 where a spoiler opens, 2 where one closes (arrays: a set costs a hash a byte).
        var marks = [UInt8](repeating: 0, count: b.count + 1)
        var escaped = [Bool](repeating: false, count: b.count)
        // Per offset, the closer that a search from there finds: -1 none, -2 not known yet.
        var closers: [Int32] = []
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
                // The closing `!<` comes after the spoiler's first character (an escaped
                // one, `\x`, when it is a backslash).
                let second = b[i + 2] == 0x5C ? i + 4 : i + 3
                if closers.isEmpty { closers = [Int32](repeating: -2, count: b.count + 1) }
                if let found = closer(b, code, from: second, &closers, steps: &steps) {
                    marks[i] = 1
                    marks[found] = 2
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
            if marks[i] != 0 {
                out.append(0x7C)
                out.append(0x7C)
                i += 2
                // A pipe right inside the marker would make a run of three.
                if marks[i - 2] == 1, i < b.count, b[i] == 0x7C { out.append(0x5C) }
                continue
            }
            if b[i] == 0x7C && !code[i] && !escaped[i] {
                // Escape a pipe that the Markdown reader could take as a spoiler: one of
                // exactly two, or one right before a closing marker.
                let pair =
                    i + 1 < b.count && b[i + 1] == 0x7C && (i + 2 >= b.count || b[i + 2] != 0x7C)
                    && (i == 0 || b[i - 1] != 0x7C)
                if pair || marks[i + 1] == 2 {
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
