/// Control sequences from xterm's "ctlseqs" (XTerm Control Sequences) and the small
/// byte writers the encoders share.
public enum ANSI {
    /// `CSI ? 2026 h`: begin synchronized output (DEC private mode 2026).
    public static let beginSynchronized: [UInt8] = Array("\u{1B}[?2026h".utf8)
    /// `CSI ? 2026 l`: end synchronized output.
    public static let endSynchronized: [UInt8] = Array("\u{1B}[?2026l".utf8)
    /// `CSI H CSI 2 J`: cursor home, erase the whole screen.
    public static let clearScreen: [UInt8] = Array("\u{1B}[H\u{1B}[2J".utf8)
    /// `CSI 0 m`: all attributes and colours to their defaults.
    public static let resetPen: [UInt8] = Array("\u{1B}[0m".utf8)
    static let fgRGB: [UInt8] = Array("38;2;".utf8)
    static let bgRGB: [UInt8] = Array("48;2;".utf8)
    static let fg256: [UInt8] = Array("38;5;".utf8)
    static let bg256: [UInt8] = Array("48;5;".utf8)

    /// Decimal digits of a non-negative `n`.
    @inline(__always)
    static func digits(_ n: Int) -> Int {
        var n = n
        var d = 1
        while n >= 10 {
            n /= 10
            d += 1
        }
        return d
    }

    /// Appends a non-negative integer in decimal, without allocating.
    @inline(__always)
    public static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
        if n < 10 {
            out.append(UInt8(48 + n))
            return
        }
        if n < 100 {
            out.append(UInt8(48 + n / 10))
            out.append(UInt8(48 + n % 10))
            return
        }
        var divisor = 100
        while divisor * 10 <= n { divisor *= 10 }
        var n = n
        while divisor > 0 {
            out.append(UInt8(48 + n / divisor))
            n %= divisor
            divisor /= 10
        }
    }

    /// Appends `CSI n F` (`CSI F` when n is 1).
    static func appendCSI(count: Int, final: UInt8, to out: inout [UInt8]) {
        out.append(0x1B)
        out.append(UInt8(ascii: "["))
        if count != 1 { appendDecimal(count, to: &out) }
        out.append(final)
    }

    /// The length of the CUP sequence ``appendCUP(column:row:to:)`` writes.
    static func cupLength(column: Int, row: Int) -> Int {
        if column == 0 { return row == 0 ? 3 : 3 + digits(row + 1) }
        return 4 + digits(row + 1) + digits(column + 1)
    }

    /// Appends CUP (`CSI row ; column H`, 1-based), in its shortest form.
    public static func appendCUP(column: Int, row: Int, to out: inout [UInt8]) {
        out.append(0x1B)
        out.append(UInt8(ascii: "["))
        if column == 0 {
            if row != 0 { appendDecimal(row + 1, to: &out) }
        } else {
            appendDecimal(row + 1, to: &out)
            out.append(UInt8(ascii: ";"))
            appendDecimal(column + 1, to: &out)
        }
        out.append(UInt8(ascii: "H"))
    }

    /// Appends the UTF-8 of a scalar value (U+FFFD if it is not one).
    @inline(__always)
    public static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80:
            out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | v >> 6))
            out.append(UInt8(0x80 | v & 0x3F))
        case 0x800..<0x10000:
            if v >= 0xD800 && v < 0xE000 {
                appendUTF8(0xFFFD, to: &out)
                return
            }
            out.append(UInt8(0xE0 | v >> 12))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        case 0x10000...0x10FFFF:
            out.append(UInt8(0xF0 | v >> 18))
            out.append(UInt8(0x80 | v >> 12 & 0x3F))
            out.append(UInt8(0x80 | v >> 6 & 0x3F))
            out.append(UInt8(0x80 | v & 0x3F))
        default:
            appendUTF8(0xFFFD, to: &out)
        }
    }
}
