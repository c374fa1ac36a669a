/// Reads Linux console fonts: PSF1 and PSF2, as documented in the kbd project's
/// `psffontdescription` (and the kernel's `include/linux/kd.h`).
///
/// - PSF1: magic 36 04, a mode byte (bit 0: 512 glyphs instead of 256; bits 1 and 2: a
///   unicode table follows), a glyph height byte; glyphs are 8 pixels wide. The unicode
///   table lists, for each glyph, little-endian 16-bit scalars, then 0xFFFE before each
///   scalar sequence, ending with 0xFFFF.
/// - PSF2: magic 72 b5 4a 86 and a header of little-endian 32-bit fields (version,
///   header size, flags, glyph count, bytes per glyph, height, width); flag bit 0: a
///   unicode table follows, listing for each glyph UTF-8 scalars, then 0xFE before each
///   sequence, ending with 0xFF.
///
/// Without a unicode table, glyph *i* stands for U+*i*. PSF has no baseline: the descent
/// is taken as a quarter of the height (4 of 16 pixels, as in the VGA font), the ascent
/// as the rest. Every glyph advances by the font width; the default glyph is the one for
/// U+FFFD, if any. Errors carry byte offsets (of the decompressed data for `.psf.gz`).
struct PSFParser {
    let data: [UInt8]
    let file: String
    let decompressed: Bool

    func corrupt(_ offset: Int, _ reason: String) -> LayoutError {
        .corruptFont(file: file, at: .byte(offset, decompressed: decompressed), reason: reason)
    }

    func truncated(_ offset: Int, _ reason: String) -> LayoutError {
        .truncatedFont(file: file, at: .byte(offset, decompressed: decompressed), reason: reason)
    }

    func u32(_ at: Int) -> Int {
        Int(data[at]) | Int(data[at + 1]) << 8 | Int(data[at + 2]) << 16 | Int(data[at + 3]) << 24
    }

    func parsePSF1(name: String) throws(LayoutError) -> BitmapFont {
        guard data.count >= 4 else { throw truncated(data.count, "the PSF1 header needs 4 bytes") }
        let mode = data[2]
        let height = Int(data[3])
        guard height > 0 else { throw corrupt(3, "glyph height 0") }
        let count = mode & 0x01 != 0 ? 512 : 256
        let hasTable = mode & 0x06 != 0
        let glyphsEnd = 4 + count * height
        guard data.count >= glyphsEnd else {
            throw truncated(
                data.count, "\(count) glyphs of \(height) bytes need \(glyphsEnd) bytes, the file has \(data.count)")
        }
        var font = makeFont(name: name, width: 8, height: height)
        for g in 0..<count {
            let start = 4 + g * height
            _ = font.addGlyph(
                advance: 8, width: 8, height: height, xOffset: 0, yOffset: -font.descent,
                bitmap: data[start..<start + height])
        }
        if hasTable {
            var at = glyphsEnd
            for g in 0..<count {
                var sequence: [UInt32] = []
                var inSequences = false
                while true {
                    guard at + 1 < data.count else {
                        throw truncated(data.count, "the unicode table ends inside the entry of glyph \(g)")
                    }
                    let v = UInt32(data[at]) | UInt32(data[at + 1]) << 8
                    at += 2
                    if v == 0xFFFF || v == 0xFFFE {
                        if inSequences && !sequence.isEmpty { font.map(sequence: sequence, to: Int32(g)) }
                        sequence = []
                        if v == 0xFFFF { break }
                        inSequences = true
                    } else if inSequences {
                        sequence.append(v)
                    } else {
                        font.map(v, to: Int32(g))
                    }
                }
            }
        } else {
            for g in 0..<count { font.map(UInt32(g), to: Int32(g)) }
        }
        finish(&font)
        return font
    }

