/// The ranges that cover a point, for points visited in increasing order: a sweep over a
/// text that finds, at each position, which entities hold it.
///
/// Looking through every entity at every position is O(positions × entities), which a long
/// message with many entities makes minutes long; the sweep touches each range when it
/// starts and when it ends, so a pass costs O(positions + ranges × depth), depth being how
/// many ranges cover one point.
package struct CoveringRanges {
    private let ranges: [(start: Int, end: Int)]
    /// Indices into `ranges` by start; empty when `ranges` is in that order already (a
    /// message's entities are), so that the common case holds no second array.
    private let byStart: [Int]
    private var next = 0
    /// The indices of the ranges that cover the current point, ascending.
    package private(set) var active: [Int] = []
    /// The smallest end among `active` (`Int.max` when none).
    private var nextEnd = Int.max
    private var last = Int.min

    /// A sweep over `ranges` (start inclusive, end exclusive), before any point.
    package init(_ ranges: [(start: Int, end: Int)]) {
        self.ranges = ranges
        let inOrder = ranges.indices.dropFirst().allSatisfy { ranges[$0 - 1].start <= ranges[$0].start }
        byStart = inOrder ? [] : ranges.indices.sorted { (ranges[$0].start, $0) < (ranges[$1].start, $1) }
    }

    /// The index of the range that is `k`-th by start.
    private func nthByStart(_ k: Int) -> Int { byStart.isEmpty ? k : byStart[k] }

    /// Moves to `point`, which is never less than the point before, so that ``active``
    /// holds the ranges that cover it.
    package mutating func move(to point: Int) {
        precondition(point >= last, "CoveringRanges visits points in increasing order")
        last = point
        var changed = false
        if point >= nextEnd {
            active.removeAll { ranges[$0].end <= point }
            changed = true
        }
        while next < ranges.count, ranges[nthByStart(next)].start <= point {
            let i = nthByStart(next)
            next += 1
            guard ranges[i].end > point else { continue }
            var low = 0
            var high = active.count
            while low < high {
                let mid = (low + high) / 2
                if active[mid] < i { low = mid + 1 } else { high = mid }
            }
            active.insert(i, at: low)
            changed = true
        }
        if changed {
            nextEnd = .max
            for i in active { nextEnd = min(nextEnd, ranges[i].end) }
        }
    }
}
