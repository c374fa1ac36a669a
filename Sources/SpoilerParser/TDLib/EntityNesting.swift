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
        var points = Set<Int>([0, textLength])
        for e in entities {
            points.insert(e.offset)
            points.insert(e.end)
        }
        let boundaries = points.sorted()
        var events: [Event] = []
        var stack: [Piece] = []
        var next = 0
        for (index, p) in boundaries.enumerated() {
            // Close what ends here, and whatever lies above it.
            if let deepest = stack.firstIndex(where: { $0.entity.end == p }) {
                var reopen: [Piece] = []
                while stack.count > deepest {
                    let piece = stack.removeLast()
                    var closed = piece
                    closed.entity.length = p - piece.entity.offset
                    events.append(.close(closed))
                    if piece.entity.end > p {
                        var rest = piece
                        rest.entity.length = piece.entity.end - p
                        rest.entity.offset = p
                        reopen.append(rest)
                    }
                }
                // Opened again below, with the entities that start here.
                var starting = reopen
                while next < order.count && entities[order[next]].offset == p {
                    starting.append(Piece(entity: entities[order[next]], source: order[next]))
                    next += 1
                }
                open(&starting, into: &stack, events: &events, rank: rank)
            } else {
                var starting: [Piece] = []
                while next < order.count && entities[order[next]].offset == p {
                    starting.append(Piece(entity: entities[order[next]], source: order[next]))
                    next += 1
                }
                open(&starting, into: &stack, events: &events, rank: rank)
            }
            if index + 1 < boundaries.count {
                events.append(.text(start: p, end: boundaries[index + 1]))
            }
        }
        return events
    }

    private static func open(
        _ pieces: inout [Piece], into stack: inout [Piece], events: inout [Event], rank: (Entity) -> Int
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
            events.append(.open(piece))
        }
    }

    /// Entities of `message` that are inside its text, non-empty and on Unicode scalar
    /// boundaries (others cannot be written as markup).
    static func validEntities(of message: Message) -> [Entity] {
        let length = message.utf16Length
        var boundaries = [Bool](repeating: false, count: length + 1)
        var u = 0
        for scalar in message.text.unicodeScalars {
            boundaries[u] = true
            u += scalar.utf16.count
        }
        boundaries[length] = true
        return message.entities.filter { e in
            e.length > 0 && e.offset >= 0 && e.end <= length && boundaries[e.offset] && boundaries[e.end]
        }
    }

    /// Merges entities of the same `type` that overlap or nest (not ones that only touch)
    /// into one covering them all; other entities are kept as they are.
    static func mergingOverlaps(_ entities: [Entity], ofTypes types: Set<EntityType>) -> [Entity] {
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
