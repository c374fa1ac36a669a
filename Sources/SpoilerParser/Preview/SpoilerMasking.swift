import SpoilerCore

/// Walks a message's text by grapheme cluster and replaces every spoiler with a mask, for
/// the outputs that show spoilers as masks (`preview`, `slack`, Matrix's `body`).
///
/// Spoiler entities are merged where they overlap or touch, and a grapheme that is even
/// partly inside one is masked whole, so that no piece of hidden text (not a combining mark,
/// not half of a flag) comes out.
struct SpoilerMasking {
    /// One run of hidden text: its UTF-16 range, its graphemes and the reasons of the
    /// spoilers merged into it.
    struct Region {
        var start: Int
        var end: Int
        var graphemes = 0
        var reasons: [String] = []
    }

    /// The text between spoilers and the spoilers, in order.
    enum Part {
        case visible(Character, utf16Offset: Int)
        case hidden(Region)
    }

    /// The merged spoiler regions of `message`, by UTF-16 offset.
    static func regions(of message: Message) -> [Region] {
        let length = message.utf16Length
        var spoilers = message.entities.filter {
            $0.type == .spoiler && $0.length > 0 && $0.offset < length && $0.end > 0
        }
        spoilers.sort { $0.offset < $1.offset }
        var out: [Region] = []
        for e in spoilers {
            let start = max(e.offset, 0)
            let end = min(e.end, length)
            let reason = (e.reason ?? "").isEmpty ? nil : e.reason
            if var last = out.last, start <= last.end {
                last.end = max(last.end, end)
                if let reason, !last.reasons.contains(reason) { last.reasons.append(reason) }
                out[out.count - 1] = last
            } else {
                out.append(Region(start: start, end: end, reasons: reason.map { [$0] } ?? []))
            }
        }
        return out
    }

    /// The parts of `message`: each grapheme outside spoilers, and each spoiler region once,
    /// with its grapheme count.
    static func parts(of message: Message) -> [Part] {
        let regions = regions(of: message)
        var parts: [Part] = []
        var r = 0
        var u = 0
        var pending: Region?
        for c in message.text {
            let start = u
            u += c.utf16.count
            while r < regions.count && regions[r].end <= start {
                r += 1
            }
            if r < regions.count && regions[r].start < u {
                if pending == nil || pending!.start != regions[r].start {
                    if let p = pending { parts.append(.hidden(p)) }
                    pending = regions[r]
                }
                pending!.graphemes += 1
                continue
            }
            if let p = pending {
                parts.append(.hidden(p))
                pending = nil
            }
            parts.append(.visible(c, utf16Offset: start))
        }
        if let p = pending { parts.append(.hidden(p)) }
        return parts
    }
}
