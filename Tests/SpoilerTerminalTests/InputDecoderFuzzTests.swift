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

    /// A block of 512 ESCs and an unterminated `ESC [ <` with 510 digits: the first 511 ESCs
    /// are Escape keys (each followed by another ESC), and the last ESC opens a CSI with no
    /// final byte within 64 bytes, so it is dropped (an unknown event) and the rest read as
    /// characters.
    static let escapeBlock: [UInt8] =
        Array(repeating: 0x1B, count: 512) + Array("[<".utf8) + Array(repeating: UInt8(ascii: "1"), count: 510)

    /// Decodes `blocks` copies of ``escapeBlock`` fed in chunks of `chunk` bytes; returns the
    /// events and how many bytes the decoder looked at.
    static func decodeBlocks(_ blocks: Int, chunk: Int) -> (events: [InputEvent], examined: Int, pending: Bool) {
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        let input = Array(Array(repeating: escapeBlock, count: blocks).joined())
        var start = 0
        while start < input.count {
            let end = min(start + chunk, input.count)
            events += decoder.feed(input[start..<end])
            start = end
        }
        events += decoder.finish()
        return (events, decoder.examinedBytes, decoder.hasPending)
    }

    @Test func aMegabyteOfEscapesIsDecoded() {
        let one = Self.decodeBlocks(1, chunk: Self.escapeBlock.count)
        let characters = Self.escapeBlock.suffix(512).map { InputEvent.key(.character(Character(Unicode.Scalar($0)))) }
        #expect(one.events == Array(repeating: .key(.escape), count: 511) + [.unknown] + characters)
        let megabyte = Self.decodeBlocks(1024, chunk: 4096)
        #expect(!megabyte.pending)
        #expect(megabyte.events == Array(repeating: one.events, count: 1024).flatMap { $0 })
    }

    /// "Not quadratic", measured by operations rather than time: the bytes the decoder
    /// looks at grow in proportion to the input, whether it arrives in one piece, in reads
    /// of 4 KB, or a byte at a time (where an incomplete sequence, at most 64 bytes, is
    /// looked at again on each read), and stay within a few looks per byte.
    @Test(arguments: [1, 7, 4096, 1 << 20])
    func workGrowsLinearlyWithTheInput(chunk: Int) {
        let small = Self.decodeBlocks(16, chunk: chunk)
        let large = Self.decodeBlocks(128, chunk: chunk)
        let bytes = 128 * Self.escapeBlock.count
        #expect(large.examined <= 8 * bytes, "\(large.examined) bytes looked at for \(bytes) bytes")
        #expect(
            Double(large.examined) <= 8.5 * Double(small.examined),
            "16 blocks: \(small.examined), 128: \(large.examined)")
    }
}
