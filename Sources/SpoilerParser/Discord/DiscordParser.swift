import SpoilerCore

/// Discord's message markdown (`--from discord`), with the rules of Discord's client, which
/// builds on simple-markdown: each rule is a pattern tried at the current position, the
/// first order that matches wins (among `*`/`_` emphasis, bold and underline, the longest
/// match, emphasis winning a tie), and a rule's content is parsed again on its own.
///
/// - `||text||` spoiler (`\|\|([\s\S]+?)\|\|`): non-greedy (the first `||` after at least one
///   character closes it), across lines, holding any other markup, padded or all spaces
///   (`||  x  ||` hides `  x  `); `||||` is literal. With `spoilerReasons`,
///   `||reason|text||` is a spoiler of `text` with that reason; an escaped `\|` is part of
///   the reason or the text, never the bar between them.
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
///
/// The reader works on the UTF-8 bytes (every markup character is ASCII) and answers the
/// searches that a regex engine would repeat — the closing `||`, `**`, `__` or `~~`, a
/// backtick run of a given length, the end of a link or an address — from tables
/// built once per message (`DiscordScanner+Search.swift`), so that unclosed markup costs
/// linear time: ``DiscordScanner/steps`` counts the work.
enum DiscordParser {
    static func parse(_ bytes: [UInt8], spoilerReasons: Bool) -> Message {
        var scanner = DiscordScanner(bytes)
        scanner.blocks()
        guard spoilerReasons else { return scanner.out.takeMessage() }
        let literalBars = Set(scanner.out.utf16Offsets(scanner.escapedBars))
        return SpoilerReasons.split(scanner.out.takeMessage(), literalBars: literalBars)
    }
}

struct DiscordScanner {
    /// The message, valid UTF-8.
    let s: [UInt8]
    var out: UTF8Message
    /// Byte offsets in `out` of the `|`s that were written escaped (`\|`).
    var escapedBars: [Int] = []
    /// Work done: one per byte read by a scan and per table entry built (for the tests that
    /// keep the reader linear).
    var steps = 0
    var search = DiscordSearch()
    static let maximumDepth = 32

    init(_ s: [UInt8]) {
        self.s = s
        out = UTF8Message(capacity: s.count)
    }

    static func isWord(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x5F
    }

