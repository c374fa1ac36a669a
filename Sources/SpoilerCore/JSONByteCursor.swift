/// Writes JSON bytes through a pointer into room reserved beforehand: the output of a
/// line filter, thousands of small objects a second, written with no per-value capacity
/// check or uniqueness check of an array (``JSONWriter`` appends to one).
///
/// The caller gives an upper bound of the bytes it writes; every write checks that it
/// stays inside the room (a broken bound traps, it never writes past the end). The bytes
/// are those ``JSONWriter`` writes for the same values: strings escaped by the same rules,
/// integers and numbers in the same format.
///
/// Strings given as a `String` are written by ``JSONBytesWriting/quoted(_:)``.
///
/// ```swift
/// let bytes = JSONByteCursor.bytes(capacity: 64) { c in
///     c.literal(#"{"n":"#); c.integer(42); c.literal(",\"s\":"); c.quoted("hi"); c.literal("}")
/// }
/// // String(decoding: bytes, as: UTF8.self) == #"{"n":42,"s":"hi"}"#
/// ```
public struct JSONByteCursor {
    /// The next byte to write.
    @usableFromInline var p: UnsafeMutablePointer<UInt8>
    /// The end of the room.
    @usableFromInline let end: UnsafeMutablePointer<UInt8>

    @usableFromInline init(_ room: UnsafeMutableBufferPointer<UInt8>) {
        p = room.baseAddress!
        end = room.baseAddress! + room.count
    }

