import SpoilerCore

/// Runs of CJK unified ideographs (U+4E00 to U+9FFF) and Hangul syllables (U+AC00 to
/// U+D77F of U+AC00 to U+D7A3) taken by
/// ``MonoGeometryStream/takeRun(_:from:count:utf16Start:table:in:)`` three bytes at a time
/// in a loop of their own: each a cluster alone of two cells and one UTF-16 unit that is no
/// whitespace, so that a run of them only moves the pen as ASCII does, without the decoding
/// and the table of the general step. A Hangul vowel or final jamo after a syllable (which
/// joins it) stops the run and gives the syllable back, as after any cluster.
enum WideScalars {
    /// The scalars taken.
    static let scalars: [ClosedRange<Int>] = [0x4E00...0x9FFF, 0xAC00...0xD77F]

    /// Whether `table` (``GraphemeScanner/BMPInfo/table``) says of every scalar in
    /// ``scalars`` what the run assumes: it starts a cluster alone, extends none, is two
    /// cells wide and is no whitespace. When it does not (another utf8proc), the run takes
    /// them the general way.
    static func hold(in table: [UInt8]) -> Bool {
        typealias Info = GraphemeScanner.BMPInfo
        return scalars.allSatisfy { range in
            // The facts of the first, which every other one must share.
            let info = table[range.lowerBound]
            let kind = GraphemeKind(rawValue: info & Info.kindMask)
            guard
                info & Info.startsAlone != 0 && info & Info.extends == 0 && info &>> 4 & 0x03 == 2
                    && kind.map({ !$0.isWhitespace }) ?? false
            else { return false }
            return table[range].allSatisfy { $0 == info }
        }
    }

    /// ``hold(in:)`` for the process's table, worked out once.
    static let holdInTable = hold(in: GraphemeScanner.BMPInfo.table)

    /// Whether `b` may lead one of the scalars (E4 to ED): the one-byte test before
    /// ``starts(_:_:)``.
    @inline(__always)
    static func mayLead(_ b: UInt8) -> Bool {
        b &- 0xE4 < 10
    }

    /// Whether the scalar of valid UTF-8 whose first two bytes are `b0` and `b1` is one of
    /// ``scalars``: lead E5 to E9 (U+5000 to U+9FFF), E4 with a second byte from B8 on
    /// (U+4E00 to U+4FFF), EB or EC (U+B000 to U+CFFF), EA with a second byte from B0 on
    /// (U+AC00 to U+AFFF), or ED with a second byte up to 9D (U+D000 to U+D77F).
    @inline(__always)
    static func starts(_ b0: UInt8, _ b1: UInt8) -> Bool {
        switch b0 {
        case 0xE5...0xE9, 0xEB, 0xEC: true
        case 0xE4: b1 >= 0xB8
        case 0xEA: b1 >= 0xB0
        case 0xED: b1 <= 0x9D
        default: false
        }
    }

    /// Whether the three bytes `b0`, `b1`, `b2`, which may not be valid UTF-8, are one of
    /// ``scalars``: ``starts(_:_:)`` with both continuation bytes checked.
    @inline(__always)
    static func starts(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> Bool {
        b1 & 0xC0 == 0x80 && b2 & 0xC0 == 0x80 && starts(b0, b1)
    }
}
