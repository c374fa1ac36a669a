import SpoilerCore

extension RedditParser {
    /// The message of a Reddit message in the shape chat messages have, read without
    /// cmark-gfm; nil for any other, which cmark-gfm then reads.
    ///
    /// The shape: paragraphs, `> ` quotes (one paragraph each, every line marked, a blank
    /// line or the end after) and fenced code blocks (```` ```lang ```` … ```` ``` ````),
    /// with `**bold**`, `*italic*`, `~~strike~~`, `` `code` ``, `>!spoilers!<`,
    /// `[text](<url>)` and backslash escapes inside; blocks are joined by a blank line, as
    /// cmark-gfm's paragraphs are. The test is strict, so that the answer is always the one
    /// cmark-gfm gives (a differential test compares the two on generated messages): each
    /// delimiter can only open or only close by CommonMark's flanking rules and they nest
    /// properly on their line, and a line holds only
    /// what ``plainTextMessage(_:)`` allows besides (no Markdown that starts a line, no
    /// autolink, no HTML or entity, no whitespace but spaces and line breaks, none at a
    /// line's ends).
    static func markupMessage(_ b: [UInt8]) -> Message? {
        var reader = RedditMarkupReader(b)
        return reader.read()
    }
}

/// The state of ``RedditParser/markupMessage(_:)``.
struct RedditMarkupReader {
    let b: [UInt8]
    let n: Int
    var out: UTF8Message
    var i = 0
    var blocks = 0
    /// The inline reader's open entities, one array for all lines (at most one of each
    /// type is open).
    var stack: [(type: EntityType, index: Int)] = []

    init(_ b: [UInt8]) {
        self.b = b
        n = b.count
        out = UTF8Message(capacity: b.count)
        stack.reserveCapacity(6)
    }

    func lineEnd(_ k: Int) -> Int {
        var e = k
        while e < n && b[e] != 0x0A { e += 1 }
        return e
    }

    func starts(_ s: StaticString, at k: Int) -> Bool {
        let c = s.utf8CodeUnitCount
        guard k + c <= n else { return false }
        for j in 0..<c where b[k + j] != s.utf8Start[j] { return false }
        return true
    }

    func isQuoteLine(_ k: Int) -> Bool { starts("> ", at: k) }
    func isFence(_ k: Int) -> Bool { starts("```", at: k) }

    mutating func separate() {
        if blocks > 0 {
            out.bytes.append(0x0A)
            out.bytes.append(0x0A)
        }
        blocks += 1
    }

    mutating func read() -> Message? {
        while i < n {
            if b[i] == 0x0A {
                i += 1
                continue
            }
            if isFence(i) {
                guard fence() else { return nil }
            } else if isQuoteLine(i) {
                guard quote() else { return nil }
            } else {
                guard paragraph() else { return nil }
            }
        }
        guard blocks > 0 else { return nil }
        // Entities were opened in document order, outer before inner, as the Markdown
        // reader opens them: two over the same text come in the same order.
        return out.takeMessage()
    }

    /// Lines up to a blank line, a quote or a fence, joined by line breaks.
    mutating func paragraph() -> Bool {
        separate()
        var first = true
        while i < n && b[i] != 0x0A && (first || (!isQuoteLine(i) && !isFence(i))) {
            if !first { out.bytes.append(0x0A) }
            first = false
            let e = lineEnd(i)
            guard RedditInline(b: b, start: i, end: e).read(into: &out, stack: &stack) else { return false }
            i = e < n ? e + 1 : e
        }
        return true
    }

    /// `> ` lines, one paragraph, then a blank line or the end.
    mutating func quote() -> Bool {
        separate()
        let e = out.open(Entity(.blockquote, offset: 0, length: 0))
        var first = true
        while i < n && b[i] != 0x0A {
            guard isQuoteLine(i) else { return false }
            if !first { out.bytes.append(0x0A) }
            first = false
            let end = lineEnd(i)
            let k = i + 2
            // No nested quote (a `>!` spoiler may start the line).
            guard k < end, b[k] != UInt8(ascii: ">") || starts(">!", at: k), !isFence(k) else { return false }
            guard RedditInline(b: b, start: k, end: end).read(into: &out, stack: &stack) else { return false }
            i = end < n ? end + 1 : end
        }
        out.close(e)
        return true
    }

    /// ```` ```lang ```` to a line of ```` ``` ````; the code between.
    mutating func fence() -> Bool {
        var k = i + 3
        let start = k
        while k < n && RedditMarkupReader.isLanguage(b[k]) { k += 1 }
        guard k < n, b[k] == 0x0A else { return false }
        let language = k > start ? String(decoding: b[start..<k], as: UTF8.self) : nil
        k += 1
        let codeStart = k
        var codeEnd = -1
        while k < n {
            let e = lineEnd(k)
            var s = k
            while s < e && s - k < 3 && b[s] == 0x20 { s += 1 }
            if starts("```", at: s) {
                guard s == k, e == k + 3 else { return false }
                codeEnd = k - 1
                i = e < n ? e + 1 : e
                break
            }
            for j in k..<e where b[j] < 0x20 && b[j] != 0x09 { return false }
            k = e + 1
        }
        // Not empty, and no blank line at its end, which the Markdown reader may drop.
        guard codeEnd > codeStart, b[codeEnd - 1] != 0x0A else { return false }
        separate()
        let entity = out.open(Entity(.pre, offset: 0, length: 0, language: language))
        out.append(b, codeStart, codeEnd)
        out.close(entity)
        return true
    }

    static func isLanguage(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
            || c == 0x2B
    }
}
