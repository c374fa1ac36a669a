import SpoilerCore

/// The terminal attributes of a message's formatting entities, read in one pass over
/// increasing UTF-16 offsets (the order of a layout's graphemes).
struct FormattingSweep {
    private var pending: [(start: Int, end: Int, attributes: CellAttributes)]
    private var next = 0
    private var active: [(end: Int, attributes: CellAttributes)] = []
    private var lastOffset = Int.min

    init(_ entities: [Entity]) {
        pending = entities.compactMap { e in
            Self.attributes(of: e.type).map { (e.offset, e.offset + e.length, $0) }
        }.sorted { $0.start < $1.start }
    }

    /// The terminal attribute for an entity type, or nil for types that change nothing.
    static func attributes(of type: EntityType) -> CellAttributes? {
        switch type {
        case .bold: return .bold
        case .italic: return .italic
        case .underline, .url, .textLink, .email: return .underline
        case .strikethrough: return .strikethrough
        default: return nil
        }
    }

    /// The attributes of the text at `offset`; offsets must not decrease between calls
    /// (a smaller one starts the sweep over).
    mutating func attributes(at offset: Int) -> CellAttributes {
        if pending.isEmpty { return [] }
        if offset < lastOffset {
            next = 0
            active.removeAll()
        }
        lastOffset = offset
        while next < pending.count && pending[next].start <= offset {
            active.append((pending[next].end, pending[next].attributes))
            next += 1
        }
        active.removeAll { $0.end <= offset }
        var a: CellAttributes = []
        for e in active { a.formUnion(e.attributes) }
        return a
    }
}
