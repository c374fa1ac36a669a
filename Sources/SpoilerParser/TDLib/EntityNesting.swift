import SpoilerCore

/// Turns a message's entities, which may overlap in any way, into properly nested open and
/// close events for writing markup, splitting an entity only where another one crosses it.
///
/// At each boundary the entities that end there are closed; when one of them lies under
/// entities that go on, those are closed too and opened again after it (they are split).
/// Entities that start at the same boundary open longest first; ties open in the order of
/// `rank` (lower is outer). A properly nested input gives back exactly its own entities.
///
/// - Complexity: O(k log k + k·d) for k entities nested d deep.
struct EntityNesting {
    /// One entity, or one piece of a split entity, with the index of the entity it comes from.
    struct Piece {
        var entity: Entity
        var source: Int
    }

    enum Event {
        case open(Piece)
        case close(Piece)
        /// Text between two boundaries, in UTF-16 offsets.
        case text(start: Int, end: Int)
    }

    /// The events for `entities` over a text of `textLength` UTF-16 units.
    ///
    /// Entities must be non-empty and inside the text.
    static func events(_ entities: [Entity], textLength: Int, rank: (Entity) -> Int) -> [Event] {
        var events: [Event] = []
        forEachEvent(entities, textLength: textLength, rank: rank) { events.append($0) }
        return events
    }

    /// Calls `body` with each of the events ``events(_:textLength:rank:)`` gives, in order,
    /// without holding them: beyond `entities`, it holds one index per entity and the
    /// pieces open at one point.
    ///
    /// The text events cover the text from 0 to `textLength` one after the other.
    static func forEachEvent(
        _ entities: [Entity], textLength: Int, rank: (Entity) -> Int, _ body: (Event) -> Void
    ) {
        // Most entities come in canonical order, which needs sorting only among those with
        // the same range.
        let order = entities.indices.sorted { a, b in
            let x = entities[a]
            let y = entities[b]
            if x.offset != y.offset { return x.offset < y.offset }
            if x.end != y.end { return x.end > y.end }
            let rx = rank(x)
            let ry = rank(y)
            if rx != ry { return rx < ry }
            return a < b
        }
        var stack: [Piece] = []
        var next = 0
        // The boundaries are 0, `textLength` and every entity's start and end: the next one
        // is the nearest of the next start and the ends of what is open.
        var p = 0
        while true {
            // Close what ends here, and whatever lies above it.
            var starting: [Piece] = []
            if let deepest = stack.firstIndex(where: { $0.entity.end == p }) {
                while stack.count > deepest {
                    let piece = stack.removeLast()
                    var closed = piece
                    closed.entity.length = p - piece.entity.offset
                    body(.close(closed))
                    if piece.entity.end > p {
                        var rest = piece
                        rest.entity.length = piece.entity.end - p
                        rest.entity.offset = p
                        // Opened again below, with the entities that start here.
                        starting.append(rest)
                    }
                }
            }
            while next < order.count && entities[order[next]].offset == p {
                starting.append(Piece(entity: entities[order[next]], source: order[next]))
                next += 1
            }
            open(&starting, into: &stack, rank: rank, body)
            var boundary = textLength
            if next < order.count { boundary = min(boundary, entities[order[next]].offset) }
            for piece in stack { boundary = min(boundary, piece.entity.end) }
            guard boundary > p else { return }
            body(.text(start: p, end: boundary))
            p = boundary
        }
    }

    private static func open(
        _ pieces: inout [Piece], into stack: inout [Piece], rank: (Entity) -> Int, _ body: (Event) -> Void
    ) {
        pieces.sort { a, b in
            if a.entity.end != b.entity.end { return a.entity.end > b.entity.end }
            let ra = rank(a.entity)
            let rb = rank(b.entity)
            if ra != rb { return ra < rb }
            return a.source < b.source
        }
        for piece in pieces {
            stack.append(piece)
            body(.open(piece))
        }
    }

