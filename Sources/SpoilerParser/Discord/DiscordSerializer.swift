import SpoilerCore

/// Writes a ``Message`` as Discord markdown (`--to discord`) that ``DiscordParser`` and
/// Discord read back as the same message where Discord can say it.
///
/// `**bold**`, `*italic*`, `__underline__`, `~~strike~~`, `||spoiler||` (a reason before it:
/// `(reason) ||text||`, the form Discord users write by hand), `` `code` `` (with a longer
/// fence when the code holds backticks), ```` ```lang ```` blocks, `> ` before each line of a
/// block quotation, `[text](url)` for http(s) links. Markup characters in text are escaped
/// with `\` (`\ * _ ~ | ` [ ] <`, and `>`, `#`, `-` first on a line); `url` entities are
/// written as they are, so Discord links them again.
///
/// Not representable, and so changed by a round trip: entities that cross (split), italic
/// at whitespace (shrunk to its non-blank part), formatting inside code (left out; a spoiler
/// there cuts the code around it), a block quotation that does not start a line (left out),
/// links other than http(s) (their text is kept), mentions, custom emoji and dates, a code
/// span ending in a backtick and a code block holding ```` ``` ````, and italic touching bold
/// between word characters (`x*a***b**`: elsewhere such an italic is written `_a_**b**`,
/// since `*a***b**` reads differently).
enum DiscordSerializer {
    static func rank(_ e: Entity) -> Int {
        switch e.type {
        case .blockquote: 0
        case .spoiler: 2
        case .bold: 10
        case .italic: 11
        case .underline: 12
        case .strikethrough: 13
        case .textLink: 20
        case .pre: 30
        case .code: 40
        default: 50
        }
    }

    static func serialize(_ message: Message) -> String {
        let u = Array(message.text.utf16)
        func isSpace(_ at: Int) -> Bool {
            guard at >= 0 && at < u.count, let s = Unicode.Scalar(u[at]) else { return false }
            return s.properties.isWhitespace
        }
        var entities: [Entity] = []
        for var e in EntityNesting.validEntities(of: message) {
            switch e.type {
            case .bold, .underline, .strikethrough, .spoiler, .code, .pre, .url: break
            case .italic:
                while e.length > 0 && isSpace(e.offset) {
                    e.offset += 1
                    e.length -= 1
                }
                while e.length > 0 && isSpace(e.end - 1) { e.length -= 1 }
            case .blockquote, .expandableBlockquote:
                guard e.offset == 0 || u[e.offset - 1] == 0x0A else { continue }
                e.type = .blockquote
            case .textLink:
                guard let url = e.url, url.hasPrefix("https://") || url.hasPrefix("http://"),
                    !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0 == ")" })
                else { continue }
            default: continue
            }
            if e.length > 0 { entities.append(e) }
        }
        entities = CodeCuts.cuttingCode(around: entities)
        let underscored = underscoreItalics(entities, u)
        let text = ScalarText(message.text)
        var out = ""
        var literal = 0  // inside code, pre or a url: written as is
        var inQuote = 0
        var atLineStart = true
        for event in EntityNesting.events(entities, textLength: message.utf16Length, rank: rank) {
            switch event {
            case .text(let start, let end):
                let scalars = text.scalars(from: start, to: end)
                if literal > 0 {
                    for c in scalars {
                        out.unicodeScalars.append(c)
                        if c == "\n" && inQuote > 0 { out += "> " }
                    }
                    continue
                }
                for c in scalars {
                    if c == "\n" {
                        out += "\n"
                        if inQuote > 0 { out += "> " }
                        atLineStart = true
                        continue
                    }
                    switch c {
                    case "\\", "*", "_", "~", "|", "`", "[", "]", "<": out += "\\"
                    case ">", "#", "-": if atLineStart { out += "\\" }
                    default: break
                    }
                    out.unicodeScalars.append(c)
                    atLineStart = false
                }
            case .open(let piece):
                let e = piece.entity
                if literal > 0 && e.type != .spoiler { continue }
                atLineStart = false
                switch e.type {
                case .bold: out += "**"
                case .italic: out += underscored.contains(piece.source) ? "_" : "*"
                case .underline: out += "__"
                case .strikethrough: out += "~~"
                case .spoiler:
                    if let reason = e.reason, !reason.isEmpty {
                        out += "(" + escaped(reason) + ") "
                    }
                    out += "||"
                case .blockquote:
                    out += "> "
                    inQuote += 1
                case .textLink: out += "["
                case .code:
                    out += fence(for: text.scalars(from: e.offset, to: e.end))
                    literal += 1
                case .pre:
                    out +=
                        "```"
                        + (e.language ?? "").filter {
                            $0.isASCII && ($0.isLetter || $0.isNumber || "_+-.#".contains($0))
                        } + "\n"
                    literal += 1
                case .url: literal += 1
                default: break
                }
            case .close(let piece):
                let e = piece.entity
                if literal > 0 && ![.spoiler, .code, .pre, .url].contains(e.type) { continue }
                switch e.type {
                case .bold: out += "**"
                case .italic: out += underscored.contains(piece.source) ? "_" : "*"
                case .underline: out += "__"
                case .strikethrough: out += "~~"
                case .spoiler: out += "||"
                case .blockquote: inQuote -= 1
                case .textLink: out += "](" + (e.url ?? "") + ")"
                case .code:
                    out += fence(for: text.scalars(from: e.offset, to: e.end))
                    literal -= 1
                case .pre:
                    out += "\n```"
                    literal -= 1
                case .url: literal -= 1
                default: break
                }
            }
        }
        return out
    }

    /// The italics (indices in `entities`) written `_…_`: those that touch a bold, whose `**`
    /// would run into the italic's `*` (`*a***b**`), where `_` can stand (a non-word
    /// character or a bold on each side) and no underline's `__` is near.
    static func underscoreItalics(_ entities: [Entity], _ u: [UInt16]) -> Set<Int> {
        var result = Set<Int>()
        let bolds = entities.filter { $0.type == .bold }
        guard !bolds.isEmpty else { return result }
        func isWord(_ at: Int) -> Bool {
            guard at >= 0 && at < u.count, let c = Unicode.Scalar(u[at]) else { return false }
            return c.isASCII && DiscordScanner.isWord(UInt8(c.value))
        }
        for (index, e) in entities.enumerated() where e.type == .italic {
            let boldBefore = bolds.contains { $0.end == e.offset }
            let boldAfter = bolds.contains { $0.offset == e.end }
            guard boldBefore || boldAfter else { continue }
            guard boldBefore || !isWord(e.offset - 1), boldAfter || !isWord(e.end) else { continue }
            if entities.contains(where: { $0.type == .underline && $0.offset <= e.end && $0.end >= e.offset }) {
                continue
            }
            result.insert(index)
        }
        return result
    }

    /// A backtick run longer than any in `code`.
    static func fence(for code: ArraySlice<Unicode.Scalar>) -> String {
        var longest = 0
        var run = 0
        for c in code {
            run = c == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return String(repeating: "`", count: longest + 1)
    }

    static func escaped(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if "\\*_~|`[]<()".unicodeScalars.contains(c) { out += "\\" }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
