import SpoilerCore

/// A message as HTML text: its formatting as tags, and each spoiler entity a
/// `<span class="sk-spoiler">` (a button for assistive technology) whose words are empty
/// placeholders (`<span class="sk-word">`): their text is not in the markup, only in the
/// runtime's word list (``HTMLWordList``), which puts it in on reveal.
///
/// Written a piece at a time: nothing grows with the message but one count per hidden
/// word (its graphemes, for the placeholder's width) and the sweeps over the entities.
struct HTMLMarkup {
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

    /// The grapheme count of every hidden word, in order (one pass over the text), each
    /// at most `UInt32.max`.
    static func wordLengths(_ message: Message) -> [UInt32] {
        var counts: [UInt32] = []
        HiddenWords.walk(message) { step in
            switch step {
            case .wordStart: counts.append(1)
            case .wordGoes: if counts[counts.count - 1] < .max { counts[counts.count - 1] += 1 }
            case .spoiler, .text: break
            }
        }
        return counts
    }

    /// Writes the markup of `message` to `page`, which passes it on as it fills.
    static func write(_ message: Message, redact: Bool, to page: inout PageWriter) {
        let entities = message.entities
        var open: [Int] = []  // formatting entities whose tags are open, outermost first
        var spoilerOpen: Int? = nil  // index among the spoilers
        var words = 0
        let lengths = wordLengths(message)
        var formatSweep = EntitySweep(entities) { $0 != .spoiler }

        func closeFormatting(_ out: inout SVGWriter) {
            for e in open.reversed() {
                if let t = Self.tag(entities[e], insideSpoiler: spoilerOpen != nil) { out.raw(t.close) }
            }
            open.removeAll()
        }
        func formatting(at offset: Int, _ out: inout SVGWriter) {
            formatSweep.move(to: offset)
            let want = formatSweep.active.map(\.entity)
            guard want != open else { return }
            closeFormatting(&out)
            for e in want {
                if let t = Self.tag(entities[e], insideSpoiler: spoilerOpen != nil) { out.raw(t.open) }
            }
            open = want
        }

        HiddenWords.walk(message) { step in
            switch step {
            case .spoiler(let spoiler):
                closeFormatting(&page.w)
                if spoilerOpen != nil { page.w.raw("</span>") }
                spoilerOpen = spoiler
                if spoiler != nil {
                    page.w.raw("<span class=\"sk-spoiler\" role=\"button\" tabindex=\"0\" aria-label=\"")
                    page.w.raw(Self.accessibleName)
                    page.w.raw("\" data-label=\"")
                    page.w.raw(Self.accessibleName)
                    page.w.raw("\"")
                    if redact { page.w.raw(" aria-disabled=\"true\"") }
                    page.w.raw(">")
                }
            case .wordStart(_, let offset, _):
                formatting(at: offset, &page.w)
                page.w.raw("<span class=\"sk-word\" data-w=\"")
                page.w.number(words)
                // The runtime sets the width its font gives the word; this is for a page without script.
                page.w.raw("\" style=\"width:")
                page.w.number(0.6 * Double(lengths[words]), 1)
                page.w.raw("em\"><span class=\"sk-text\"></span></span>")
                words += 1
            case .wordGoes:
                break
            case .text(let offset, let c):
                formatting(at: offset, &page.w)
                page.w.text(String(c))
            }
            page.passOnWhenFull()
        }
        closeFormatting(&page.w)
        if spoilerOpen != nil { page.w.raw("</span>") }
    }
}
