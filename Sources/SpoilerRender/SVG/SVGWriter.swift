import SpoilerCore

/// Appends SVG source to a byte buffer: literal text, numbers in a fixed format (at most
/// `decimals` digits after the point, trailing zeros dropped, as ``JSONWriter`` writes
/// them), and escaped text, so that the same picture gives the same bytes every time.
///
/// With a ``PieceSink`` the buffer is passed on each time it fills a piece, so that a
/// document of any size takes a bounded buffer.
struct SVGWriter {
    var bytes: [UInt8]
    /// Where full buffers go (nil: everything stays in `bytes`).
    var sink: PieceSink?

    init(into bytes: [UInt8], sink: PieceSink? = nil) {
        self.bytes = bytes
        self.sink = sink
    }

    /// Passes the buffer on when it fills a piece.
    @inline(__always)
    mutating func spill() { sink?.spill(&bytes) }

    /// Passes on whatever the buffer holds (at the end of a document).
    mutating func finish() { sink?.pass(&bytes) }

    /// Appends literal ASCII/UTF-8 markup (never user text: see ``text(_:)``).
    mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
        spill()
    }

    /// Appends a string that the renderer built itself (numbers, ids, colours).
    mutating func raw(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        spill()
    }

    /// Appends a number with at most `decimals` decimals.
    mutating func number(_ d: Double, _ decimals: Int = 2) {
        JSONWriter.appendNumber(d, decimals: decimals, to: &bytes)
        spill()
    }

    mutating func number(_ d: Float, _ decimals: Int = 2) { number(Double(d), decimals) }

    mutating func number(_ n: Int) {
        bytes.append(contentsOf: String(n).utf8)
        spill()
    }

    /// Appends `#rrggbb`.
    mutating func color(_ rgb: UInt32) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(UInt8(ascii: "#"))
        for shift in stride(from: 20, through: 0, by: -4) { bytes.append(hex[Int(rgb >> UInt32(shift) & 15)]) }
        spill()
    }

    mutating func color(_ c: RGBColor) {
        color(UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue))
    }

    /// Appends user text escaped for XML character data and attribute values: `& < > " '`
    /// become entities, and characters XML 1.0 cannot carry at all (C0 controls other
    /// than tab and newline, U+FFFE, U+FFFF) become U+FFFD.
    mutating func text(_ s: some StringProtocol) {
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x26: raw("&amp;")
            case 0x3C: raw("&lt;")
            case 0x3E: raw("&gt;")
            case 0x22: raw("&quot;")
            case 0x27: raw("&#39;")
            case 0x09, 0x0A:
                bytes.append(UInt8(scalar.value))
                spill()
            case 0x00..<0x20, 0x7F...0x9F, 0xFFFE, 0xFFFF: raw("\u{FFFD}")
            default:
                bytes.append(contentsOf: String(scalar).utf8)
                spill()
            }
        }
    }
}
