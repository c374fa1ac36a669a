import SpoilerCore

/// Discord's message markdown (`--from discord`), with the rules of Discord's client, which
/// builds on simple-markdown: each rule is a pattern tried at the current position, the
/// first order that matches wins (among `*`/`_` emphasis, bold and underline, the longest
/// match, emphasis winning a tie), and a rule's content is parsed again on its own.
///
/// - `||text||` spoiler (`\|\|([\s\S]+?)\|\|`): non-greedy (the first `||` after at least one
///   character closes it), across lines, holding any other markup, padded or all spaces
///   (`||  x  ||` hides `  x  `); `||||` is literal. With `spoilerReasons`,
///   `||reason|text||` is a spoiler of `text` with that reason.
/// - `**bold**` (`\*\*([\s\S]+?)\*\*(?!\*)`), `__underline__` (`__([\s\S]+?)__(?!_)`),
///   `~~strike~~` (`~~([\s\S]+?)~~(?!_)`); `*italic*` (opening `*` before a non-space, no
///   space before the closing one) and `_italic_` (between non-word characters).
/// - `` `code` `` (any run of backticks, closed by a run as long) and ```` ```lang ````
///   code blocks (a `pre` with its language; the newlines around the code are not part of it).
/// - `> ` quotes a line and `>>> ` the rest of the message (a `blockquote`); `# `, `## `,
///   `### ` headings are `bold` (Telegram has no headings); `-# ` subtext keeps its text
///   without an entity; all at the start of a line, the marker and its space dropped.
/// - `[text](https://…)` masked links (`text_link`); `https://…` and `<https://…>` are `url`
///   entities, with no markup read inside.
/// - `\` before a character that is not a letter, digit or space makes it literal.
/// - Unclosed markup is literal text, as in Discord; there is no syntax error. Markup nested
///   deeper than 32 is read as text.
///
/// Left out: mentions, channels, emoji and timestamps (`<@id>`, `<:name:id>`, `<t:…>`) stay
/// as written; list markers stay as text.
enum DiscordParser {
    static func parse(_ bytes: [UInt8], spoilerReasons: Bool) -> Message {
        let text = String(decoding: bytes, as: UTF8.self)
        var parser = DiscordScanner(Array(text.unicodeScalars))
        parser.blocks()
        let message = parser.out.message
        return spoilerReasons ? SpoilerReasons.split(message) : message
    }
}

struct DiscordScanner {
    let s: [Unicode.Scalar]
    var out = ScalarMessage()
    static let maximumDepth = 32

    init(_ s: [Unicode.Scalar]) { self.s = s }

