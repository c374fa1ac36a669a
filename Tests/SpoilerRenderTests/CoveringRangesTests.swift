import SpoilerCore
import SpoilerRender
import SpoilerTestSupport
import Testing

/// The HTML page's sweep over entities must name, at every point, exactly the ranges a
/// look through all of them names, in their order (the page's tags depend on it).
@Suite struct CoveringRangesTests {
    @Test func theSweepAgreesWithALookThroughEveryRange() {
        forAll(
            { rng -> ([(start: Int, end: Int)], [Int]) in
                let length = Int(rng.next() % 40) + 1
                var ranges: [(start: Int, end: Int)] = []
                for _ in 0..<Int(rng.next() % 12) {
                    let start = Int(rng.next() % UInt64(length))
                    ranges.append((start, start + Int(rng.next() % 10)))  // empty ones too
                }
                // Points in increasing order, some skipped, some repeated.
                var points: [Int] = []
                var p = 0
                while p <= length + 2 {
                    points.append(p)
                    p += Int(rng.next() % 3)
                }
                return (ranges, points)
            }, count: 2000
        ) { ranges, points in
            var sweep = CoveringRanges(ranges)
            for p in points {
                sweep.move(to: p)
                let expected = ranges.indices.filter { ranges[$0].start <= p && p < ranges[$0].end }
                if sweep.active != expected { return false }
            }
            return true
        }
    }
}
