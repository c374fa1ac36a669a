import SpoilerCore

/// A message as HTML text: its formatting as tags, and each spoiler entity a
/// `<span class="sk-spoiler">` (a button for assistive technology) whose words are empty
/// placeholders (`<span class="sk-word">`): their text is not in the markup, only in
/// ``words`` for the runtime to put in on reveal.
struct HTMLMarkup {
    /// One hidden word: its spoiler entity's index among the spoilers, its text, and
    /// its grapheme count.
    struct Word {
        var spoiler: Int
        var text: String
        var graphemes: Int
    }

    var html: [UInt8] = []
    var words: [Word] = []

    /// The name a hidden part gets: "spoiler, press to reveal", or the entity's reason
    /// when it has one.
    static let accessibleName = "spoiler, press to reveal"

    /// The entity types drawn as formatting, with their tags.
    static func tag(_ e: Entity, insideSpoiler: Bool) -> (open: String, close: String)? {
        switch e.type {
        case .bold: return ("<b>", "</b>")
        case .italic: return ("<i>", "</i>")
        case .underline: return ("<u>", "</u>")
        case .strikethrough: return ("<s>", "</s>")
        case .code, .pre: return ("<code>", "</code>")
        case .textLink, .url, .email:
            // Inside a spoiler a click reveals; it never follows a link.
            guard !insideSpoiler, let href = e.type == .textLink ? e.url : nil, isSafe(href) else {
                return ("<u class=\"sk-link\">", "</u>")
            }
            var w = SVGWriter(into: [])
            w.text(href)
            return ("<a href=\"\(String(decoding: w.bytes, as: UTF8.self))\" rel=\"noopener noreferrer\">", "</a>")
        default: return nil
        }
    }

    /// Links the page may follow: web, mail and Telegram addresses (never `javascript:`).
    static func isSafe(_ url: String) -> Bool {
        let lower = url.lowercased()
        return ["http://", "https://", "mailto:", "tg://"].contains { lower.hasPrefix($0) }
    }

    /// The grapheme count of every hidden word, in order (one pass over the text).
    static func wordLengths(_ text: String, spoilers: [Entity]) -> [Int] {
        var counts: [Int] = []
        var offset = 0
        var previous: Int? = nil
        var inWord = false
        var covering = CoveringRanges(spoilers.map { ($0.offset, $0.end) })
        for c in text {
            defer { offset += c.utf16.count }
            covering.move(to: offset)
            let spoiler = covering.active.first
            if spoiler != previous { inWord = false }
            previous = spoiler
            guard spoiler != nil, !c.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) else {
                inWord = false
                continue
            }
            if inWord { counts[counts.count - 1] += 1 } else { counts.append(1) }
            inWord = true
        }
        return counts
    }

    init(message: Message, redact: Bool) {
        let entities = message.entities
        let spoilers = entities.indices.filter { entities[$0].type == .spoiler }
        let formats = entities.indices.filter { entities[$0].type != .spoiler }
        var out = SVGWriter(into: [])
        var open: [Int] = []  // formatting entities whose tags are open, outermost first
        var spoilerOpen: Int? = nil  // index into `spoilers`
        var insideWord = false
        let lengths = Self.wordLengths(message.text, spoilers: spoilers.map { entities[$0] })
        var spoilerSweep = CoveringRanges(spoilers.map { (entities[$0].offset, entities[$0].end) })
        var formatSweep = CoveringRanges(formats.map { (entities[$0].offset, entities[$0].end) })

        func closeFormatting(_ out: inout SVGWriter) {
            for e in open.reversed() {
                if let t = Self.tag(entities[e], insideSpoiler: spoilerOpen != nil) { out.raw(t.close) }
            }
            open.removeAll()
        }
        func formatting(at offset: Int, _ out: inout SVGWriter) {
            formatSweep.move(to: offset)
            let want = formatSweep.active.map { formats[$0] }
            guard want != open else { return }
            closeFormatting(&out)
            for e in want {
                if let t = Self.tag(entities[e], insideSpoiler: spoilerOpen != nil) { out.raw(t.open) }
            }
            open = want
        }

        var offset = 0
        for c in message.text {
            let units = c.utf16.count
            defer { offset += units }
            spoilerSweep.move(to: offset)
            let spoiler = spoilerSweep.active.first
            if spoiler != spoilerOpen {
                closeFormatting(&out)
                if spoilerOpen != nil { out.raw("</span>") }
                spoilerOpen = spoiler
                insideWord = false
                if spoiler != nil {
                    out.raw("<span class=\"sk-spoiler\" role=\"button\" tabindex=\"0\" aria-label=\"")
                    out.raw(Self.accessibleName)
                    out.raw("\" data-label=\"")
                    out.raw(Self.accessibleName)
                    out.raw("\"")
                    if redact { out.raw(" aria-disabled=\"true\"") }
                    out.raw(">")
                }
            }
            let blank = c.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
            if let spoiler = spoilerOpen, !blank {
                if insideWord {
                    words[words.count - 1].text.append(c)
                    words[words.count - 1].graphemes += 1
                    continue
                }
                formatting(at: offset, &out)
                insideWord = true
                out.raw("<span class=\"sk-word\" data-w=\"")
                out.number(words.count)
                // The runtime sets the width its font gives the word; this is for a page without script.
                out.raw("\" style=\"width:")
                out.number(0.6 * Double(lengths[words.count]), 1)
                out.raw("em\"><span class=\"sk-text\"></span></span>")
                words.append(Word(spoiler: spoiler, text: String(c), graphemes: 1))
                continue
            }
            insideWord = false
            formatting(at: offset, &out)
            out.text(String(c))
        }
        closeFormatting(&out)
        if spoilerOpen != nil { out.raw("</span>") }
        html = out.bytes
        if redact {
            for i in words.indices { words[i].text = "" }
        }
    }
}
