import SpoilerCore

/// Text being built as Unicode scalars, with entities whose `offset` and `length` count
/// scalars until ``message`` turns them into UTF-16 units; for the readers that build their
/// text piece by piece (Discord, Matrix).
struct ScalarMessage {
    var scalars: [Unicode.Scalar] = []
    var entities: [Entity] = []

    /// The message, with scalar offsets turned into UTF-16 ones; empty entities are dropped.
    var message: Message {
        var utf16 = [Int](repeating: 0, count: scalars.count + 1)
        for (i, s) in scalars.enumerated() { utf16[i + 1] = utf16[i] + s.utf16.count }
        var out: [Entity] = []
        out.reserveCapacity(entities.count)
        for var e in entities where e.length > 0 {
            let end = e.offset + e.length
            e.offset = utf16[e.offset]
            e.length = utf16[end] - e.offset
            out.append(e)
        }
        return Message(text: String(String.UnicodeScalarView(scalars)), entities: out)
    }
}

/// Reads `||reason|text||` in spoilers (``ParseOptions/spoilerReasons``).
enum SpoilerReasons {
    /// `message` with each spoiler whose text is `reason|text` (both parts non-empty) cut to
    /// `text`, `reason` becoming its ``Entity/reason``; the `reason|` part leaves the text,
    /// and entities inside it are dropped.
    static func split(_ message: Message) -> Message {
        let u = Array(message.text.utf16)
        // Cuts, as UTF-16 ranges to remove, with the spoiler each belongs to.
        var cuts: [(start: Int, end: Int, entity: Int, reason: String)] = []
        for (index, e) in message.entities.enumerated() where e.type == .spoiler && e.reason == nil {
            guard e.offset >= 0, e.end <= u.count else { continue }
            guard let bar = (e.offset..<e.end).first(where: { u[$0] == 0x7C }), bar > e.offset, bar + 1 < e.end else {
                continue
            }
            if let last = cuts.last, last.end > e.offset { continue }
            let reason = String(decoding: u[e.offset..<bar], as: UTF16.self)
            cuts.append((e.offset, bar + 1, index, reason))
        }
        guard !cuts.isEmpty else { return message }
        // Removed units before each offset.
        func moved(_ offset: Int) -> Int {
            var shift = 0
            for c in cuts {
                if offset >= c.end { shift += c.end - c.start } else if offset > c.start { shift += offset - c.start }
            }
            return offset - shift
        }
        var text = [UInt16]()
        var k = 0
        for c in cuts {
            text.append(contentsOf: u[k..<c.start])
            k = c.end
        }
        text.append(contentsOf: u[k...])
        var entities: [Entity] = []
        for (index, e) in message.entities.enumerated() {
            var e = e
            if let c = cuts.first(where: { $0.entity == index }) { e.reason = c.reason }
            if cuts.contains(where: { e.offset >= $0.start && e.end <= $0.end }) { continue }
            let start = moved(e.offset)
            let end = moved(e.end)
            guard end > start else { continue }
            e.offset = start
            e.length = end - start
            entities.append(e)
        }
        return Message(text: String(decoding: text, as: UTF16.self), entities: entities)
    }
}
