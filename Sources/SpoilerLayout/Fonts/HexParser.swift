/// Reads GNU Unifont `.hex` fonts.
///
/// One glyph a line, `XXXX:DIGITS`: the code point in hexadecimal, then the bitmap as hexadecimal digits, 16 rows top to bottom. 32 digits
/// make an 8-pixel-wide glyph, 64 a 16-pixel one (96 and 128, Unifont's 24- and 32-pixel
/// extensions, are read too). Every glyph advances by its width.
///
/// Metrics are Unifont's: 16 pixels high, ascent 14, descent 2, default advance 8; the
/// default glyph is U+FFFD's. Empty lines and lines starting with `#` are skipped. Errors
/// carry 1-based line numbers.
///
/// - Complexity: one pass over the bytes with no per-line allocation.
struct HexParser {
    let data: [UInt8]
    let file: String
    let decompressed: Bool

    func corrupt(_ line: Int, _ reason: String) -> LayoutError {
        .corruptFont(file: file, at: .line(line, decompressed: decompressed), reason: reason)
    }

    /// Whether the first line that is not empty looks like `XXXX:` with hexadecimal digits.
    static func looksLikeHex(_ data: [UInt8]) -> Bool {
        var i = 0
        while i < data.count && (data[i] == 0x0A || data[i] == 0x0D) { i += 1 }
        var digits = 0
        while i < data.count, hexValue(data[i]) != nil {
            digits += 1
            i += 1
        }
        return digits >= 1 && digits <= 8 && i < data.count && data[i] == UInt8(ascii: ":")
    }

    func parse(name: String) throws(LayoutError) -> BitmapFont {
        var font = BitmapFont(format: .hex, name: name, ascent: 14, descent: 2, defaultAdvance: 8)
        font.records.reserveCapacity(data.count / 40)
        font.bitmapData.reserveCapacity(data.count / 2)
        font.scalarIndex.reserveCapacity(data.count / 40)
        let n = data.count
        var i = 0
        var lineNumber = 0
        try data.withUnsafeBufferPointer { (p: UnsafeBufferPointer<UInt8>) throws(LayoutError) in
            while i < n {
                lineNumber += 1
                let lineStart = i
                var end = i
                while end < n && p[end] != 0x0A { end += 1 }
                var lineEnd = end
                if lineEnd > i && p[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                i = end + 1
                if lineEnd == lineStart || p[lineStart] == UInt8(ascii: "#") { continue }
                var k = lineStart
                var code: UInt32 = 0
                while k < lineEnd, let v = hexValue(p[k]), k - lineStart < 8 {
                    code = code << 4 | UInt32(v)
                    k += 1
                }
                guard k > lineStart, k < lineEnd, p[k] == UInt8(ascii: ":") else {
                    throw corrupt(lineNumber, "expected 'XXXX:' and hexadecimal digits")
                }
                guard code <= 0x10FFFF else {
                    throw corrupt(lineNumber, "code point \(String(code, radix: 16, uppercase: true)) is past U+10FFFF")
                }
                k += 1
                let digits = lineEnd - k
                guard digits == 32 || digits == 64 || digits == 96 || digits == 128 else {
                    throw corrupt(
                        lineNumber, "\(digits) bitmap digits; expected 32, 64, 96 or 128 (16 rows of 8 to 32 pixels)")
                }
                let width = digits / 4
                let offset = font.bitmapData.count
                while k < lineEnd {
                    guard let hi = hexValue(p[k]), let lo = hexValue(p[k + 1]) else {
                        font.bitmapData.removeSubrange(offset...)
                        throw corrupt(
                            lineNumber,
                            "bitmap digit '\(Character(Unicode.Scalar(p[hexValue(p[k]) == nil ? k : k + 1])))' is not hexadecimal"
                        )
                    }
                    font.bitmapData.append(hi << 4 | lo)
                    k += 2
                }
                let index = Int32(font.records.count)
                font.records.append(
                    GlyphRecord(
                        bitmapOffset: UInt32(offset), advance: Int16(width), width: Int16(width), height: 16,
                        xOffset: 0, yOffset: -2))
                font.map(code, to: index)
            }
        }
        font.defaultRecord = font.record(for: 0xFFFD)
        return font
    }
}
