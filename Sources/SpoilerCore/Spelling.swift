/// Edit distances and "did you mean" suggestions, for error messages that name a
/// misspelt option, command, value or field.
public enum Spelling {
    /// The Levenshtein distance between `a` and `b`, counted in Unicode scalars: the
    /// fewest insertions, deletions and substitutions that turn one into the other.
    ///
    /// ```swift
    /// Spelling.distance("form", "from")  // 2
    /// ```
    ///
    /// - Complexity: O(*a* × *b*) time, O(*b*) memory.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var prev = Array(0...b.count)
        var cur = prev
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&prev, &cur)
        }
        return prev[b.count]
    }

    /// The candidate closest to `word`, if one is at most `maxDistance` edits away.
    ///
    /// The answer does not depend on the order of `candidates`: of several equally close
    /// ones, the first in code-point order wins, so a suggestion is the same on every run
    /// even when the candidates come from a `Set` or a `Dictionary`.
    ///
    /// ```swift
    /// Spelling.suggestion(for: "form", among: ["from", "to", "jobs"])  // "from"
    /// ```
    public static func suggestion(
        for word: String, among candidates: some Sequence<String>, maxDistance: Int = 2
    ) -> String? {
        var best: (name: String, distance: Int)?
        for c in candidates {
            let d = distance(c, word)
            guard d <= maxDistance else { continue }
            if let b = best, b.distance < d || (b.distance == d && b.name <= c) { continue }
            best = (c, d)
        }
        return best?.name
    }
}
