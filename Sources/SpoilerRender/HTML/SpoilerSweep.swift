import SpoilerCore

/// The spoilers that cover each point of a text, for points visited in increasing order:
/// ``CoveringRanges`` over a message's spoiler entities, read in place when the entities
/// are in order of offset (a message's are), so that a message with a million spoilers
/// is not copied into a second list of ranges.
struct SpoilerSweep {
    private let entities: [Entity]
    /// Nil when the entities are in order and read in place.
    private var ranges: CoveringRanges?
    /// The next entity to look at (entities in order).
    private var next = 0
    /// How many spoilers come before entity `next`.
    private var spoilersBefore = 0
    /// The covering spoilers as (their index among the spoilers, their end), by index.
    private var active: [(spoiler: Int, end: Int)] = []

    /// A sweep over `message`'s spoilers, before any point.
    init(_ message: Message) {
        entities = message.entities
        let e = entities
        if !e.indices.dropFirst().allSatisfy({ e[$0 - 1].offset <= e[$0].offset }) {
            var list: [(start: Int, end: Int)] = []
            for s in e where s.type == .spoiler { list.append((s.offset, s.end)) }
            ranges = CoveringRanges(list)
        }
    }

    /// Moves to `point` (never less than the point before) and gives the first of the
    /// spoilers covering it, as its index among the message's spoilers, or nil.
    mutating func first(at point: Int) -> Int? {
        if ranges != nil {
            ranges!.move(to: point)
            return ranges!.active.first
        }
        active.removeAll { $0.end <= point }
        while next < entities.count, entities[next].offset <= point {
            let e = entities[next]
            next += 1
            guard e.type == .spoiler else { continue }
            let spoiler = spoilersBefore
            spoilersBefore += 1
            // Indices grow as the entities are read: the new one goes last.
            if e.end > point { active.append((spoiler, e.end)) }
        }
        return active.first?.spoiler
    }
}
