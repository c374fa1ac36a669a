/// JSON bytes written straight through a pointer, with no check of the room: for a writer
/// that has checked it once for a whole object (``JSONByteCursor/withRoom(bound:_:)``).
/// Each value is written as ``JSONByteCursor`` writes it.
///
/// ```swift
/// c.withRoom(bound: 64) { q in
///     var o = RawJSON(p: q)
///     o.literal(#"{"n":"#); o.integer(42); o.literal("}")
///     return o.p
/// }
/// ```
public struct RawJSON: JSONBytesWriting {
    /// Where the next byte goes.
    public var p: UnsafeMutablePointer<UInt8>

    /// A writer whose next byte goes to `p`; the caller vouches for the room after it.
    @inlinable @inline(__always)
    public init(p: UnsafeMutablePointer<UInt8>) {
        self.p = p
    }

    /// Writes the bytes of `s` as they are.
    @inlinable @inline(__always)
    public mutating func literal(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        // A static string never overlaps the room: a plain copy, without memmove's test.
        p.initialize(from: s.utf8Start, count: n)
        p += n
    }

    /// Writes bytes as they are. Up to eight of them (an id, a number's digits) are
    /// copied by two loads and two stores that may overlap, reading none past `bytes`;
    /// more through `memmove`, whose call costs more than these few bytes.
    @inlinable @inline(__always)
    public mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        let from = UnsafeRawPointer(base)
        let to = UnsafeMutableRawPointer(p)
        if n >= 4 && n <= 8 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
        } else if n >= 2 && n < 4 {
            let head = from.loadUnaligned(as: UInt16.self)
            let tail = from.loadUnaligned(fromByteOffset: n &- 2, as: UInt16.self)
            to.storeBytes(of: head, as: UInt16.self)
            to.storeBytes(of: tail, toByteOffset: n &- 2, as: UInt16.self)
        } else if n == 1 {
            p[0] = base[0]
        } else {
            p.update(from: base, count: n)
        }
        p += n
    }

    /// The two decimal digits of 0 to 99, in order.
    @usableFromInline static let digitPairs: StaticString = """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    /// Writes `n` in decimal, as ``JSONByteCursor/integer(_:)``; at most 20 bytes. Below
    /// 1,000 the digits go two at a time from a table of digit pairs.
    @inlinable @inline(__always)
    public mutating func integer(_ n: Int) {
        let m = UInt(bitPattern: n)
        let pairs = UnsafeRawPointer(RawJSON.digitPairs.utf8Start)
        if m < 10 {
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m)
            p += 1
        } else if m < 100 {
            UnsafeMutableRawPointer(p).storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: 2 &* Int(m), as: UInt16.self), as: UInt16.self)
            p += 2
        } else if m < 1000 {
            let high = m / 100
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high)
            UnsafeMutableRawPointer(p + 1).storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: 2 &* Int(m &- high &* 100), as: UInt16.self), as: UInt16.self)
            p += 3
        } else {
            anyInteger(n)
        }
    }

    /// Writes any `n` in decimal, as ``integer(_:)`` does.
    @inline(never) @usableFromInline
    mutating func anyInteger(_ n: Int) {
        var c = JSONByteCursor(room: UnsafeMutableBufferPointer(start: p, count: 20))
        c.integer(n)
        p = c.position
    }

    /// Writes `d` as ``JSONByteCursor/number(_:decimals:)`` writes it; at most 32 bytes for
    /// `decimals` up to 8.
    @inline(never)
    public mutating func number(_ d: Double, decimals: Int = 4) {
        var c = JSONByteCursor(room: UnsafeMutableBufferPointer(start: p, count: 32))
        c.number(d, decimals: decimals)
        p = c.position
    }

    /// Writes valid UTF-8 `text` quoted and escaped as ``JSONByteCursor/quoted(utf8:)``
    /// does; at most 6 × `text.count` + 2 bytes.
    ///
    /// Eight bytes at a time, then byte by byte, are copied while none may need escaping;
    /// from the first that may (always where a scalar starts) on, the cursor's escape writes
    /// the rest.
    @inlinable @inline(__always)
    public mutating func quoted(utf8 text: UnsafeBufferPointer<UInt8>) {
        p.pointee = UInt8(ascii: "\"")
        var q = p + 1
        let n = text.count
        var i = 0
        if let base = text.baseAddress {
            while i &+ 8 <= n {
                let v = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                let mask =
                    ByteLanes.below(v, 0x20) | ByteLanes.equal(v, 0x22) | ByteLanes.equal(v, 0x5C)
                    | ByteLanes.equal(v, 0x7F) | ByteLanes.equal(v, 0xC2) | ByteLanes.equal(v, 0xE2)
                if mask != 0 { break }
                UnsafeMutableRawPointer(q + i).storeBytes(of: v, as: UInt64.self)
                i &+= 8
            }
            while i < n {
                let b = base[i]
                if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F || b == 0xC2 || b == 0xE2 { break }
                q[i] = b
                i &+= 1
            }
            q += i
            if i < n {
                var c = JSONByteCursor(room: UnsafeMutableBufferPointer(start: q, count: 6 * (n - i)))
                c.escaped(utf8: UnsafeBufferPointer(rebasing: text[i...]))
                q = c.position
            }
        }
        q.pointee = UInt8(ascii: "\"")
        p = q + 1
    }
}
