import SpoilerCore

/// A message as plain text for a notification, a chat list or a reply quote
/// (`--to preview`), in which no spoiler shows anything of itself.
///
/// Previews are where spoilers leak: Telegram Desktop's chat list showed the last letter of
/// each spoiler word (tdesktop#24376), link previews showed spoilered URLs (tdesktop#17456),
/// macOS notifications showed spoiler text (TelegramSwift#776). Here:
/// - every spoiler (overlapping or touching ones merged) is a mask: `▒▒▒▒` with
///   ``PreviewOptions/Mask/fixed`` (the default, so that not even its length shows), or one
///   `▒` per grapheme with ``PreviewOptions/Mask/length``. A grapheme partly inside a spoiler
///   is masked whole. When the message itself holds `▒`, the mask is the first of
///   `░ ▓ █ ■ □ …` that it does not hold, so no piece of a spoiler can equal the mask;
/// - nothing else of a spoiler comes out: not its reason, not the URL of a link inside it
///   (a preview is text alone, so no URL comes out at all);
/// - a line break becomes a space (a preview is one line); other control characters are
///   shown as their Control Pictures (`␛`, `␇`, DEL `␡`), C1 controls and bidirectional
///   overrides as `�`, so none reaches a terminal or a notification raw;
/// - ``PreviewOptions/maxGraphemes`` cuts the result to that many graphemes, the last being
///   `…`, never inside a grapheme.
enum PreviewSerializer {
    static func serialize(_ message: Message, options: PreviewOptions) -> String {
        let glyph = maskGlyph(for: message)
        var out = ""
        for part in SpoilerMasking.parts(of: message) {
            switch part {
            case .hidden(let region):
                let count = options.mask == .fixed ? 4 : region.graphemes
                out.unicodeScalars.append(contentsOf: repeatElement(glyph, count: count))
            case .visible(let c, _):
                appendVisible(c, to: &out)
            }
        }
        return cut(out, to: options.maxGraphemes)
    }

    /// The first mask character that does not occur in the message's text or reasons.
    static func maskGlyph(for message: Message) -> Unicode.Scalar {
        var used = Set(message.text.unicodeScalars)
        for e in message.entities { if let r = e.reason { used.formUnion(r.unicodeScalars) } }
        let preferred: [Unicode.Scalar] = ["▒", "░", "▓", "█", "■", "□"]
        if let g = preferred.first(where: { !used.contains($0) }) { return g }
        // The 32 block elements, then the geometric shapes: a message holds them all only
        // if someone tries very hard, and then it is long enough to hold anything.
        for v in UInt32(0x2580)...0x25FF {
            if let s = Unicode.Scalar(v), !used.contains(s) { return s }
        }
        return "\u{FFFD}"
    }

    /// A grapheme outside spoilers, made safe to show.
    static func appendVisible(_ c: Character, to out: inout String) {
        if c.isNewline {
            out += " "
            return
        }
        for s in c.unicodeScalars {
            if s == "\t" {
                out += " "
            } else if let picture = controlPicture(for: s.value) {
                out.unicodeScalars.append(picture)
            } else {
                out.unicodeScalars.append(s)
            }
        }
    }

    /// What a preview shows for a control character, as the renderers do (SpoilerLayout's
    /// `ControlPictures`): C0 as U+2400…, DEL as `␡`, C1 and the bidirectional overrides and
    /// isolates as `�`; nil for other scalars.
    static func controlPicture(for value: UInt32) -> Unicode.Scalar? {
        switch value {
        case 0x00...0x1F: Unicode.Scalar(0x2400 + value)
        case 0x7F: "\u{2421}"
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: "\u{FFFD}"
        default: nil
        }
    }

    /// `text` cut to at most `max` graphemes, the last one `…`.
    static func cut(_ text: String, to max: Int?) -> String {
        guard let max, text.count > max else { return text }
        guard max > 0 else { return "" }
        return String(text.prefix(max - 1)) + "…"
    }
}
