import SpoilerCore

/// Runs of two-byte letters taken four at a time by
/// ``MonoGeometryStream/takeRun(_:from:count:utf16Start:table:in:)``: Latin-1's letters
/// (U+00C0 to U+00FF, lead byte C3) and the first Cyrillic block's (U+0400 to U+047F, lead
/// bytes D0 and D1), each a cluster alone of one cell and one UTF-16 unit that is no
/// whitespace, so that a run of them only moves the pen (and, inside a spoiler, adds to the
/// word) as ASCII does.
enum TwoByteLetters {
    /// The scalars taken, each a lead byte and a continuation byte.
    static let scalars: [ClosedRange<Int>] = [0xC0...0xFF, 0x400...0x47F]

    /// Whether `table` (``GraphemeScanner/BMPInfo/table``) says of every scalar in
    /// ``scalars`` what the run assumes: it starts a cluster alone, extends none, is one
    /// cell wide and is no whitespace. When it does not (another utf8proc), the run takes
    /// them one at a time, the general way.
    static func hold(in table: [UInt8]) -> Bool {
        typealias Info = GraphemeScanner.BMPInfo
        return scalars.allSatisfy { range in
            range.allSatisfy { v in
                let info = table[v]
                let kind = GraphemeKind(rawValue: info & Info.kindMask)
                return info & Info.startsAlone != 0 && info & Info.extends == 0 && info &>> 4 & 0x03 == 1
                    && kind.map { !$0.isWhitespace } ?? false
            }
        }
    }

    /// ``hold(in:)`` for the process's table, worked out once.
    static let holdInTable = hold(in: GraphemeScanner.BMPInfo.table)

    /// Whether `b` may lead one of the letters (C3 to D1): the one-byte test before
    /// ``count(in:)``.
    @inline(__always)
    static func mayLead(_ b: UInt8) -> Bool {
        b &- 0xC3 <= 0xD1 - 0xC3
    }

    /// How many of the four two-byte pieces of `v` (read little-endian from a scalar's
    /// start) are, from the first on, one of the letters: 0 to 4.
    @inline(__always)
    static func count(in v: UInt64) -> Int {
        // Each 16-bit lane is a lead byte (low) and a continuation byte (high): zero after
        // these masks exactly when the lead is D0 or D1 (or C3) and the other a
        // continuation byte.
        let cyrillic = (v ^ 0x80D0_80D0_80D0_80D0) & 0xC0FE_C0FE_C0FE_C0FE
        let latin = (v ^ 0x80C3_80C3_80C3_80C3) & 0xC0FF_C0FF_C0FF_C0FF
        let bad = nonzeroLanes(cyrillic) & nonzeroLanes(latin)
        return bad.trailingZeroBitCount &>> 4
    }

    /// The top bit of each 16-bit lane of `t` that is not zero, exactly (no carry crosses
    /// a lane).
    @inline(__always)
    static func nonzeroLanes(_ t: UInt64) -> UInt64 {
        let low: UInt64 = 0x7FFF_7FFF_7FFF_7FFF
        return ((t & low) &+ low | t) & ~low
    }
}
