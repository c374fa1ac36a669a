import SpoilerCore

/// Writes a ``Message`` as Slack mrkdwn (`--to slack`; api.slack.com, "Formatting text for
/// app surfaces").
///
/// `*bold*`, `_italic_`, `~strike~`, `` `code` ``, ```` ```pre``` ````, `>` before each line of
/// a quotation, `<url|text>` links; `&`, `<` and `>` are escaped as `&amp;`, `&lt;`, `&gt;`,
/// the only escapes Slack has. Slack has no spoilers: each is the preview mask (see
/// ``PreviewOptions``, `▒▒▒▒` by default), and nothing inside it is written, not even a
/// link's URL. Slack cannot say underline, spoiler reasons, crossing entities (split),
/// formatting at whitespace (shrunk to its non-blank part) or inside code (left out), and
/// has no escape for a literal `*`, `_` or `~`.
enum SlackSerializer {
    static func serialize(_ message: Message, options: PreviewOptions) -> String {
        let u = Array(message.text.utf16)
        func isSpace(_ at: Int) -> Bool {
            guard at >= 0 && at < u.count, let s = Unicode.Scalar(u[at]) else { return false }
            return s.properties.isWhitespace
        }
        let regions = SpoilerMasking.regions(of: message)
        func hidden(_ e: Entity) -> Bool { regions.contains { $0.start < e.end && $0.end > e.offset } }
        var entities: [Entity] = []
        for var e in EntityNesting.validEntities(of: message) {
            switch e.type {
            case .bold, .italic, .strikethrough, .textLink:
                while e.length > 0 && isSpace(e.offset) {
                    e.offset += 1
                    e.length -= 1
                }
                while e.length > 0 && isSpace(e.end - 1) { e.length -= 1 }
            case .code, .pre, .blockquote, .expandableBlockquote: break
            default: continue
            }
            if e.type == .textLink && ((e.url ?? "").isEmpty || hidden(e)) { continue }
            if (e.type == .code || e.type == .pre) && hidden(e) { continue }
            if e.length > 0 { entities.append(e) }
        }
        let glyph = PreviewSerializer.maskGlyph(for: message)
        var graphemes: [Int] = []
        for case .hidden(let r) in SpoilerMasking.parts(of: message) { graphemes.append(r.graphemes) }
        let text = ScalarText(message.text)
        var out = ""
        var code = 0
        var quote = 0
        var regionIndex = 0
        for event in EntityNesting.events(entities, textLength: message.utf16Length, rank: HTMLSerializer.rank) {
            switch event {
            case .text(let start, let end):
                var u = start
                for c in text.scalars(from: start, to: end) {
                    defer { u += c.utf16.count }
                    while regionIndex < regions.count && regions[regionIndex].end <= u { regionIndex += 1 }
                    if regionIndex < regions.count && regions[regionIndex].start <= u {
                        // The mask, once, where the region starts.
                        if u == regions[regionIndex].start {
                            let count = options.mask == .fixed ? 4 : graphemes[regionIndex]
                            out.unicodeScalars.append(contentsOf: repeatElement(glyph, count: count))
                        }
                        continue
                    }
                    switch c {
                    case "&": out += "&amp;"
                    case "<": out += "&lt;"
                    case ">": out += "&gt;"
                    case "\n":
                        out += "\n"
                        if quote > 0 { out += ">" }
                    default:
                        if code == 0, let p = PreviewSerializer.controlPicture(for: c.value), c != "\t" {
                            out.unicodeScalars.append(p)
                        } else {
                            out.unicodeScalars.append(c)
                        }
                    }
                }
            case .open(let piece):
                let e = piece.entity
                if code > 0 { continue }
                switch e.type {
                case .bold: out += "*"
                case .italic: out += "_"
                case .strikethrough: out += "~"
                case .code: out += "`"; code += 1
                case .pre: out += "```"; code += 1
                case .blockquote, .expandableBlockquote: out += ">"; quote += 1
                case .textLink: out += "<" + slackURL(e.url ?? "") + "|"
                default: break
                }
            case .close(let piece):
                let e = piece.entity
                if code > 0 && e.type != .code && e.type != .pre { continue }
                switch e.type {
                case .bold: out += "*"
                case .italic: out += "_"
                case .strikethrough: out += "~"
                case .code: out += "`"; code -= 1
                case .pre: out += "```"; code -= 1
                case .blockquote, .expandableBlockquote: quote -= 1
                case .textLink: out += ">"
                default: break
                }
            }
        }
        return out
    }

    static func slackURL(_ url: String) -> String {
        var out = ""
        for c in url.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "%3C"
            case ">": out += "%3E"
            case "|": out += "%7C"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
