import SpoilerCore
import Testing

@Suite struct UTF8ValidationTests {
    /// The fast array version gives the same answer as the generic reference, on random
    /// bytes biased towards (broken) multi-byte sequences and long ASCII runs.
    @Test func fastPathMatchesTheReference() {
        var rng = SplitMix64(seed: 7)
        let pieces: [[UInt8]] = [
            Array("abcdefgh".utf8), Array("é".utf8), Array("漢".utf8), Array("😀".utf8), [0xE2, 0x82], [0xF0, 0x9F],
            [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x80], Array("0123456789abcdef".utf8),
        ]
        for _ in 0..<5000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.next() % 12) {
                let p = pieces[Int(rng.next() % UInt64(pieces.count))]
                bytes += rng.next() % 4 == 0 ? Array(p.prefix(Int(rng.next() % UInt64(p.count + 1)))) : p
            }
            let reference = UTF8Validation.firstInvalidOffset(in: bytes[...])
            #expect(UTF8Validation.firstInvalidOffset(in: bytes) == reference, "\(bytes)")
        }
    }
}