    static func isWord(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_"
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool { c.properties.isWhitespace }

    func starts(_ literal: String, at i: Int, before end: Int) -> Bool {
        var k = i
        for c in literal.unicodeScalars {
            guard k < end, s[k] == c else { return false }
            k += 1
        }
        return true
    }

    func lineEnd(from i: Int) -> Int {
        var k = i
        while k < s.count && s[k] != "\n" { k += 1 }
        return k
    }

    mutating func open(_ e: Entity) -> Int {
        var e = e
        e.offset = out.scalars.count
        out.entities.append(e)
        return out.entities.count - 1
    }

    mutating func close(_ index: Int) {
        out.entities[index].length = out.scalars.count - out.entities[index].offset
    }

    // MARK: Line-start rules

    mutating func blocks() {
        var i = 0
        while i < s.count {
            if starts(">>> ", at: i, before: s.count) {
                let q = open(Entity(.blockquote, offset: 0, length: 0))
                inline(i + 4, s.count, depth: 0)
                close(q)
                return
            }
            if starts("> ", at: i, before: s.count) {
                // Consecutive quoted lines make one quotation.
                let q = open(Entity(.blockquote, offset: 0, length: 0))
                var k = i
                while starts("> ", at: k, before: s.count) {
                    let end = lineEnd(from: k)
                    inline(k + 2, end, depth: 0)
                    k = end
                    if k < s.count && starts("> ", at: k + 1, before: s.count) {
                        out.scalars.append("\n")
                        k += 1
                    } else {
                        break
                    }
                }
                close(q)
                i = k
            } else if let marker = ["### ", "## ", "# "].first(where: { starts($0, at: i, before: s.count) }) {
                let end = lineEnd(from: i)
                let h = open(Entity(.bold, offset: 0, length: 0))
                inline(i + marker.unicodeScalars.count, end, depth: 0)
                close(h)
                i = end
            } else if starts("-# ", at: i, before: s.count) {
                let end = lineEnd(from: i)
                inline(i + 3, end, depth: 0)
                i = end
            } else {
                // Inline content runs to the next line that starts a block rule; a code
                // block or spoiler may run past line ends, so the inline pass decides.
                i = inline(i, s.count, depth: 0, stopAtBlockLine: true)
                continue
            }
            if i < s.count && s[i] == "\n" {
                out.scalars.append("\n")
                i += 1
            }
        }
    }

    func isBlockLine(_ i: Int) -> Bool {
        starts("> ", at: i, before: s.count) || starts(">>> ", at: i, before: s.count)
            || starts("# ", at: i, before: s.count) || starts("## ", at: i, before: s.count)
            || starts("### ", at: i, before: s.count) || starts("-# ", at: i, before: s.count)
    }

    // MARK: Inline rules

    /// Reads `s[from..<end]`; returns where it stopped (at a line that starts a block rule
    /// when `stopAtBlockLine`, else `end`).
    @discardableResult
    mutating func inline(_ from: Int, _ end: Int, depth: Int, stopAtBlockLine: Bool = false) -> Int {
        var i = from
        while i < end {
            if stopAtBlockLine && i > from && s[i - 1] == "\n" && isBlockLine(i) { return i }
            if depth < DiscordScanner.maximumDepth, let next = rule(at: i, end, depth: depth) {
                i = next
                continue
            }
            out.scalars.append(s[i])
            i += 1
        }
        return end
    }

    /// Applies the rule that matches at `i`, if any; returns where it ended.
    mutating func rule(at i: Int, _ end: Int, depth: Int) -> Int? {
        let c = s[i]
        switch c {
        case "\\":
            guard i + 1 < end, !DiscordScanner.isWord(s[i + 1]) || s[i + 1] == "_", !DiscordScanner.isSpace(s[i + 1])
            else { return nil }
            out.scalars.append(s[i + 1])
            return i + 2
        case "`":
            return codeBlock(at: i, end) ?? inlineCode(at: i, end)
        case "|":
            guard starts("||", at: i, before: end), let close = pair("|", from: i + 3, end, notFollowedBy: nil) else {
                return nil
            }
            let e = open(Entity(.spoiler, offset: 0, length: 0))
            inline(i + 2, close, depth: depth + 1)
            self.close(e)
            return close + 2
        case "*", "_":
            let double = starts(String(c) + String(c), at: i, before: end)
            let strong = double ? pair(c, from: i + 3, end, notFollowedBy: c).map { $0 + 2 } : nil
            let em = c == "*" ? starEmphasis(at: i, end) : underscoreEmphasis(at: i, end)
            // simple-markdown's quality: length + 0.2 for emphasis, + 0.1 for bold/underline.
            if let em, em - i >= (strong ?? 0) - i {
                let e = open(Entity(.italic, offset: 0, length: 0))
                inline(i + 1, em - 1, depth: depth + 1)
                close(e)
                return em
            }
            if let strong {
                let e = open(Entity(c == "*" ? .bold : .underline, offset: 0, length: 0))
                inline(i + 2, strong - 2, depth: depth + 1)
                close(e)
                return strong
            }
            return nil
        case "~":
            guard starts("~~", at: i, before: end), let close = pair("~", from: i + 3, end, notFollowedBy: "_") else {
                return nil
            }
            let e = open(Entity(.strikethrough, offset: 0, length: 0))
            inline(i + 2, close, depth: depth + 1)
            self.close(e)
            return close + 2
        case "[":
            return maskedLink(at: i, end, depth: depth)
        case "<":
            guard starts("<https://", at: i, before: end) || starts("<http://", at: i, before: end) else { return nil }
            var k = i + 1
            while k < end && s[k] != ">" && !DiscordScanner.isSpace(s[k]) { k += 1 }
            guard k < end, s[k] == ">" else { return nil }
            let e = open(Entity(.url, offset: 0, length: 0))
            out.scalars.append(contentsOf: s[(i + 1)..<k])
            close(e)
            return k + 1
        case "h":
            guard starts("https://", at: i, before: end) || starts("http://", at: i, before: end),
                i == 0 || !DiscordScanner.isWord(s[i - 1])
            else { return nil }
            var k = i
            while k < end && !DiscordScanner.isSpace(s[k]) && s[k] != "<" { k += 1 }
            // Trailing punctuation is not part of the address.
            while k > i && ".,:;\"')]".unicodeScalars.contains(s[k - 1]) { k -= 1 }
            guard k > i + 8 else { return nil }
            let e = open(Entity(.url, offset: 0, length: 0))
            out.scalars.append(contentsOf: s[i..<k])
            close(e)
            return k
        default:
            return nil
        }
    }

    /// The first `cc` at or after `from` that ends by `end` and is not followed by
    /// `notFollowedBy` (the end of the content counts as not followed).
    func pair(_ c: Unicode.Scalar, from: Int, _ end: Int, notFollowedBy: Unicode.Scalar?) -> Int? {
        var j = from
        while j + 1 < end {
            if s[j] == c && s[j + 1] == c {
                if let n = notFollowedBy, j + 2 < end, s[j + 2] == n {
                    j += 1
                    continue
                }
                return j
            }
            j += 1
        }
        return nil
    }

    /// simple-markdown's `*` emphasis: `\*(?=\S)((?:\*\*|\\[\s\S]|\s+(?:\\[\s\S]|[^\s\*\\]|\*\*)|[^\s\*\\])+?)\*(?!\*)`;
    /// returns the end of the match.
    func starEmphasis(at i: Int, _ end: Int) -> Int? {
        var j = i + 1
        guard j < end, !DiscordScanner.isSpace(s[j]) else { return nil }
        var units = 0
        while j < end {
            if units > 0 && s[j] == "*" && !(j + 1 < end && s[j + 1] == "*") { return j + 1 }
            if starts("**", at: j, before: end) {
                j += 2
            } else if s[j] == "\\" && j + 1 < end {
                j += 2
            } else if DiscordScanner.isSpace(s[j]) {
                while j < end && DiscordScanner.isSpace(s[j]) { j += 1 }
                guard j < end else { return nil }
                if s[j] == "\\" && j + 1 < end {
                    j += 2
                } else if starts("**", at: j, before: end) {
                    j += 2
                } else if s[j] != "*" {
                    j += 1
                } else {
                    return nil
                }
            } else if s[j] != "*" {
                j += 1
            } else {
                return nil
            }
            units += 1
        }
        return nil
    }

    /// simple-markdown's `_` emphasis: `\b_((?:__|\\[\s\S]|[^\\_])+?)_\b`.
    func underscoreEmphasis(at i: Int, _ end: Int) -> Int? {
        if i > 0 && DiscordScanner.isWord(s[i - 1]) { return nil }
        var j = i + 1
        var units = 0
        while j < end {
            if units > 0 && s[j] == "_" && !(j + 1 < end && DiscordScanner.isWord(s[j + 1])) { return j + 1 }
            if starts("__", at: j, before: end) {
                j += 2
            } else if s[j] == "\\" && j + 1 < end {
                j += 2
            } else if s[j] != "_" {
                j += 1
            } else {
                return nil
            }
            units += 1
        }
        return nil
    }

    /// ```` ```lang\ncode``` ````: `^```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][^]*?)\n*```` (case-insensitive).
    mutating func codeBlock(at i: Int, _ end: Int) -> Int? {
        guard starts("```", at: i, before: end) else { return nil }
        var j = i + 3
        var language: String?
        var k = j
        while k < end && (DiscordScanner.isWord(s[k]) || "+-.#".unicodeScalars.contains(s[k])) && s[k].isASCII { k += 1 }
        if k > j && k < end && s[k] == "\n" {
            language = String(String.UnicodeScalarView(s[j..<k]))
            j = k + 1
        }
        while j < end && s[j] == "\n" { j += 1 }
        guard j < end else { return nil }
        var close = j + 1
        while close + 2 < end + 0 && !starts("```", at: close, before: end) { close += 1 }
        guard starts("```", at: close, before: end) else { return nil }
        var contentEnd = close
        while contentEnd > j + 1 && s[contentEnd - 1] == "\n" { contentEnd -= 1 }
        let e = open(Entity(.pre, offset: 0, length: 0, language: language))
        out.scalars.append(contentsOf: s[j..<contentEnd])
        self.close(e)
        return close + 3
    }

    /// `` (`+)([\s\S]*?[^`])\1(?!`) ``.
    mutating func inlineCode(at i: Int, _ end: Int) -> Int? {
        var k = i
        while k < end && s[k] == "`" { k += 1 }
        let fence = k - i
        var j = k
        while j < end {
            if s[j] == "`" {
                var r = j
                while r < end && s[r] == "`" { r += 1 }
                if r - j == fence && j > k {
                    let e = open(Entity(.code, offset: 0, length: 0))
                    out.scalars.append(contentsOf: s[k..<j])
                    close(e)
                    return r
                }
                j = r
            } else {
                j += 1
            }
        }
        return nil
    }

    /// `[text](http(s)://…)`, the text without brackets, the address without spaces.
    mutating func maskedLink(at i: Int, _ end: Int, depth: Int) -> Int? {
        var k = i + 1
        while k < end && s[k] != "]" && s[k] != "[" { k += 1 }
        guard k < end, s[k] == "]", k > i + 1, starts("](http", at: k, before: end) else { return nil }
        var u = k + 2
        while u < end && s[u] != ")" && !DiscordScanner.isSpace(s[u]) { u += 1 }
        guard u < end, s[u] == ")" else { return nil }
        let url = String(String.UnicodeScalarView(s[(k + 2)..<u]))
        guard url.hasPrefix("https://") || url.hasPrefix("http://") else { return nil }
        let e = open(Entity(.textLink, offset: 0, length: 0, url: url))
        inline(i + 1, k, depth: depth + 1)
        close(e)
        return u + 1
    }
}
