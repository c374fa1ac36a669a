import SpoilerCore

/// Runs of CJK unified ideographs U+4E00 to U+9FFF taken by
/// ``MonoGeometryStream/takeRun(_:from:count:utf16Start:table:in:)`` three bytes at a time
/// in a loop of their own: each a cluster alone of two cells and one UTF-16 unit that is no
/// whitespace, so that a run of them only moves the pen (and, inside a spoiler, adds to
/// the word) as ASCII does, without the decoding and the table of the general step.
enum Ideographs {
    /// The scalars taken.
    static let scalars: ClosedRange<Int> = 0x4E00...0x9FFF

    /// Whether `table` (``GraphemeScanner/BMPInfo/table``) says of every scalar in
    /// ``scalars`` what the run assumes: it starts a cluster alone, extends none, is two
    /// cells wide and is no whitespace. When it does not (another utf8proc), the run takes
    /// them the general way.
    static func hold(in table: [UInt8]) -> Bool {
        typealias Info = GraphemeScanner.BMPInfo
        // The facts of the first, which every other one must share.
        let info = table[scalars.lowerBound]
        let kind = GraphemeKind(rawValue: info & Info.kindMask)
        guard
            info & Info.startsAlone != 0 && info & Info.extends == 0 && info &>> 4 & 0x03 == 2
                && kind.map({ !$0.isWhitespace }) ?? false
        else { return false }
        return table[scalars].allSatisfy { $0 == info }
    }

    /// ``hold(in:)`` for the process's table, worked out once.
    static let holdInTable = hold(in: GraphemeScanner.BMPInfo.table)

    /// Whether `b` may lead one of the ideographs (E4 to E9): the one-byte test before
    /// ``starts(_:_:)``.
    @inline(__always)
    static func mayLead(_ b: UInt8) -> Bool {
        b &- 0xE4 < 6
    }

    /// Whether the scalar of valid UTF-8 whose first two bytes are `b0` and `b1` is one of
    /// the ideographs: lead E5 to E9 (U+5000 to U+9FFF), or E4 with a second byte from B8
    /// on (U+4E00 to U+4FFF).
    @inline(__always)
    static func starts(_ b0: UInt8, _ b1: UInt8) -> Bool {
        b0 &- 0xE5 < 5 || (b0 == 0xE4 && b1 >= 0xB8)
    }
}
