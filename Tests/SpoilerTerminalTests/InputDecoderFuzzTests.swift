import SpoilerCore
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The input decoder's fuzz target: random bytes, biased toward the bytes escape
/// sequences are made of, in random chunks. The decoder must not trap, must consume
/// everything once finished, and must give the same events however the bytes are split.
@Suite struct InputDecoderFuzzTests {
    static let alphabet: [UInt8] =
        Array("\u{1B}[<;0123456789MmIOABCDZ~q\t\r".utf8) + [0x00, 0x03, 0x7F, 0x9B, 0xC3, 0xA9, 0xE6, 0xF0, 0xFF]

    static func randomInput(_ rng: inout SplitMix64) -> ([UInt8], [Int]) {
        let n = Int(rng.next() % 200)
        var bytes: [UInt8] = []
        for _ in 0..<n {
            bytes.append(
                rng.next() % 4 == 0
                    ? UInt8(truncatingIfNeeded: rng.next()) : alphabet[Int(rng.next() % UInt64(alphabet.count))])
        }
        var cuts: [Int] = []
        var at = 0
        while at < n {
            at += Int(rng.next() % 9) + 1
            cuts.append(min(at, n))
        }
        return (bytes, cuts)
    }

    @Test func randomBytesDecodeTheSameInAnyChunks() {
        forAll(Self.randomInput, count: 3000) { bytes, cuts in
            var whole = InputDecoder()
            let expected = whole.feed(bytes) + whole.finish()
            guard !whole.hasPending else { return false }
            var chunked = InputDecoder()
            var events: [InputEvent] = []
            var start = 0
            for cut in cuts where cut >= start {
                events += chunked.feed(bytes[start..<cut])
                start = cut
            }
            events += chunked.finish()
            return events == expected && !chunked.hasPending
        }
    }

    @Test func aMegabyteOfEscapesIsDecoded() {
        // Long runs of sequence openers must not make the decoder quadratic or trap.
        var decoder = InputDecoder()
        var count = 0
        for _ in 0..<1024 {
            count +=
                decoder.feed(
                    Array(repeating: 0x1B, count: 512) + Array("[<".utf8)
                        + Array(repeating: UInt8(ascii: "1"), count: 510)
                ).count
        }
        count += decoder.finish().count
        #expect(count > 0)
        #expect(!decoder.hasPending)
    }
}
