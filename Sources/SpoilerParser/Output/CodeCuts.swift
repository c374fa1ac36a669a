import SpoilerCore

/// Cuts `code` and `pre` entities that hold a spoiler at the spoiler's ends, so that a
/// writer whose code cannot hold markup keeps the hidden part hidden: the pieces become
/// `code` (a `pre` cannot be cut into blocks), and the spoiler goes around its piece.
enum CodeCuts {
    static func cuttingCode(around entities: [Entity]) -> [Entity] {
        let spoilers = entities.filter { $0.type == .spoiler }
        guard !spoilers.isEmpty else { return entities }
        var out: [Entity] = []
        for e in entities {
            guard e.type == .code || e.type == .pre,
                spoilers.contains(where: { $0.offset < e.end && $0.end > e.offset })
            else {
                out.append(e)
                continue
            }
            var points = Set([e.offset, e.end])
            for s in spoilers where s.offset < e.end && s.end > e.offset {
                points.insert(max(s.offset, e.offset))
                points.insert(min(s.end, e.end))
            }
            let sorted = points.sorted()
            for (a, b) in zip(sorted, sorted.dropFirst()) { out.append(Entity(.code, offset: a, length: b - a)) }
        }
        return out
    }
}
