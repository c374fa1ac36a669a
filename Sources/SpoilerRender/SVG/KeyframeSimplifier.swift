/// Picks the fewest samples of a sampled curve such that straight lines between them stay
/// within a tolerance of every sample: what keeps an animated SVG small when particles
/// move in straight lines most of the time.
enum KeyframeSimplifier {
    /// Indices of the samples to keep, the first and the last always included.
    ///
    /// The samples are one or more channels taken at the same times. A sample is covered
    /// when, for every channel `c`, linear interpolation between the kept neighbours lies
    /// within `tolerance[c]` of it.
    ///
    /// - Complexity: O(n²) in the worst case, O(n) for straight runs.
    static func keep(_ channels: [[Double]], tolerance: [Double]) -> [Int] {
        guard let n = channels.first?.count, n > 0 else { return [] }
        if n <= 2 { return Array(0..<n) }
        var kept = [0]
        var anchor = 0
        while anchor < n - 1 {
            var end = anchor + 1
            // Extend while the segment anchor…end+1 still covers every sample in between.
            while end + 1 < n && covers(channels, tolerance, from: anchor, to: end + 1) { end += 1 }
            kept.append(end)
            anchor = end
        }
        return kept
    }

    static func covers(_ channels: [[Double]], _ tolerance: [Double], from a: Int, to b: Int) -> Bool {
        for (c, values) in channels.enumerated() {
            let va = values[a]
            let vb = values[b]
            let span = Double(b - a)
            for k in (a + 1)..<b {
                let expected = va + (vb - va) * Double(k - a) / span
                if abs(values[k] - expected) > tolerance[c] { return false }
            }
        }
        return true
    }
}
