import SpoilerCore

/// Writes a message as CommonMark with the `||spoiler||` extension, for ``MarkdownSerializer``.
struct MarkdownWriter {
    /// An entity over scalar indices of the text.
    struct Span {
        var type: EntityType
        var start: Int
        var end: Int
        var url: String?
        var language: String?
    }

    let scalars: [Unicode.Scalar]
    var spoilerOpen = "||"
    var spoilerClose = "||"
    var spans: [Span] = []
    var out: [UInt8] = []
    /// Inline spans whose opening marker is written, innermost last.
    var stack: [Int] = []
    var atLineStart = true
    var inQuote = false
    /// Only digits so far on this line (for `1.` list markers).
    var lineDigitsOnly = true
    /// Whether anything but spaces and tabs is on this line yet.
    var lineHasContent = false
    /// A block quote just ended: the next content must follow a blank line.
    var blankLineOwed = false
    /// Inline spans that have started and not ended, in start order.
    var active: [Int] = []
    /// Whether a space or tab at each index runs up to a line end (so must be written as a
    /// character reference).
    var trailingWhitespace: [Bool] = []
    /// Whether a newline at each index has only newlines after it.
    var trailingNewline: [Bool] = []

    init(_ message: Message) {
        scalars = Array(message.text.unicodeScalars)
        // UTF-16 offset -> scalar index (rounding a split surrogate pair down).
        var index: [Int] = []
        index.reserveCapacity(message.utf16Length + 1)
        for (i, s) in scalars.enumerated() {
            index.append(i)
            if s.value > 0xFFFF { index.append(i) }
        }
        index.append(scalars.count)
        func at(_ offset: Int) -> Int { index[min(max(offset, 0), index.count - 1)] }
        for e in message.entities {
            let type: EntityType
            switch e.type {
            case .bold, .italic, .strikethrough, .spoiler, .code, .pre, .textLink, .url, .email, .blockquote:
                type = e.type
            case .expandableBlockquote:
                type = .blockquote
            default:
                continue
            }
            var s = Span(type: type, start: at(e.offset), end: at(e.end), url: e.url, language: e.language)
            if type == .url || type == .email {
                s.url = String(String.UnicodeScalarView(scalars[s.start..<s.end]))
                if type == .email { s.url = "mailto:" + s.url! }
                s.type = .textLink
            }
            if type != .pre && type != .blockquote && type != .code {
                while s.start < s.end && MarkdownWriter.isSpace(scalars[s.start]) { s.start += 1 }
                while s.end > s.start && MarkdownWriter.isSpace(scalars[s.end - 1]) { s.end -= 1 }
            }
            if s.type == .textLink && (s.url ?? "").isEmpty { continue }
            if s.end > s.start { spans.append(s) }
        }
        spans.sort { $0.start != $1.start ? $0.start < $1.start : $0.end > $1.end }
        // Nothing inside code: drop spans that start inside a code span or pre block.
        var kept: [Span] = []
        var codeEnd = -1
        for s in spans {
            if s.start < codeEnd { continue }
            if s.type == .code || s.type == .pre { codeEnd = s.end }
            kept.append(s)
        }
        spans = kept
        trailingNewline = Array(repeating: false, count: scalars.count)
        var i = scalars.count - 1
        while i >= 0 && scalars[i] == "\n" {
            trailingNewline[i] = true
            i -= 1
        }
        trailingWhitespace = Array(repeating: false, count: scalars.count)
        var trailing = true
        for i in stride(from: scalars.count - 1, through: 0, by: -1) {
            let c = scalars[i]
            if c == "\n" || c == "\r" {
                trailing = true
            } else if c == " " || c == "\t" {
                trailingWhitespace[i] = trailing
            } else {
                trailing = false
            }
        }
    }

    static func isSpace(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace }

