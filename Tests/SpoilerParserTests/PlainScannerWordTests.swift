import SpoilerCore
import Testing

@testable import SpoilerParser

/// The eight-byte tests of the one-pass JSON scan (``PlainScanner/jsonLookMask(_:)``,
/// ``PlainScanner/utf16Units(_:)``, and the sixteen-lane ``PlainScanner/jsonLookLanes(_:)``
/// and ``PlainScanner/decodedLookLanes(_:)``) against a byte-at-a-time reference, on words made of
/// the bytes that matter (each look byte, its neighbours under the case fold, every kind
/// of UTF-8 byte) and on random words.
@Suite struct PlainScannerWordTests {
    /// The bytes the scan must stop at: controls, `"`, `\`, `|`, a backtick, DEL, C2, E2.
    static func needsLook(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7C || b == 0x60 || b == 0x7F || b == 0xC2 || b == 0xE2
    }

    /// The bytes the decoding scan must stop at: controls, `"`, `\`, `|`, a backtick.
    static func needsLookDecoded(_ b: UInt8) -> Bool {
        b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7C || b == 0x60
    }

    /// A byte's UTF-16 units, as ``PlainScanner/unitsPerByte`` weighs a byte of text.
    static func units(_ b: UInt8) -> Int {
        switch b {
        case 0x80...0xBF: 0
        case 0xF0...0xFF: 2
        default: 1
        }
    }

    /// Bytes near the tests' edges: each look byte, the bytes its bit 5 pairs it with
    /// (`@`, `_`, `<`, 0x02, `B`, A2, C3, E3, 0x7B, 0x7D), and leads and continuations.
    static let edgeBytes: [UInt8] = [
        0x00, 0x01, 0x02, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x40, 0x41, 0x42, 0x5B, 0x5C, 0x5D, 0x5F, 0x60, 0x61, 0x7B,
        0x7C,
        0x7D, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xA2, 0xBF, 0xC0, 0xC1, 0xC2, 0xC3, 0xD0, 0xDF, 0xE0, 0xE1, 0xE2, 0xE3,
        0xED,
        0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
    ]

    static func word(_ bytes: [UInt8]) -> UInt64 {
        bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    static func check(_ bytes: [UInt8], _ failures: inout [String]) {
        let v = word(bytes)
        let mask = PlainScanner.jsonLookMask(v)
        let marked = (0..<8).filter { mask >> (8 * UInt64($0) + 7) & 1 != 0 }
        let real = (0..<8).filter { needsLook(bytes[$0]) }
        // None missed, and the first marked is a real one.
        if !Set(real).isSubset(of: Set(marked)) || marked.first != real.first {
            failures.append("look mask of \(bytes.map { String($0, radix: 16) }): \(marked) for \(real)")
        }
        // The sixteen-lane masks mark exactly the bytes that need a look (here twice over).
        let lanes = SIMD16<UInt8>(bytes + bytes)
        let json = PlainScanner.jsonLookLanes(lanes)
        let decoded = PlainScanner.decodedLookLanes(lanes)
        for j in 0..<16 {
            let b = bytes[j % 8]
            if (json[j] == 0x80) != needsLook(b) || (json[j] != 0 && json[j] != 0x80) {
                failures.append("JSON lanes of \(bytes.map { String($0, radix: 16) }): lane \(j) is \(json[j])")
            }
            if (decoded[j] == 0x80) != needsLookDecoded(b) || (decoded[j] != 0 && decoded[j] != 0x80) {
                failures.append("decoded lanes of \(bytes.map { String($0, radix: 16) }): lane \(j) is \(decoded[j])")
            }
        }
        let expected = bytes.reduce(0) { $0 + units($1) }
        if PlainScanner.utf16Units(v) != expected {
            failures.append("units of \(bytes.map { String($0, radix: 16) }): \(PlainScanner.utf16Units(v))")
        }
    }

    @Test func wordsOfEdgeBytesAreMarkedAndCounted() {
        var failures: [String] = []
        var rng = SplitMix64(seed: 0x5CA7)
        // Every edge byte at every place among spaces, then among random edge bytes.
        for b in Self.edgeBytes {
            for place in 0..<8 {
                var bytes = [UInt8](repeating: 0x20, count: 8)
                bytes[place] = b
                Self.check(bytes, &failures)
                for _ in 0..<40 {
                    var mixed = (0..<8).map { _ in Self.edgeBytes[Int(rng.next() % UInt64(Self.edgeBytes.count))] }
                    mixed[place] = b
                    Self.check(mixed, &failures)
                }
            }
        }
        for _ in 0..<200_000 {
            let x = rng.next()
            Self.check((0..<8).map { UInt8(truncatingIfNeeded: x >> (8 * UInt64($0))) }, &failures)
        }
        #expect(failures.isEmpty, "\(failures.count) words, first: \(failures.first ?? "")")
    }
}
