import SpoilerCore
import Testing

@testable import SpoilerParser

/// The decoding scan's UTF-8 check (``PlainScanner/isValidUTF8(_:through:)``, sixteen lanes
/// at a time) against the automaton every other reader steps through
/// (``UTF8Validation/automatonRows``), on every three bytes of those that matter placed
/// across the edges of its blocks, and on random texts of valid characters and stray bytes;
/// and its sixteen-lane UTF-16 count (``PlainScanner/utf16Units(_:)-(SIMD16<UInt8>)``)
/// against the eight-byte one.
@Suite struct PlainScannerUTF8Tests {
    /// Bytes at the edges of the UTF-8 ranges: ASCII, continuations, every kind of lead,
    /// the leads that narrow the next byte's range, and bytes never valid.
    static let edgeBytes: [UInt8] = [
        0x00, 0x22, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED,
        0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xF8, 0xFF,
    ]

    /// Whether the automaton accepts `bytes`.
    static func automatonAccepts(_ bytes: [UInt8]) -> Bool {
        var state = UTF8Validation.acceptState
        for b in bytes { state = UTF8Validation.step(state, b, rows: UTF8Validation.automatonRowStorage) }
        return state == UTF8Validation.acceptState
    }

    /// The check on `text` followed by a closing quote and `trailer` (never looked at).
    static func lanesAccept(_ text: [UInt8], trailer: [UInt8]) -> Bool {
        let line = text + [0x22] + trailer
        return line.withUnsafeBufferPointer { PlainScanner.isValidUTF8($0, through: text.count) }
    }

    @Test func everyThreeEdgeBytesAcrossTheBlocks() {
        var failures: [String] = []
        let fillers: [[UInt8]] = [Array("é".utf8), Array("漢".utf8), Array("😀".utf8), Array("a".utf8)]
        for a in Self.edgeBytes {
            for b in Self.edgeBytes {
                for c in Self.edgeBytes {
                    for offset in [0, 1, 13, 14, 15, 16, 17, 29, 31, 32] {
                        let filler = fillers[(Int(a) ^ Int(b) ^ Int(c) ^ offset) % fillers.count]
                        var text: [UInt8] = []
                        while text.count < offset { text += filler }
                        text = Array(text.prefix(offset)) + [a, b, c]
                        for after in [0, 1, 5, 20] {
                            let whole = text + Array(repeating: UInt8(ascii: "x"), count: after)
                            let trailer: [UInt8] = [0xFF, 0x80, 0xE0]
                            if Self.lanesAccept(whole, trailer: trailer) != Self.automatonAccepts(whole) {
                                failures.append(whole.map { String($0, radix: 16) }.joined(separator: " "))
                            }
                        }
                    }
                }
            }
        }
        let failed = failures.count
        #expect(failed == 0, "for example \(failures.prefix(5))")
    }

    @Test func randomTexts() {
        var rng = SplitMix64(seed: 0x07F8_0A1D)
        let characters = [
            "a", " ", "é", "Ж", "漢", "😀", "🇺🇦", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{10FFFF}", "\u{FFFD}",
        ]
        var failures: [String] = []
        for _ in 0..<40_000 {
            var text: [UInt8] = []
            for _ in 0..<Int(rng.next() % 48) {
                if rng.next() % 16 == 0 {
                    text.append(UInt8(truncatingIfNeeded: rng.next()))
                } else {
                    text += Array(characters[Int(rng.next() % UInt64(characters.count))].utf8)
                }
            }
            if rng.next() % 8 == 0, !text.isEmpty { text.removeLast() }
            if Self.lanesAccept(text, trailer: [0xC3]) != Self.automatonAccepts(text) {
                failures.append(text.map { String($0, radix: 16) }.joined(separator: " "))
            }
        }
        let failed = failures.count
        #expect(failed == 0, "for example \(failures.prefix(5))")
    }

    @Test func sixteenLanesCountTheUnitsOfTwoWords() {
        var rng = SplitMix64(seed: 0x16_1A7E)
        var failures: [String] = []
        for _ in 0..<50_000 {
            var bytes: [UInt8] = []
            for _ in 0..<16 {
                bytes.append(
                    rng.next() % 2 == 0
                        ? Self.edgeBytes[Int(rng.next() % UInt64(Self.edgeBytes.count))]
                        : UInt8(truncatingIfNeeded: rng.next()))
            }
            let lanes = bytes.withUnsafeBytes { $0.loadUnaligned(as: SIMD16<UInt8>.self) }
            let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
            let expected = PlainScanner.utf16Units(words[0]) + PlainScanner.utf16Units(words[1])
            if PlainScanner.utf16Units(lanes) != expected {
                failures.append(bytes.map { String($0, radix: 16) }.joined(separator: " "))
            }
        }
        let failed = failures.count
        #expect(failed == 0, "for example \(failures.prefix(5))")
    }
}
