import SpoilerCore
import Testing

@Suite struct RawJSONTests {
    /// `raw` copies runs of up to eight bytes by overlapping loads and stores: at every
    /// length from 0 to 40, from the start, the middle and the end of a source, it writes
    /// the bytes given and nothing else, as the checked cursor does.
    @Test func rawWritesEveryLengthAsTheCursorDoes() {
        let source: [UInt8] = (0..<48).map { UInt8(truncatingIfNeeded: 0x30 + $0 * 7) }
        for count in 0...40 {
            for start in [0, 1, 3, 48 - count].filter({ $0 >= 0 && $0 + count <= 48 }) {
                let bytes = Array(source[start..<(start + count)])
                var room = [UInt8](repeating: 0xEE, count: 64)
                let written = bytes.withUnsafeBufferPointer { b in
                    room.withUnsafeMutableBufferPointer { r in
                        var o = RawJSON(p: r.baseAddress! + 2)
                        o.raw(b)
                        return (r.baseAddress! + 2).distance(to: o.p)
                    }
                }
                var cursorRoom = [UInt8](repeating: 0xEE, count: 64)
                cursorRoom.withUnsafeMutableBufferPointer { r in
                    var c = JSONByteCursor(room: UnsafeMutableBufferPointer(rebasing: r[2...]))
                    bytes.withUnsafeBufferPointer { c.raw($0) }
                }
                #expect(written == count)
                #expect(room == cursorRoom, "\(count) bytes from \(start)")
            }
        }
    }
}
