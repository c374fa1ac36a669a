import SpoilerCore

extension MonoGeometryStream {
    /// Writes word `f`'s object through `o` as ``writeWord(_:scale:lineHeight:text:comma:smallCoordinates:to:)``
    /// writes it with `smallCoordinates`, into room the caller checked for that bound,
    /// with fewer branches: numbers below 1,000 (nearly all of them) as four bytes from
    /// ``SmallDecimals``, and a text of up to 16 bytes that needs no escape as one or two
    /// eight-byte words. What it writes is the same; tests compare the two.
    ///
    /// `readable` is how many bytes of the message may be read from the text's start on.
    @inline(__always)
    static func writeWordQuickly(
        _ f: Fragment, scale: Int, lineHeight: Int, text: UnsafeBufferPointer<UInt8>?, readable: Int, comma: Bool,
        digits: UnsafePointer<UInt32>, to o: inout RawJSON
    ) {
        let units = Int(f.right &- f.firstX)
        // The comma stored always and kept only after a word (no branch on whether the
        // word is the message's first): the object's brace goes over it otherwise.
        o.p[0] = UInt8(ascii: ",")
        o.p += comma ? 1 : 0
        o.literal(#"{"entity":"#)
        o.decimal(f.entity, digits: digits)
        o.literal(#","word":"#)
        o.decimal(f.word, digits: digits)
        o.literal(#","line":"#)
        o.decimal(Int(f.line), digits: digits)
        o.literal(#","x":"#)
        o.decimal(Int(f.firstX) &* scale, digits: digits)
        o.literal(#","y":"#)
        o.decimal(Int(f.line) &* lineHeight, digits: digits)
        o.literal(#","width":"#)
        o.decimal(units &* scale, digits: digits)
        o.literal(#","height":"#)
        o.decimal(lineHeight, digits: digits)
        o.literal(#","column":"#)
        o.decimal(Int(f.firstX), digits: digits)
        o.literal(#","columns":"#)
        o.decimal(units, digits: digits)
        o.literal(#","offset":"#)
        o.decimal(Int(f.utf16Start), digits: digits)
        o.literal(#","length":"#)
        o.decimal(Int(f.utf16End &- f.utf16Start), digits: digits)
        o.literal(#","graphemes":"#)
        o.decimal(f.graphemes, digits: digits)
        if let text {
            o.literal(#","text":"#)
            o.quotedWord(text, readable: readable)
        }
        o.literal("}")
    }
}

/// The decimal digits of the numbers below 1,000, for writers that store them four bytes
/// at a time: no branch on how many digits a number has.
enum SmallDecimals {
    /// For each `n` below 1,000, its digits in the low bytes of a little-endian `UInt32`
    /// (the first digit lowest) and their count in the high byte. Made once per process
    /// and never freed; written only by its initialiser, so it is safe to share (hence
    /// `nonisolated(unsafe)`: a pointer is not `Sendable`).
    nonisolated(unsafe) static let table: UnsafePointer<UInt32> = {
        let t = UnsafeMutablePointer<UInt32>.allocate(capacity: 1000)
        for n in 0..<1000 {
            let (hundreds, tens, ones) = (UInt32(n / 100), UInt32(n / 10 % 10), UInt32(n % 10))
            let zero = UInt32(UInt8(ascii: "0"))
            switch n {
            case 0..<10: t[n] = 1 << 24 | (zero + ones)
            case 10..<100: t[n] = 2 << 24 | (zero + ones) << 8 | (zero + tens)
            default: t[n] = 3 << 24 | (zero + ones) << 16 | (zero + tens) << 8 | (zero + hundreds)
            }
        }
        return UnsafePointer(t)
    }()
}

extension RawJSON {
    /// Writes `n` in decimal, as ``RawJSON/integer(_:)`` does: below 1,000 by storing the
    /// four bytes of its entry in `digits` (``SmallDecimals/table``) and moving past its
    /// digits only; the byte or two after them are written over by whatever comes next.
    /// Needs four bytes of room below 1,000, twenty above.
    @inline(__always)
    mutating func decimal(_ n: Int, digits: UnsafePointer<UInt32>) {
        // Hinted, so that the common case runs straight through, the rare one out of line.
        if _fastPath(UInt(bitPattern: n) < 1000) {
            let entry = digits[n]
            UnsafeMutableRawPointer(p).storeBytes(of: entry.littleEndian, as: UInt32.self)
            p += Int(entry &>> 24)
        } else {
            p = RawJSON.writeDecimal(n, at: p)
        }
    }

    /// Writes `n` in decimal at `p`, as ``RawJSON/integer(_:)`` does, and returns where the
    /// next byte goes: out of line and with no `inout`, so that a writer calling it keeps
    /// its pointer in a register.
    @inline(never)
    static func writeDecimal(_ n: Int, at p: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        var o = RawJSON(p: p)
        o.integer(n)
        return o.p
    }

    /// Writes the valid UTF-8 `text` quoted and escaped as ``RawJSON/quoted(utf8:)`` does.
    /// A text of up to 16 bytes, of which `readable` may be read from its start on (at
    /// least its own count), is read as one or two eight-byte words and, when none of its
    /// bytes may need an escape, stored as they are (eight or sixteen bytes, of which those
    /// past the text are written over next); any other goes through `quoted(utf8:)`.
    @inline(__always)
    mutating func quotedWord(_ text: UnsafeBufferPointer<UInt8>, readable: Int) {
        let n = text.count
        if let base = text.baseAddress, n > 0, n <= 16, readable >= 16 {
            let raw = UnsafeRawPointer(base)
            let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
            let second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            // The bits of the text's bytes in either word, worked out with no branch on the
            // word's length (which varies from word to word and would be guessed wrong).
            let length = UInt64(truncatingIfNeeded: n)
            let firstBits = min(length, 8) &* 8
            let secondBits = length &* 8 &- firstBits
            let firstLanes = ByteLanes.highs & UInt64.max &>> (64 &- firstBits)
            let secondLanes = secondBits == 0 ? 0 : ByteLanes.highs & UInt64.max &>> (64 &- secondBits)
            // A borrow marks only bytes above a real match: the text's own bytes are exact.
            if RawJSON.mayNeedEscape(first) & firstLanes | RawJSON.mayNeedEscape(second) & secondLanes == 0 {
                p[0] = UInt8(ascii: "\"")
                UnsafeMutableRawPointer(p + 1).storeBytes(of: first.littleEndian, as: UInt64.self)
                UnsafeMutableRawPointer(p + 9).storeBytes(of: second.littleEndian, as: UInt64.self)
                p[1 &+ n] = UInt8(ascii: "\"")
                p += n &+ 2
                return
            }
        }
        quoted(utf8: text)
    }

    /// The bytes of `v` that may need an escape in a JSON string (controls, `"`, `\`, DEL,
    /// and the lead bytes of C1 controls and of U+2028 and U+2029), as
    /// ``RawJSON/quoted(utf8:)`` marks them.
    @inline(__always)
    static func mayNeedEscape(_ v: UInt64) -> UInt64 {
        ByteLanes.below(v, 0x20) | ByteLanes.equal(v, 0x22) | ByteLanes.equal(v, 0x5C) | ByteLanes.equal(v, 0x7F)
            | ByteLanes.equal(v, 0xC2) | ByteLanes.equal(v, 0xE2)
    }
}
