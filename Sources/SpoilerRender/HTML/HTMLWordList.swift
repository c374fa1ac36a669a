import SpoilerCore

/// The runtime's list of hidden words, `[{"s":spoiler,"g":graphemes,"t":"Base64"},…]`
/// (`"t":null` when redacted), written a word at a time from a second walk over the text
/// (``HiddenWords``): only the word being written is held.
enum HTMLWordList {
    /// Writes the list's items, comma-separated and without brackets, to `page`.
    static func writeItems(_ message: Message, redact: Bool, to page: inout PageWriter) {
        var text: [UInt8] = []
        var spoiler = 0
        var graphemes = 0
        var any = false
        var written = 0
        func finish(_ page: inout PageWriter) {
            guard any else { return }
            if written > 0 { page.w.raw(",") }
            written += 1
            page.w.raw("{\"s\":")
            page.w.number(spoiler)
            page.w.raw(",\"g\":")
            page.w.number(graphemes)
            page.w.raw(",\"t\":")
            if redact {
                page.w.raw("null")
            } else {
                page.w.bytes.append(UInt8(ascii: "\""))
                Base64.append(text, to: &page.w.bytes)
                page.w.bytes.append(UInt8(ascii: "\""))
            }
            page.w.raw("}")
            page.passOnWhenFull()
        }
        HiddenWords.walk(message) { step in
            switch step {
            case .wordStart(let s, _, let c):
                finish(&page)
                any = true
                spoiler = s
                graphemes = 1
                text.removeAll(keepingCapacity: true)
                if !redact { text.append(contentsOf: c.utf8) }
            case .wordGoes(let c):
                graphemes += 1
                if !redact { text.append(contentsOf: c.utf8) }
            case .spoiler, .text:
                break
            }
        }
        finish(&page)
    }
}
