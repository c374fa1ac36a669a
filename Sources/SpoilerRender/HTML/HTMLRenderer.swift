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
    /// - Complexity: O(characters × entities), plus the runtime's fixed size.
    public static func render(_ message: Message, options: HTMLOptions = HTMLOptions(), into out: inout [UInt8]) {
        let markup = HTMLMarkup(message: message, redact: options.redact)
        var w = SVGWriter(into: out)
        out = []
        if !options.embed {
            w.raw("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
            w.raw("<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">")
            w.raw("<title>Message</title>\n<style>body{margin:0;padding:16px")
            if let bg = options.background {
                w.raw(";background:")
                w.color(bg)
            }
            w.raw("}</style>\n</head><body>\n")
        }
        w.raw("<style>\n")
        w.raw(HTMLRuntime.style)
        w.raw("\n</style>\n<div class=\"spoilerkit\" style=\"color:")
        w.color(options.text)
        w.raw("\">")
        w.bytes.append(contentsOf: markup.html)
        w.raw("</div>\n<script>\n")
        if options.celebration != nil && !options.reducedMotion {
            w.raw(HTMLRuntime.script.replacing(HTMLRuntime.celebrationSlot, with: HTMLCelebrationRuntime.script))
        } else {
            w.raw(HTMLRuntime.script)
        }
        w.raw("(document.currentScript.previousElementSibling, ")
        w.raw(config(markup, options))
        w.raw(");\n</script>\n")
        if !options.embed { w.raw("</body></html>\n") }
        out = w.bytes
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

    /// The runtime's settings as JSON, with `<` written `\u003c` so that nothing in it
    /// (a preset's name) can end the script.
    static func config(_ markup: HTMLMarkup, _ options: HTMLOptions) -> String {
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
            j.array { j in
                for word in markup.words {
                    j.object { j in
                        j.key("s"); j.number(word.spoiler)
                        j.key("g"); j.number(word.graphemes)
                        j.key("t")
                        if options.redact { j.null() } else { j.string(Base64.encode(word.text.utf8)) }
                    }
                }
            }
        }
        var safe: [UInt8] = []
        safe.reserveCapacity(j.bytes.count)
        for b in j.bytes {
            if b == UInt8(ascii: "<") { safe.append(contentsOf: Array("\\u003c".utf8)) } else { safe.append(b) }
        }
        return String(decoding: safe, as: UTF8.self)
    }
}
