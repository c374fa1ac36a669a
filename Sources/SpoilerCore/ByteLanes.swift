/// Tests on the eight bytes of a `UInt64` at once (SWAR): each returns the high bit of every
/// byte that may pass the test. None that passes is missed, and the lowest byte marked
/// passes (a borrow marks only bytes above a real one), so the first match is at
/// `trailingZeroBitCount / 8` of the mask in little-endian order.
public enum ByteLanes {
    /// `0x01` in every byte.
    public static let ones: UInt64 = 0x0101_0101_0101_0101
    /// `0x80` in every byte.
    public static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The bytes of `v` that are zero.
    @inlinable @inline(__always)
    public static func zero(_ v: UInt64) -> UInt64 {
        (v &- ones) & ~v & highs
    }

    /// The bytes of `v` equal to `byte`.
    @inlinable @inline(__always)
    public static func equal(_ v: UInt64, _ byte: UInt8) -> UInt64 {
        zero(v ^ (ones &* UInt64(byte)))
    }

    /// The bytes of `v` equal to `byte`, exactly: no byte above a match is marked, so the
    /// marks may be counted.
    @inlinable @inline(__always)
    public static func exactlyEqual(_ v: UInt64, _ byte: UInt8) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let x = v ^ (ones &* UInt64(byte))
        return ~(((x & low7) &+ low7) | x | low7)
    }

    /// The bytes of `v` below `bound` (at most 0x7F: at 0x80 a zero byte after a match
    /// can be missed).
    @inlinable @inline(__always)
    public static func below(_ v: UInt64, _ bound: UInt8) -> UInt64 {
        (v &- ones &* UInt64(bound)) & ~v & highs
    }
}
