public import SpoilerCore
import SpoilerEffect

/// Writes a message as an interactive HTML page (DESIGN.md §5): the message as HTML text with
/// its formatting, each hidden word covered by animated dust on a canvas of its own,
/// revealed by a click or tap, or by Tab and Enter or Space.
///
/// The page is self-contained (no network, no other file): a style sheet, the message
/// element and the runtime (`HTMLRuntime`) with its settings. Hidden means absent: a
/// hidden word is not in the page's text (its placeholder is empty; page search,
/// `innerText` and a copy cannot find it) until its reveal puts it there; its text
/// travels in the script as Base64, and with ``HTMLOptions/redact`` not at all. Each
/// spoiler entity is a `role="button"` reachable by Tab with the accessible name
/// "spoiler, press to reveal"; word rectangles come from the browser's layout, so
/// wrapping, fonts and resizing are the browser's.
///
/// ```swift
/// var page: [UInt8] = []
/// HTMLRenderer.render(message, options: HTMLOptions(), into: &page)
/// ```
public enum HTMLRenderer {
    /// Appends the page (or with ``HTMLOptions/embed`` the fragment) for `message`.
    ///
    /// - Parameters:
    ///   - message: the message; its spoiler entities are hidden, bold, italic,
    ///     underline, strikethrough, code and links are drawn.
    ///   - options: the effect's settings and the look.
    ///   - out: the UTF-8 HTML is appended here.
    /// - Complexity: O(characters + entities × depth), plus the runtime's fixed size.
    public static func render(_ message: Message, options: HTMLOptions = HTMLOptions(), into out: inout [UInt8]) {
        render(message, options: options) { out.append(contentsOf: $0) }
    }

    /// Writes the page (or with ``HTMLOptions/embed`` the fragment) for `message` a piece
    /// at a time, so that a page of any length is never held whole.
    ///
    /// ```swift
    /// HTMLRenderer.render(message, options: HTMLOptions()) { piece in send(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - message: the message, as for ``render(_:options:into:)``.
    ///   - options: the effect's settings and the look.
    ///   - write: called with the page's UTF-8 bytes in order, in pieces of about 64 KB
    ///     (the last one shorter); their concatenation is the page.
    /// - Complexity: O(characters + entities × depth), plus the runtime's fixed size;
    ///   memory beyond the message: one count per hidden word and one piece.
    public static func render(_ message: Message, options: HTMLOptions = HTMLOptions(), write: ([UInt8]) -> Void) {
        // The writer keeps `write` only while the page is being written.
        withoutActuallyEscaping(write) { write in
            var page = PageWriter(write: write)
            if !options.embed {
                page.w.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
                page.w.raw("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
                page.w.raw("<title>Message</title>\n<style>body{margin:0;padding:16px")
                if let bg = options.background {
                    page.w.raw(";background:")
                    page.w.color(bg)
                }
                page.w.raw("}</style>\n</head><body>\n")
            }
            page.w.raw("<style>\n")
            page.w.raw(HTMLRuntime.style)
            page.w.raw("\n</style>\n<div class=\"spoilerkit\" style=\"color:")
            page.w.color(options.text)
            page.w.raw("\">")
            HTMLMarkup.write(message, redact: options.redact, to: &page)
            page.w.raw("</div>\n<script>\n")
            if options.celebration != nil && !options.reducedMotion {
                page.w.raw(
                    HTMLRuntime.script.replacing(HTMLRuntime.celebrationSlot, with: HTMLCelebrationRuntime.script))
            } else {
                page.w.raw(HTMLRuntime.script)
            }
            page.w.raw("(document.currentScript.previousElementSibling, ")
            page.w.raw(settingsBeforeWords(options))
            HTMLWordList.writeItems(message, redact: options.redact, to: &page)
            page.w.raw("]});\n</script>\n")
            if !options.embed { page.w.raw("</body></html>\n") }
            page.passOn()
        }
    }

    /// The preset's fields the runtime reads (``Preset/json``'s names; colour ranges,
    /// the emitter mode and seed are not used by the page).
    static func preset(_ j: inout JSONWriter, _ p: Preset) {
        let used: [(String, KeyPath<EmitterCell, Double>)] = [
            ("birthRate", \.birthRate), ("lifetime", \.lifetime), ("lifetimeRange", \.lifetimeRange),
            ("velocity", \.velocity), ("velocityRange", \.velocityRange), ("emissionLongitude", \.emissionLongitude),
            ("emissionRange", \.emissionRange), ("xAcceleration", \.xAcceleration), ("yAcceleration", \.yAcceleration),
            ("spin", \.spin), ("spinRange", \.spinRange), ("scale", \.scale), ("scaleRange", \.scaleRange),
            ("scaleSpeed", \.scaleSpeed), ("alpha", \.alpha), ("alphaRange", \.alphaRange),
            ("alphaSpeed", \.alphaSpeed), ("contentsSize", \.contentsSize),
        ]
        j.object { j in
            j.key("emitterShape"); j.string(p.emitter.emitterShape.rawValue)
            j.key("birthRate"); j.number(p.emitter.birthRate, decimals: 6)
            j.key("lifetime"); j.number(p.emitter.lifetime, decimals: 6)
            j.key("inset"); j.number(p.inset, decimals: 6)
            j.key("confinement"); j.string(p.confinement.rawValue)
            j.key("emitterCells")
            j.array { j in
                for c in p.emitter.emitterCells {
                    j.object { j in
                        for (k, path) in used {
                            j.key(k); j.number(c[keyPath: path], decimals: 6)
                        }
                        j.key("color"); j.string(c.color.hexString)
                        j.key("contents"); j.string(c.contents.rawValue)
                        j.key("alphaOverLife")
                        j.array { j in for v in c.alphaOverLife { j.number(v, decimals: 6) } }
                    }
                }
            }
        }
    }

    /// The runtime's settings as JSON up to the word list's opening bracket
    /// (`{"seed":…,"words":[`), with `<` written `\u003c` so that nothing in it (a
    /// preset's name) can end the script; ``HTMLWordList`` writes the words, which hold no
    /// `<`, and `]}` ends it.
    static func settingsBeforeWords(_ options: HTMLOptions) -> String {
        var j = JSONWriter()
        j.object { j in
            j.key("seed"); j.number(Int(truncatingIfNeeded: options.seed & 0xFFFF_FFFF))
            j.key("density"); j.number(options.density, decimals: 4)
            j.key("scope"); j.string(options.revealScope.rawValue)
            j.key("rehideAfter")
            if let r = options.rehideAfter { j.number(r, decimals: 4) } else { j.null() }
            j.key("reducedMotion"); j.bool(options.reducedMotion)
            j.key("preset"); preset(&j, options.preset)
            if let party = options.celebration, !options.reducedMotion {
                j.key("celebration"); preset(&j, party)
            }
            j.key("words")
            j.array { _ in }
        }
        // Cut the empty list's `]}`: the words and the end follow.
        let head = j.bytes.dropLast(2)
        var safe: [UInt8] = []
        safe.reserveCapacity(head.count)
        for b in head {
            if b == UInt8(ascii: "<") { safe.append(contentsOf: Array("\\u003c".utf8)) } else { safe.append(b) }
        }
        return String(decoding: safe, as: UTF8.self)
    }
}
