import SpoilerCore
import Testing

/// The eight-bytes-at-once tests against a byte at a time: the first byte marked is the
/// first that passes, no byte that passes is missed, and `exactlyEqual` marks only matches.
@Suite struct ByteLanesTests {
    /// Words that mix the byte sought with its neighbours, zero, 0x80 and 0xFF, which a
    /// borrow or a carry gets wrong.
    static func words(around byte: UInt8) -> [UInt64] {
        var rng = SystemRandomNumberGenerator()
        let palette: [UInt8] = [byte, byte &- 1, byte &+ 1, 0, 0x80, 0xFF, 0x7F, byte ^ 0x80, 0x20, 0x01]
        return (0..<4000).map { _ in
            (0..<8).reduce(UInt64(0)) { w, k in w | UInt64(palette.randomElement(using: &rng)!) << (8 * UInt64(k)) }
        }
    }

    static func bytes(_ w: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: w >> (8 * UInt64($0))) } }

    /// The lanes marked in `mask`, as a byte index each.
    static func marked(_ mask: UInt64) -> [Int] { (0..<8).filter { mask >> (8 * UInt64($0) + 7) & 1 == 1 } }

    @Test(arguments: [UInt8(0x0A), 0x22, 0x5C, 0x7C, 0x00, 0x7F])
    func equalFindsTheFirstMatchAndMissesNone(byte: UInt8) {
        for w in Self.words(around: byte) {
            let matches = Self.bytes(w).indices.filter { Self.bytes(w)[$0] == byte }
            let mask = ByteLanes.equal(w, byte)
            #expect(Set(matches).isSubset(of: Self.marked(mask)))
            #expect(Self.marked(mask).first == matches.first)
            #expect(Self.marked(ByteLanes.exactlyEqual(w, byte)) == matches)
        }
    }

    @Test(arguments: [UInt8(0x20), 0x01, 0x7F, 0x30])
    func belowFindsTheFirstSmallerByteAndMissesNone(bound: UInt8) {
        for w in Self.words(around: bound) {
            let matches = Self.bytes(w).indices.filter { Self.bytes(w)[$0] < bound }
            let mask = ByteLanes.below(w, bound)
            #expect(Set(matches).isSubset(of: Self.marked(mask)))
            #expect(Self.marked(mask).first == matches.first)
        }
    }
}