    mutating func run() {
        var next = 0  // next span to consider opening
        var quoteEnd = -1
        var p = 0
        while p < scalars.count {
            // Block quotes end and start.
            if inQuote && p >= quoteEnd {
                closeAll()
                inQuote = false
                // The next line would continue the quote lazily: a blank line must come
                // first (the text's own newlines count).
                blankLineOwed = true
            }
            if blankLineOwed && scalars[p] != "\n" {
                blankLineBeforeNextContent()
                blankLineOwed = false
            }
            // Spans that start or end here.
            var changed = false
            let before = active.count
            active.removeAll { spans[$0].end <= p }
            if active.count != before { changed = true }
            var startsHere: [Int] = []
            while next < spans.count && spans[next].start <= p {
                if spans[next].start == p {
                    startsHere.append(next)
                    if isInline(spans[next]) {
                        active.append(next)
                        changed = true
                    }
                }
                next += 1
            }
            if let q = startsHere.first(where: { spans[$0].type == .blockquote }), !inQuote {
                closeAll()
                if !atLineStart { emit("\n"); atLineStart = true }
                inQuote = true
                quoteEnd = spans[q].end
            }
            if let c = startsHere.first(where: { spans[$0].type == .pre }) {
                closeAll()
                writePre(spans[c])
                p = spans[c].end
                continue
            }
            if atLineStart { beginLine() }
            if changed || stack.count < active.count { sync(at: p) }
            if let c = startsHere.first(where: { spans[$0].type == .code }) {
                writeCode(spans[c])
                lineHasContent = true
                p = spans[c].end
                continue
            }
            writeCharacter(at: p)
            p += 1
        }
        closeAll()
    }

    // MARK: Inline markers

    func marker(_ type: EntityType) -> String {
        switch type {
        case .bold: return "**"
        case .italic: return "*"
        case .strikethrough: return "~~"
        case .spoiler: return "||"
        default: return ""
        }
    }

    func isInline(_ s: Span) -> Bool {
        switch s.type {
        case .bold, .italic, .strikethrough, .spoiler, .textLink: return true
        default: return false
        }
    }

    /// Brings the open markers in line with the spans active at `p`.
    ///
    /// Closes markers of spans not active at `p` (and those above them), then opens the
    /// active ones that are not open, outermost first. A span that crosses the innermost
    /// open one waits until that one closes.
    mutating func sync(at p: Int) {
        var keep = 0
        while keep < stack.count, p < spans[stack[keep]].end { keep += 1 }
        while stack.count > keep { close(stack.removeLast()) }
        var opening = active.filter { !stack.contains($0) }
        opening.sort { spans[$0].end != spans[$1].end ? spans[$0].end > spans[$1].end : $0 < $1 }
        for i in opening {
            if let top = stack.last, spans[i].end > spans[top].end { continue }
            open(i)
            stack.append(i)
        }
    }

    mutating func open(_ i: Int) {
        if spans[i].type == .textLink {
            emit("[")
        } else if spans[i].type == .spoiler {
            emit(spoilerOpen)
        } else {
            emit(marker(spans[i].type))
        }
    }

    mutating func close(_ i: Int) {
        let s = spans[i]
        if s.type == .textLink {
            emit("](<")
            for c in (s.url ?? "").unicodeScalars {
                switch c {
                case "<", ">", "\\": emit("\\"); emitScalar(c)
                case "\n": emit("%0A")
                case "\r": emit("%0D")
                default: emitScalar(c)
                }
            }
            emit(">)")
        } else if s.type == .spoiler {
            emit(spoilerClose)
        } else {
            emit(marker(s.type))
        }
    }

    mutating func closeAll() {
        while let i = stack.popLast() { close(i) }
    }

    // MARK: Blocks

    mutating func beginLine() {
        if inQuote { emit("> ") }
        atLineStart = false
        lineDigitsOnly = true
        lineHasContent = false
    }

    mutating func blankLineBeforeNextContent() {
        if out.isEmpty { return }
        if out.last != 0x0A { out.append(0x0A) }
        if out.count < 2 || out[out.count - 2] != 0x0A { out.append(0x0A) }
        atLineStart = true
    }

