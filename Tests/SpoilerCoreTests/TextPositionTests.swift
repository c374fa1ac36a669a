import SpoilerCore
import SpoilerTestSupport
import Testing

/// ``TextPosition``: a position found from the start of a text is the one found by going on
/// from any earlier position over the bytes between.
@Suite struct TextPositionTests {
    @Test func aPositionFoundFromAnEarlierOneIsTheOneFoundFromTheStart() {
        let pieces: [[UInt8]] = [
            Array("ab".utf8), [0x0A], Array("é".utf8), Array("😀".utf8), Array("漢".utf8), [0xFF], [0x80], [0x0D, 0x0A],
        ]
        forAll(
            { rng -> ([UInt8], Int, Int) in
                var bytes: [UInt8] = []
                for _ in 0..<Int(rng.next() % 40) { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
                let b = Int(rng.next() % UInt64(bytes.count + 1))
                return (bytes, Int(rng.next() % UInt64(b + 1)), b)
            }, count: 2000
        ) { bytes, a, b in
            let fromStart = TextPosition(utf8Offset: b, in: bytes)
            let fromA = TextPosition(utf8Offset: a, in: bytes).advanced(over: bytes[a..<b])
            return fromStart == fromA
        }
        let start = TextPosition(utf8Offset: 0, utf16Offset: 0, line: 1, column: 1)
        #expect(
            start.advanced(over: Array("ab\nc😀".utf8))
                == TextPosition(utf8Offset: 8, utf16Offset: 6, line: 2, column: 6))
    }

    /// ``TextPosition/advanced(over:)`` finds, from any position, over bytes in memory and
    /// over a sequence that is not, what a count byte by byte finds: a line and column 1
    /// after a line break, a column more after any other byte, a UTF-16 unit for each byte
    /// that is no continuation byte and one more for a four-byte lead.
    @Test func theCountOverBytesIsTheCountByteByByte() {
        let pieces: [[UInt8]] = [
            Array("ab".utf8), [0x0A], Array("é".utf8), Array("😀".utf8), Array("漢".utf8), [0xFF], [0x80], [0x0D, 0x0A],
        ]
        func byteByByte(_ from: TextPosition, _ bytes: ArraySlice<UInt8>) -> TextPosition {
            var p = from
            for b in bytes {
                if b == 0x0A {
                    p.line += 1
                    p.column = 1
                } else {
                    p.column += 1
                }
                if b & 0xC0 != 0x80 { p.utf16Offset += b >= 0xF0 && b <= 0xF4 ? 2 : 1 }
                p.utf8Offset += 1
            }
            return p
        }
        forAll(
            { rng -> ([UInt8], Int) in
                var bytes: [UInt8] = []
                for _ in 0..<Int(rng.next() % 40) { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
                return (bytes, Int(rng.next() % UInt64(bytes.count + 1)))
            }, count: 2000
        ) { bytes, a in
            let from = TextPosition(utf8Offset: a, in: bytes)
            let expected = byteByByte(from, bytes[a...])
            return from.advanced(over: bytes[a...]) == expected
                && from.advanced(over: bytes[a...].lazy.map { $0 }) == expected
        }
    }
}
