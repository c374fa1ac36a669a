import SpoilerCore

/// Writes a ``Message`` as plain chat text with `||spoiler||` and code-between-backticks markup, the
/// inverse of ``PlainParser`` (`--to plain-markup`).
///
/// Only `spoiler`, `code` and `pre` entities can be written this way (`pre` becomes
/// code); the others are left out. Overlapping spoilers are merged; code that crosses a
/// spoiler's edge, or holds a spoiler, is cut at the edge, so that hidden text stays
/// hidden. For messages whose spoilers are disjoint and whose code lies either inside one
/// spoiler or outside all of them (everything ``PlainParser`` produces), parsing the
/// result gives back the same message.
///
/// Escaping: every `|` and backtick of the text is written with a backslash before it (pipes inside
/// code are left bare, they mean nothing there). A backslash is doubled only where the
/// next character written is `|`, `\` or a backtick, so `C:\dir` stays as it is.
///
/// - Complexity: O(n + k log k) for n bytes of text and k entities.
public enum PlainSerializer {
    /// `message` written as plain chat text with `||spoiler||` and code between backticks markup.
    ///
    /// - Parameter message: The message to write.
    /// - Returns: The markup.
    public static func serialize(_ message: Message) -> String {
        let text = Array(message.text.utf8)
        let length = message.utf16Length
        let spoilers = merged(message.entities.filter { $0.type == .spoiler }, within: length, keepAdjacent: true)
        let codes = cut(
            merged(message.entities.filter { $0.type == .code || $0.type == .pre }, within: length, keepAdjacent: true),
            at: spoilers)

        // Boundary events in the order they are written at one position: close code,
        // close spoiler, open spoiler, open code.
        var events: [(utf16: Int, order: Int, delimiter: [UInt8])] = []
        events.reserveCapacity(2 * (spoilers.count + codes.count))
        for s in spoilers {
            events.append((s.lowerBound, 2, [0x7C, 0x7C]))
            events.append((s.upperBound, 1, [0x7C, 0x7C]))
        }
        for c in codes {
            events.append((c.lowerBound, 3, [0x60]))
            events.append((c.upperBound, 0, [0x60]))
        }
        events.sort { $0.utf16 != $1.utf16 ? $0.utf16 < $1.utf16 : $0.order < $1.order }

        var w = EscapingWriter()
        w.out.reserveCapacity(text.count + text.count / 8 + 4 * events.count)
        var next = 0
        var utf16 = 0
        var inCode = false
        var i = 0
        while i <= text.count {
            // Delimiters go between scalars; an entity edge inside a scalar is written after it.
            let atBoundary = i == text.count || text[i] & 0xC0 != 0x80
            while atBoundary && next < events.count && events[next].utf16 <= utf16 {
                w.writeDelimiter(events[next].delimiter)
                if events[next].delimiter == [0x60] { inCode = events[next].order == 3 }
                next += 1
            }
            if i == text.count { break }
            let b = text[i]
            w.writeText(b, inCode: inCode)
            if b & 0xC0 != 0x80 { utf16 += b >= 0xF0 ? 2 : 1 }
            i += 1
        }
        w.finish()
        return String(decoding: w.out, as: UTF8.self)
    }

    /// The entities' ranges, clamped to `0..<length`, empty ones dropped, sorted, and
    /// overlapping ones merged (touching ones stay apart when `keepAdjacent`).
    static func merged(_ entities: [Entity], within length: Int, keepAdjacent: Bool) -> [Range<Int>] {
        var ranges = entities.compactMap { e -> Range<Int>? in
            let lower = max(0, min(e.offset, length))
            let upper = max(lower, min(e.offset + max(e.length, 0), length))
            return lower < upper ? lower..<upper : nil
        }
        ranges.sort { $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound > $1.upperBound }
        var result: [Range<Int>] = []
        for r in ranges {
            if let last = result.last,
                r.lowerBound < last.upperBound || (!keepAdjacent && r.lowerBound == last.upperBound)
            {
                result[result.count - 1] = last.lowerBound..<max(last.upperBound, r.upperBound)
            } else {
                result.append(r)
            }
        }
        return result
    }

    /// `ranges` cut wherever a spoiler starts or ends strictly inside one of them.
    static func cut(_ ranges: [Range<Int>], at spoilers: [Range<Int>]) -> [Range<Int>] {
        var edges: [Int] = []
        edges.reserveCapacity(2 * spoilers.count)
        for s in spoilers {
            edges.append(s.lowerBound)
            edges.append(s.upperBound)
        }
        var result: [Range<Int>] = []
        var e = 0
        for r in ranges {
            var lower = r.lowerBound
            while e < edges.count && edges[e] <= lower { e += 1 }
            var k = e
            while k < edges.count && edges[k] < r.upperBound {
                if edges[k] > lower {
                    result.append(lower..<edges[k])
                    lower = edges[k]
                }
                k += 1
            }
            result.append(lower..<r.upperBound)
        }
        return result
    }
}

/// Output with the escaping rules of ``PlainSerializer``: a backslash from the text is
/// held back until the next byte shows whether it must be doubled.
struct EscapingWriter {
    var out: [UInt8] = []
    private var pendingBackslash = false

    private mutating func resolve(before next: UInt8?) {
        guard pendingBackslash else { return }
        pendingBackslash = false
        out.append(0x5C)
        if let next, PlainScanner.isEscapable(next) { out.append(0x5C) }
    }

    mutating func writeDelimiter(_ d: [UInt8]) {
        resolve(before: d.first)
        out.append(contentsOf: d)
    }

    mutating func writeText(_ b: UInt8, inCode: Bool) {
        switch b {
        case 0x5C:
            resolve(before: b)
            pendingBackslash = true
        case 0x7C where !inCode, 0x60:
            resolve(before: 0x5C)
            out.append(0x5C)
            out.append(b)
        default:
            resolve(before: b)
            out.append(b)
        }
    }

    mutating func finish() {
        resolve(before: nil)
    }
}
