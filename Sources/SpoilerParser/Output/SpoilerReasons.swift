import SpoilerCore

/// Reads `||reason|text||` in spoilers (``ParseOptions/spoilerReasons``).
enum SpoilerReasons {
    /// `message` with each spoiler whose text is `reason|text` (both parts non-empty) cut to
    /// `text`, `reason` becoming its ``Entity/reason``; the `reason|` part leaves the text,
    /// and entities inside it are dropped.
    ///
    /// - Parameter literalBars: UTF-16 offsets of `|`s that are text, not the bar (they
    ///   were written escaped, `\|`).
    static func split(_ message: Message, literalBars: Set<Int> = []) -> Message {
        let u = Array(message.text.utf16)
        // Cuts, as UTF-16 ranges to remove, with the spoiler each belongs to.
        var cuts: [(start: Int, end: Int, entity: Int, reason: String)] = []
        for (index, e) in message.entities.enumerated() where e.type == .spoiler && e.reason == nil {
            guard e.offset >= 0, e.end <= u.count else { continue }
            // Cuts may not overlap; the entities come in order of offset, so the cuts do too.
            if let last = cuts.last, last.end > e.offset { continue }
            guard let bar = (e.offset..<e.end).first(where: { u[$0] == 0x7C && !literalBars.contains($0) }),
                bar > e.offset, bar + 1 < e.end
            else { continue }
            let reason = String(decoding: u[e.offset..<bar], as: UTF16.self)
            cuts.append((e.offset, bar + 1, index, reason))
        }
        guard !cuts.isEmpty else { return message }
        // Units removed by the cuts before each one.
        var removedBefore = [0]
        for c in cuts { removedBefore.append(removedBefore.last! + c.end - c.start) }
        /// The index of the first cut that ends after `offset`.
        func firstCut(endingAfter offset: Int) -> Int {
            var lo = 0
            var hi = cuts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if cuts[mid].end <= offset { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        func moved(_ offset: Int) -> Int {
            let k = firstCut(endingAfter: offset)
            var shift = removedBefore[k]
            if k < cuts.count && offset > cuts[k].start { shift += offset - cuts[k].start }
            return offset - shift
        }
        var text = [UInt16]()
        var k = 0
        for c in cuts {
            text.append(contentsOf: u[k..<c.start])
            k = c.end
        }
        text.append(contentsOf: u[k...])
        var reasons: [Int: String] = [:]
        for c in cuts { reasons[c.entity] = c.reason }
        var entities: [Entity] = []
        for (index, e) in message.entities.enumerated() {
            var e = e
            if let reason = reasons[index] { e.reason = reason }
            // An entity inside a cut (inside a reason) is dropped.
            let c = firstCut(endingAfter: e.offset)
            if c < cuts.count && e.offset >= cuts[c].start && e.end <= cuts[c].end { continue }
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