    mutating func writePre(_ s: Span) {
        if !out.isEmpty && !atLineStart { blankLineBeforeNextContent() }
        let body = scalars[s.start..<s.end]
        var longest = 0
        var run = 0
        for c in body {
            if c == "`" { run += 1; longest = max(longest, run) } else { run = 0 }
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        if atLineStart { beginLine() }
        emit(fence)
        if let language = s.language {
            for c in language.unicodeScalars where !MarkdownWriter.isSpace(c) && c != "`" { emitScalar(c) }
        }
        emit("\n")
        if inQuote { emit("> ") }
        for c in body {
            if c == "\n" {
                emit("\n")
                if inQuote { emit("> ") }
            } else {
                emitScalar(c)
            }
        }
        emit("\n")
        if inQuote { emit("> ") }
        emit(fence)
        atLineStart = false
        // A fenced block ends its line; the text after it starts a new one.
        if s.end < scalars.count && scalars[s.end] != "\n" {
            emit("\n")
            atLineStart = true
        }
    }

    mutating func writeCode(_ s: Span) {
        let body = scalars[s.start..<s.end]
        var longest = 0
        var run = 0
        var runs: Set<Int> = []
        for c in body {
            if c == "`" {
                run += 1
            } else {
                if run > 0 { runs.insert(run) }
                run = 0
            }
            longest = max(longest, run)
        }
        if run > 0 { runs.insert(run) }
        var n = 1
        while runs.contains(n) { n += 1 }
        let fence = String(repeating: "`", count: n)
        let allSpaces = body.allSatisfy { $0 == " " }
        let pad = !allSpaces && (body.first == "`" || body.last == "`" || (body.first == " " && body.last == " "))
        emit(fence)
        if pad { emit(" ") }
        for c in body { emitScalar(c == "\n" ? " " : c) }
        if pad { emit(" ") }
        emit(fence)
        lineDigitsOnly = false
    }

    // MARK: Text

    mutating func writeCharacter(at p: Int) {
        let c = scalars[p]
        defer { if c != " " && c != "\t" && c != "\n" { lineHasContent = true } }
        let digitsOnly = lineDigitsOnly
        lineDigitsOnly = lineDigitsOnly && ("0"..."9").contains(c)
        switch c {
        case "\n":
            // Markdown drops blank lines at the start and the end and folds runs of them:
            // such newlines are written as character references.
            let third = p >= 2 && scalars[p - 1] == "\n" && scalars[p - 2] == "\n"
            if out.isEmpty || third || trailingNewline[p] {
                emit("&#10;")
                lineHasContent = true
                return
            }
            if p + 1 < scalars.count && scalars[p + 1] == "\n" { closeAll() }
            emit("\n")
            atLineStart = true
        case "\r":
            emit("&#13;")
        case " ", "\t":
            if trailingWhitespace[p] || !lineHasContent {
                emit(c == " " ? "&#32;" : "&#9;")
            } else {
                emitScalar(c)
            }
        case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "~", "&":
            emit("\\")
            emitScalar(c)
        case "#", "+", "-", "=":
            if !lineHasContent { emit("\\") }
            emitScalar(c)
        case ".", ")":
            if digitsOnly && p > 0 && ("0"..."9").contains(scalars[p - 1]) {
                emit("\\")
            } else if c == "." && p >= 3 && String(String.UnicodeScalarView(scalars[(p - 3)..<p])).lowercased() == "www"
            {
                emit("\\")
            }
            emitScalar(c)
        case ":":
            // `://` would start an autolink; `:` first on a line could start a table's
            // delimiter row (`:-:`).
            if !lineHasContent || (p + 2 < scalars.count && scalars[p + 1] == "/" && scalars[p + 2] == "/") {
                emit("\\")
            }
            emitScalar(c)
        case "@":
            if p > 0 && MarkdownWriter.isAddressCharacter(scalars[p - 1]) { emit("\\") }
            emitScalar(c)
        default:
            emitScalar(c)
        }
    }

    static func isAddressCharacter(_ c: Unicode.Scalar) -> Bool {
        c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || ".+-_".unicodeScalars.contains(c))
    }

    mutating func emit(_ s: String) { out.append(contentsOf: s.utf8) }

    mutating func emitScalar(_ c: Unicode.Scalar) {
        UTF8.encode(c) { out.append($0) }
    }
}