    func starts(_ literal: StaticString, at i: Int, before end: Int) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i + n <= end else { return false }
        let p = literal.utf8Start
        for k in 0..<n where s[i + k] != p[k] { return false }
        return true
    }

    func lineEnd(from i: Int) -> Int {
        var k = i
        while k < s.count && s[k] != 0x0A { k += 1 }
        return k
    }

    mutating func open(_ e: Entity) -> Int { out.open(e) }

    /// Appends `s[from..<to]` to the text, through a pointer (no slice of `s` to retain).
    @inline(__always)
    mutating func copy(_ from: Int, _ to: Int) {
        guard from < to else { return }
        s.withUnsafeBufferPointer { out.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[from..<to])) }
    }

    mutating func close(_ index: Int) { out.close(index) }

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
                        out.bytes.append(0x0A)
                        k += 1
                    } else {
                        break
                    }
                }
                close(q)
                i = k
            } else if let marker = headingMarker(at: i) {
                let end = lineEnd(from: i)
                let h = open(Entity(.bold, offset: 0, length: 0))
                inline(i + marker, end, depth: 0)
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
            if i < s.count && s[i] == 0x0A {
                out.bytes.append(0x0A)
                i += 1
            }
        }
    }

    /// The length of `### `, `## ` or `# ` at `i`, if one is there.
    func headingMarker(at i: Int) -> Int? {
        if starts("### ", at: i, before: s.count) { return 4 }
        if starts("## ", at: i, before: s.count) { return 3 }
        if starts("# ", at: i, before: s.count) { return 2 }
        return nil
    }

    func isBlockLine(_ i: Int) -> Bool {
        starts("> ", at: i, before: s.count) || starts(">>> ", at: i, before: s.count) || headingMarker(at: i) != nil
            || starts("-# ", at: i, before: s.count)
    }

    // MARK: Inline rules

    /// Whether a rule may start at byte `b`: `\` `` ` `` `|` `*` `_` `~` `[` `<`, and `h`
    /// before `t` (of `http`).
    @inline(__always)
    func mayStartRule(_ b: UInt8, at i: Int) -> Bool {
        switch b {
        case 0x5C, 0x60, 0x7C, 0x2A, 0x5F, 0x7E, 0x5B, 0x3C: true
        case 0x68: i + 1 < s.count && s[i + 1] == 0x74
        default: false
        }
    }

    /// Whether byte `b` is a line break or may start a rule (``mayStartRule(_:at:)``'s bytes,
    /// as two 64-bit masks): the inline loop passes over any other at once.
    @inline(__always)
    static func mayMatter(_ b: UInt8) -> Bool {
        if b < 64 { return (0x1000_0400_0000_0400 as UInt64) &>> UInt64(b) & 1 != 0 }
        return b < 128 && (0x5000_0101_9800_0000 as UInt64) &>> UInt64(b &- 64) & 1 != 0
    }

    /// Where the run of bytes from `from` that do not ``mayMatter(_:)`` ends, before `end`:
    /// eight at a time while none of them may (``wordMayMatter(_:)``), then one at a time.
    static func quietRunEnd(_ p: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> Int {
        guard let base = p.baseAddress else { return from }
        var k = from
        while true {
            while k + 8 <= end && !wordMayMatter(UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self)) {
                k += 8
            }
            // One to eight bytes one at a time (a word that may matter, or the last bytes).
            let stop = min(k + 8, end)
            while k < stop {
                if mayMatter(base[k]) { return k }
                k += 1
            }
            if k >= end { return end }
        }
    }

    /// Whether any of the eight bytes of `w` (the first is the lowest) ``mayMatter(_:)``,
    /// but for `h`, which counts only before `t` or as the last byte: each class of bytes by
    /// the exact test of whether a byte lies strictly between two values (for ASCII bytes;
    /// others never match).
    @inline(__always)
    static func wordMayMatter(_ w: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let low7 = w & (ones &* 127)
        @inline(__always) func between(_ m: UInt64, _ n: UInt64) -> UInt64 {
            (ones &* (127 &+ n) &- low7) & ~w & (low7 &+ ones &* (127 &- m)) & high
        }
        let any =
            between(0x09, 0x0B) | between(0x29, 0x2B) | between(0x3B, 0x3D) | between(0x5A, 0x61)
            | between(0x7B, 0x7F)
        let h = between(0x67, 0x69)
        let t = between(0x73, 0x75)
        return any | (h & ((t &>> 8) | (0x80 &<< 56))) != 0
    }

    /// Reads `s[from..<end]`; returns where it stopped (at a line that starts a block rule
    /// when `stopAtBlockLine`, else `end`).
    @discardableResult
    mutating func inline(_ from: Int, _ end: Int, depth: Int, stopAtBlockLine: Bool = false) -> Int {
        var i = from
        // Text not yet copied: s[run..<i].
        var run = from
        let rules = depth < DiscordScanner.maximumDepth
        while i < end {
            let b = s[i]
            if !DiscordScanner.mayMatter(b) {
                // The run of such bytes, through a pointer (no reload of the array per byte).
                i = s.withUnsafeBufferPointer { DiscordScanner.quietRunEnd($0, from: i + 1, to: end) }
                continue
            }
            if b == 0x0A {
                i += 1
                if stopAtBlockLine && i < end && isBlockLine(i) {
                    copy(run, i)
                    steps += i - from
                    return i
                }
                continue
            }
            guard rules && mayStartRule(b, at: i) else {
                i += 1
                continue
            }
            copy(run, i)
            if let next = rule(at: i, end, depth: depth) {
                i = next
                run = next
            } else {
                run = i
                i += 1
            }
        }
        steps += end - from
        copy(run, end)
        return end
    }

    /// Applies the rule that matches at `i`, if any; returns where it ended.
    mutating func rule(at i: Int, _ end: Int, depth: Int) -> Int? {
        let c = s[i]
        switch c {
        case UInt8(ascii: "\\"):
            guard i + 1 < end, !DiscordScanner.isWord(s[i + 1]) || s[i + 1] == UInt8(ascii: "_"),
                spaceLength(i + 1) == 0
            else { return nil }
            let next = i + 1 + scalarLength(i + 1)
            if s[i + 1] == UInt8(ascii: "|") { escapedBars.append(out.bytes.count) }
            copy(i + 1, next)
            return next
        case UInt8(ascii: "`"):
            return codeBlock(at: i, end) ?? inlineCode(at: i, end)
        case UInt8(ascii: "|"):
            guard starts("||", at: i, before: end), let close = pair(.pipe, after: i, end) else { return nil }
            let e = open(Entity(.spoiler, offset: 0, length: 0))
            inline(i + 2, close, depth: depth + 1)
            self.close(e)
            return close + 2
        case UInt8(ascii: "*"), UInt8(ascii: "_"):
            let double = starts(c == UInt8(ascii: "*") ? "**" : "__", at: i, before: end)
            let strong = double ? pair(c == UInt8(ascii: "*") ? .star : .underscore, after: i, end).map { $0 + 2 } : nil
            let em = c == UInt8(ascii: "*") ? starEmphasis(at: i, end) : underscoreEmphasis(at: i, end)
            // simple-markdown's quality: length + 0.2 for emphasis, + 0.1 for bold/underline.
            if let em, em - i >= (strong ?? 0) - i {
                let e = open(Entity(.italic, offset: 0, length: 0))
                inline(i + 1, em - 1, depth: depth + 1)
                close(e)
                return em
            }
            if let strong {
                let e = open(Entity(c == UInt8(ascii: "*") ? .bold : .underline, offset: 0, length: 0))
                inline(i + 2, strong - 2, depth: depth + 1)
                close(e)
                return strong
            }
            return nil
        case UInt8(ascii: "~"):
            guard starts("~~", at: i, before: end), let close = pair(.tilde, after: i, end) else { return nil }
            let e = open(Entity(.strikethrough, offset: 0, length: 0))
            inline(i + 2, close, depth: depth + 1)
            self.close(e)
            return close + 2
        case UInt8(ascii: "["):
            return maskedLink(at: i, end, depth: depth)
        case UInt8(ascii: "<"):
            guard starts("<https://", at: i, before: end) || starts("<http://", at: i, before: end) else { return nil }
            let k = nextStop(.angleOrSpace, from: i + 1)
            guard k < end, s[k] == UInt8(ascii: ">") else { return nil }
            let e = open(Entity(.url, offset: 0, length: 0))
            copy(i + 1, k)
            close(e)
            return k + 1
        case UInt8(ascii: "h"):
            guard starts("https://", at: i, before: end) || starts("http://", at: i, before: end),
                i == 0 || !DiscordScanner.isWord(s[i - 1])
            else { return nil }
            var k = i
            while k < end && spaceLength(k) == 0 && s[k] != UInt8(ascii: "<") { k += 1 }
            // Trailing punctuation is not part of the address.
            while k > i && DiscordScanner.isTrailingPunctuation(s[k - 1]) { k -= 1 }
            steps += k - i
            guard scalarCount(i, k, moreThan: 8) else { return nil }
            let e = open(Entity(.url, offset: 0, length: 0))
            copy(i, k)
            close(e)
            return k
        default:
            return nil
        }
    }

    static func isTrailingPunctuation(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ":"), UInt8(ascii: ";"), UInt8(ascii: "\""),
            UInt8(ascii: "'"), UInt8(ascii: ")"), UInt8(ascii: "]"):
            true
        default: false
        }
    }

    /// Whether `s[from..<to]` holds more than `n` Unicode scalars.
    func scalarCount(_ from: Int, _ to: Int, moreThan n: Int) -> Bool {
        var count = 0
        var k = from
        while k < to {
            if s[k] & 0xC0 != 0x80 {
                count += 1
                if count > n { return true }
            }
            k += 1
        }
        return false
    }

    /// ```` ```lang\ncode``` ````: `^```(?:([a-z0-9_+\-.#]+?)\n)?\n*([^\n][^]*?)\n*```` (case-insensitive).
    mutating func codeBlock(at i: Int, _ end: Int) -> Int? {
        guard starts("```", at: i, before: end) else { return nil }
        var j = i + 3
        var language: String?
        var k = j
        while k < end && (DiscordScanner.isWord(s[k]) || DiscordScanner.isLanguagePunctuation(s[k])) { k += 1 }
        steps += k - j
        if k > j && k < end && s[k] == 0x0A {
            language = String(decoding: s[j..<k], as: UTF8.self)
            j = k + 1
        }
        let newlines = j
        while j < end && s[j] == 0x0A { j += 1 }
        steps += j - newlines
        guard j < end else { return nil }
        let first = j + scalarLength(j)
        let close = nextStop(.backtickTriple, from: first)
        guard close + 3 <= end else { return nil }
        var contentEnd = close
        while contentEnd > first && s[contentEnd - 1] == 0x0A { contentEnd -= 1 }
        let e = open(Entity(.pre, offset: 0, length: 0, language: language))
        copy(j, contentEnd)
        self.close(e)
        return close + 3
    }

    static func isLanguagePunctuation(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b == UInt8(ascii: "#")
    }

    /// `` (`+)([\s\S]*?[^`])\1(?!`) ``.
    mutating func inlineCode(at i: Int, _ end: Int) -> Int? {
        var k = i
        while k < end && s[k] == 0x60 && k < i + DiscordScanner.shortScan { k += 1 }
        if k < end && s[k] == 0x60 { k = min(backtickRunEnd(at: i), end) }
        guard let j = backtickRun(length: k - i, after: k, end) else { return nil }
        let e = open(Entity(.code, offset: 0, length: 0))
        copy(k, j)
        close(e)
        return j + (k - i)
    }

    /// `[text](http(s)://…)`, the text without brackets, the address without spaces.
    mutating func maskedLink(at i: Int, _ end: Int, depth: Int) -> Int? {
        var k = i + 1
        while k < end && s[k] != UInt8(ascii: "]") && s[k] != UInt8(ascii: "[") { k += 1 }
        steps += k - i
        guard k < end, s[k] == UInt8(ascii: "]"), k > i + 1, starts("](http", at: k, before: end) else { return nil }
        let u = nextStop(.parenthesisOrSpace, from: k + 2)
        guard u < end, s[u] == UInt8(ascii: ")") else { return nil }
        let address = s[(k + 2)..<u]
        guard address.starts(with: "https://".utf8) || address.starts(with: "http://".utf8) else { return nil }
        let e = open(Entity(.textLink, offset: 0, length: 0, url: String(decoding: address, as: UTF8.self)))
        inline(i + 1, k, depth: depth + 1)
        close(e)
        return u + 1
    }
}