    /// Entities of `message` that are inside its text, non-empty and on Unicode scalar
    /// boundaries (others cannot be written as markup).
    static func validEntities(of message: Message) -> [Entity] {
        let length = message.utf16Length
        // Only a scalar outside the Basic Multilingual Plane (four UTF-8 bytes, two UTF-16
        // units) has an offset inside it; without one every offset is a boundary, and no
        // table is needed.
        guard message.text.utf8.contains(where: { $0 >= 0xF0 }) else {
            return message.entities.keepingAll { e in e.length > 0 && e.offset >= 0 && e.end <= length }
        }
        var boundaries = [Bool](repeating: false, count: length + 1)
        var u = 0
        for scalar in message.text.unicodeScalars {
            boundaries[u] = true
            u += scalar.utf16.count
        }
        boundaries[length] = true
        return message.entities.keepingAll { e in
            e.length > 0 && e.offset >= 0 && e.end <= length && boundaries[e.offset] && boundaries[e.end]
        }
    }

    /// Merges entities of the same `type` that overlap or nest (not ones that only touch)
    /// into one covering them all; other entities are kept as they are.
    static func mergingOverlaps(_ entities: [Entity], ofTypes types: Set<EntityType>) -> [Entity] {
        if !hasOverlaps(entities, ofTypes: types) { return entities }
        var kept: [Entity] = []
        var byType: [EntityType: [Entity]] = [:]
        for e in entities {
            if types.contains(e.type) { byType[e.type, default: []].append(e) } else { kept.append(e) }
        }
        for type in types {
            guard var list = byType[type] else { continue }
            list.sort { $0.offset < $1.offset }
            var current = list[0]
            for e in list.dropFirst() {
                if e.offset < current.end {
                    current.length = max(current.end, e.end) - current.offset
                } else {
                    kept.append(current)
                    current = e
                }
            }
            kept.append(current)
        }
        return kept
    }
}

extension EntityNesting {
    /// Whether two entities of the same type among `types` overlap or nest (so that
    /// ``mergingOverlaps(_:ofTypes:)`` has something to merge).
    ///
    /// Without any, the merge would give the same entities (each type's in the same
    /// order, and entities of these types never tie with each other in nesting), so it
    /// gives back the array itself.
    static func hasOverlaps(_ entities: [Entity], ofTypes types: Set<EntityType>) -> Bool {
        var ends: [EntityType: Int] = [:]
        var lastOffset = Int.min
        for e in entities where types.contains(e.type) {
            // Out of order: let the merge sort them.
            if e.offset < lastOffset { return true }
            lastOffset = e.offset
            if let end = ends[e.type], e.offset < end { return true }
            ends[e.type] = Swift.max(ends[e.type] ?? Int.min, e.end)
        }
        return false
    }
}

extension Array where Element == Entity {
    /// The entities that satisfy `isIncluded`: the array itself, not a copy, when all do.
    func keepingAll(where isIncluded: (Entity) -> Bool) -> [Entity] {
        guard let first = firstIndex(where: { !isIncluded($0) }) else { return self }
        var kept = Array(self[..<first])
        for e in self[(first + 1)...] where isIncluded(e) { kept.append(e) }
        return kept
    }
}

/// The text of a message as Unicode scalars with their UTF-16 offsets, for writing it out
/// piece by piece between entity boundaries.
struct ScalarText {
    let scalars: [Unicode.Scalar]
    /// `index[u]` is the index in `scalars` of the scalar at UTF-16 offset `u` (for offsets
    /// on scalar boundaries, and the end).
    let index: [Int]

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var index = [Int](repeating: 0, count: text.utf16.count + 1)
        var u = 0
        for (k, s) in scalars.enumerated() {
            index[u] = k
            u += s.utf16.count
        }
        index[u] = scalars.count
        self.index = index
    }

    /// The scalars from UTF-16 offset `start` to `end`.
    func scalars(from start: Int, to end: Int) -> ArraySlice<Unicode.Scalar> {
        scalars[index[start]..<index[end]]
    }
}