    func parsePSF2(name: String) throws(LayoutError) -> BitmapFont {
        guard data.count >= 32 else { throw truncated(data.count, "the PSF2 header needs 32 bytes") }
        let headerSize = u32(8)
        let flags = u32(12)
        let count = u32(16)
        let glyphBytes = u32(20)
        let height = u32(24)
        let width = u32(28)
        guard headerSize >= 32 else { throw corrupt(8, "header size \(headerSize) is below 32") }
        guard width > 0, width <= 256 else { throw corrupt(28, "glyph width \(width) is not in 1...256") }
        guard height > 0, height <= 256 else { throw corrupt(24, "glyph height \(height) is not in 1...256") }
        guard count > 0, count <= 1 << 21 else { throw corrupt(16, "glyph count \(count) is not in 1...2097152") }
        let rowBytes = (width + 7) / 8
        guard glyphBytes == height * rowBytes else {
            throw corrupt(20, "\(glyphBytes) bytes per glyph, but \(width)×\(height) glyphs need \(height * rowBytes)")
        }
        let glyphsEnd = headerSize + count * glyphBytes
        guard data.count >= glyphsEnd else {
            throw truncated(
                data.count,
                "a \(headerSize)-byte header and \(count) glyphs of \(glyphBytes) bytes need \(glyphsEnd) bytes, the file has \(data.count)"
            )
        }
        var font = makeFont(name: name, width: width, height: height)
        for g in 0..<count {
            let start = headerSize + g * glyphBytes
            _ = font.addGlyph(
                advance: width, width: width, height: height, xOffset: 0, yOffset: -font.descent,
                bitmap: data[start..<start + glyphBytes])
        }
        if flags & 1 != 0 {
            var at = glyphsEnd
            for g in 0..<count {
                var sequence: [UInt32] = []
                var inSequences = false
                while true {
                    guard at < data.count else {
                        throw truncated(data.count, "the unicode table ends inside the entry of glyph \(g)")
                    }
                    let b = data[at]
                    if b == 0xFF || b == 0xFE {
                        at += 1
                        if inSequences && !sequence.isEmpty { font.map(sequence: sequence, to: Int32(g)) }
                        sequence = []
                        if b == 0xFF { break }
                        inSequences = true
                        continue
                    }
                    let (value, length) = try decodeUTF8(at)
                    at += length
                    if inSequences { sequence.append(value) } else { font.map(value, to: Int32(g)) }
                }
            }
        } else {
            for g in 0..<count { font.map(UInt32(g), to: Int32(g)) }
        }
        finish(&font)
        return font
    }

    /// Decodes one UTF-8 scalar of the PSF2 unicode table at `at`.
    func decodeUTF8(_ at: Int) throws(LayoutError) -> (UInt32, Int) {
        let b0 = data[at]
        let length: Int
        var value: UInt32
        switch b0 {
        case 0x00...0x7F: return (UInt32(b0), 1)
        case 0xC2...0xDF: length = 2; value = UInt32(b0 & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(b0 & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(b0 & 0x07)
        default: throw corrupt(at, "invalid UTF-8 byte 0x\(String(b0, radix: 16)) in the unicode table")
        }
        guard at + length <= data.count else {
            throw truncated(data.count, "the unicode table ends inside a UTF-8 sequence")
        }
        for k in 1..<length {
            let b = data[at + k]
            guard b & 0xC0 == 0x80 else {
                throw corrupt(at + k, "invalid UTF-8 continuation byte 0x\(String(b, radix: 16)) in the unicode table")
            }
            value = value << 6 | UInt32(b & 0x3F)
        }
        guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value),
            value >= [0, 0, 0x80, 0x800, 0x10000][length]
        else {
            throw corrupt(at, "invalid UTF-8 sequence in the unicode table")
        }
        return (value, length)
    }

    func makeFont(name: String, width: Int, height: Int) -> BitmapFont {
        let descent = height / 4
        return BitmapFont(format: .psf, name: name, ascent: height - descent, descent: descent, defaultAdvance: width)
    }

    func finish(_ font: inout BitmapFont) {
        font.defaultRecord = font.record(for: 0xFFFD)
    }
}
