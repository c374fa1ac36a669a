import SpoilerCore

/// The entities of some types that cover each point of a text, for points visited in
/// increasing order: ``CoveringRanges`` over them, read in place when the entities are in
/// order of offset (a message's are), so that a message with millions of entities is not
/// copied into a second list of ranges (24 bytes an entity: 50 MB for 16 MB of code
/// spans, issue 17).
struct EntitySweep {
    /// One entity that covers the current point: its place among the entities selected,
    /// its index among all, and its end in UTF-16 units.
    struct Cover {
        var ordinal: Int
        var entity: Int
        var end: Int
    }

    private let entities: [Entity]
    private let selects: (EntityType) -> Bool
    /// With the entities out of order: the indices of those selected, and a sweep over
    /// their ranges; nil when the entities are read in place.
    private var selected: [Int] = []
    private var ranges: CoveringRanges?
    /// The next entity to look at (entities in order), and how many selected come before it.
    private var next = 0
    private var selectedBefore = 0
    /// The selected entities that cover the current point, by index.
    private(set) var active: [Cover] = []

    /// A sweep over `entities` whose type `selects` accepts, before any point.
    init(_ entities: [Entity], selecting selects: @escaping (EntityType) -> Bool) {
        self.entities = entities
        self.selects = selects
        let e = entities
        if !e.indices.dropFirst().allSatisfy({ e[$0 - 1].offset <= e[$0].offset }) {
            selected = e.indices.filter { selects(e[$0].type) }
            ranges = CoveringRanges(selected.map { (e[$0].offset, e[$0].end) })
        }
    }

    /// Moves to `point`, never less than the point before, so that ``active`` holds the
    /// selected entities that cover it.
    mutating func move(to point: Int) {
        if ranges != nil {
            ranges!.move(to: point)
            active = ranges!.active.map { Cover(ordinal: $0, entity: selected[$0], end: entities[selected[$0]].end) }
            return
        }
        active.removeAll { $0.end <= point }
        while next < entities.count, entities[next].offset <= point {
            let e = entities[next]
            next += 1
            guard selects(e.type) else { continue }
            let ordinal = selectedBefore
            selectedBefore += 1
            // Indices grow as the entities are read: the new one goes last.
            if e.end > point { active.append(Cover(ordinal: ordinal, entity: next - 1, end: e.end)) }
        }
    }
}