    /// An array of at most `capacity` bytes, written by `body`.
    ///
    /// - Precondition: `body` writes at most `capacity` bytes.
    public static func bytes(capacity: Int, _ body: (inout JSONByteCursor) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: max(1, capacity)) { room, count in
            var cursor = JSONByteCursor(room)
            body(&cursor)
            count = room.baseAddress!.distance(to: cursor.p)
        }
    }

    /// A cursor at the start of `room`, for a writer that keeps it across calls; it never
    /// writes past the room's end.
    public init(room: UnsafeMutableBufferPointer<UInt8>) {
        self.init(room)
    }

    /// Where the next byte goes.
    public var position: UnsafeMutablePointer<UInt8> { p }

    /// How many bytes are left in the room.
    public var room: Int { p.distance(to: end) }

    /// Writes with `body` into `room`, and returns how many bytes it wrote.
    ///
    /// - Precondition: `body` writes at most `room.count` bytes.
    public static func write(into room: UnsafeMutableBufferPointer<UInt8>, _ body: (inout JSONByteCursor) -> Void)
        -> Int
    {
        var cursor = JSONByteCursor(room)
        body(&cursor)
        return room.baseAddress!.distance(to: cursor.p)
    }

    /// Writes at most `bound` bytes straight through a pointer, with one check of the room
    /// for all of them instead of one per value: `body` is given where the next byte goes
    /// and returns one past the last byte it wrote.
    ///
    /// ```swift
    /// c.withRoom(bound: 2) { q in q[0] = 0x5B; q[1] = 0x5D; return q + 2 }  // []
    /// ```
    ///
    /// - Precondition: `body` writes at most `bound` bytes, from the pointer it is given on.
    @inlinable @inline(__always)
    public mutating func withRoom(
        bound: Int, _ body: (UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8>
    ) {
        reserve(bound)
        let q = body(p)
        precondition(q >= p && p.distance(to: q) <= bound, "JSONByteCursor: more was written than the bound")
        p = q
    }

    @usableFromInline func reserve(_ n: Int) {
        precondition(n <= p.distance(to: end), "JSONByteCursor: the bound given was too small")
    }

    /// Writes the bytes of `s` as they are (JSON syntax and keys the caller vouches for).
    @inlinable @inline(__always)
    public mutating func literal(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        reserve(n)
        // A static string never overlaps the room: a plain copy, without memmove's test.
        p.initialize(from: s.utf8Start, count: n)
        p += n
    }

    /// Writes bytes as they are (raw JSON the caller vouches for).
    public mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count)
        guard let base = bytes.baseAddress else { return }
        p.update(from: base, count: bytes.count)
        p += bytes.count
    }

    /// Writes `n` in decimal, as ``JSONWriter/number(_:)-(Int)``; at most 20 bytes.
    ///
    /// Inlined for the numbers below 1000 (most numbers of a layout or an entity), the rest
    /// written by a call.
    @inlinable @inline(__always)
    public mutating func integer(_ n: Int) {
        reserve(20)
        if n >= 0 && n < 1000 {
            let m = UInt(bitPattern: n)
            if m < 10 {
                p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m)
                p += 1
            } else if m < 100 {
                p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m / 10)
                p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
                p += 2
            } else {
                p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m / 100)
                p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m / 10 % 10)
                p[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
                p += 3
            }
            return
        }
        anyInteger(n)
    }

    /// Writes any `n` in decimal, as ``integer(_:)`` does.
    @usableFromInline mutating func anyInteger(_ n: Int) {
        reserve(20)
        var m = n.magnitude
        if n < 0 {
            p.pointee = UInt8(ascii: "-")
            p += 1
        }
        // Most numbers of a layout or an entity are below 1000: no loop for them.
        if m < 10 {
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m)
            p += 1
            return
        }
        if m < 100 {
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m / 10)
            p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
            p += 2
            return
        }
        if m < 1000 {
            p[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m / 100)
            p[1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m / 10 % 10)
            p[2] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
            p += 3
            return
        }
        var digits = 4
        var t = m / 1000
        while t >= 10 {
            t /= 10
            digits += 1
        }
        var q = p + digits
        p = q
        // Two digits at a time from the back, then the one or two left.
        let pairs = UnsafeRawPointer(JSONByteCursor.digitPairs.utf8Start)
        while m >= 100 {
            let r = m % 100
            m /= 100
            q -= 2
            UnsafeMutableRawPointer(q).storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: 2 &* Int(r), as: UInt16.self), as: UInt16.self)
        }
        if m >= 10 {
            UnsafeMutableRawPointer(q - 2).storeBytes(
                of: pairs.loadUnaligned(fromByteOffset: 2 &* Int(m), as: UInt16.self), as: UInt16.self)
        } else {
            q[-1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m)
        }
    }

    /// The two decimal digits of 0 to 99, in order.
    static let digitPairs: StaticString = """
        0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849\
        5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899
        """

    /// Writes `d` as ``JSONWriter/number(_:decimals:)`` writes it; at most 32 bytes for
    /// `decimals` up to 8.
    public mutating func number(_ d: Double, decimals: Int = 4) {
        if decimals <= 6 && d.magnitude < 2_147_483_648 && d == d.rounded(.towardZero) {
            integer(Int(d))
            return
        }
        var out: [UInt8] = []
        JSONWriter.appendNumber(d, decimals: decimals, to: &out)
        out.withUnsafeBufferPointer { raw($0) }
    }

    /// Writes valid UTF-8 `text` quoted and escaped as ``JSONWriter/string(utf8:)`` does;
    /// at most 6 × `text.count` + 2 bytes.
    public mutating func quoted(utf8 text: UnsafeBufferPointer<UInt8>) {
        reserve(text.count + 2)
        p.pointee = UInt8(ascii: "\"")
        p += 1
        escaped(utf8: text)
        literal("\"")
    }

    /// Writes valid UTF-8 `text` escaped as ``quoted(utf8:)`` does, without the quotes; at
    /// most 6 × `text.count` bytes.
    ///
    /// A long string can so be written in pieces, each cut between two scalars: their
    /// concatenation is the escaped whole.
    ///
    /// ```swift
    /// c.literal("\""); c.escaped(utf8: first); c.escaped(utf8: rest); c.literal("\"")
    /// ```
    public mutating func escaped(utf8 text: UnsafeBufferPointer<UInt8>) {
        reserve(text.count)
        let n = text.count
        guard let base = text.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var runStart = 0
        var i = 0
        while i < n {
            // Eight bytes at a time while none of them may need escaping, then straight to
            // the first that may (the lowest byte the mask marks is always a real one).
            if i + 8 <= n {
                let mask = JSONByteCursor.escapeMask(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                if mask == 0 {
                    i += 8
                    continue
                }
                i += mask.trailingZeroBitCount >> 3
            }
            let b = base[i]
            guard JSONWriter.needsLook(b) else {
                i += 1
                continue
            }
            var sequence: (UInt32, Int)?
            if b == 0xC2 || b == 0xE2 {
                sequence = JSONWriter.escapedSequence(text, at: i)
                if sequence == nil {
                    i += 1
                    continue
                }
            }
            copy(base + runStart, i - runStart)
            if let (scalar, length) = sequence {
                unicodeEscape(scalar)
                i += length
            } else {
                switch b {
                case 0x22: twoBytes(0x5C, 0x22)
                case 0x5C: twoBytes(0x5C, 0x5C)
                case 0x0A: twoBytes(0x5C, UInt8(ascii: "n"))
                case 0x0D: twoBytes(0x5C, UInt8(ascii: "r"))
                case 0x09: twoBytes(0x5C, UInt8(ascii: "t"))
                default: unicodeEscape(UInt32(b))
                }
                i += 1
            }
            runStart = i
        }
        copy(base + runStart, n - runStart)
    }

    /// The high bit of each of the eight bytes of `v` that may be a C0 control, `"`, `\`,
    /// DEL, C2 or E2: none is missed, and the lowest one marked is one of them (a borrow
    /// marks only bytes above a real one).
    @inline(__always)
    static func escapeMask(_ v: UInt64) -> UInt64 {
        ByteLanes.below(v, 0x20) | ByteLanes.equal(v, 0x22) | ByteLanes.equal(v, 0x5C) | ByteLanes.equal(v, 0x7F)
            | ByteLanes.equal(v, 0xC2) | ByteLanes.equal(v, 0xE2)
    }

    private mutating func copy(_ from: UnsafePointer<UInt8>, _ count: Int) {
        reserve(count)
        p.update(from: from, count: count)
        p += count
    }

    private mutating func twoBytes(_ a: UInt8, _ b: UInt8) {
        reserve(2)
        p[0] = a
        p[1] = b
        p += 2
    }

    private mutating func unicodeEscape(_ v: UInt32) {
        reserve(6)
        let hex: StaticString = "0123456789abcdef"
        let digits = hex.utf8Start
        p[0] = 0x5C
        p[1] = UInt8(ascii: "u")
        p[2] = digits[Int(v >> 12 & 15)]
        p[3] = digits[Int(v >> 8 & 15)]
        p[4] = digits[Int(v >> 4 & 15)]
        p[5] = digits[Int(v & 15)]
        p += 6
    }
}
