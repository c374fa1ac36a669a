extension BitmapFont {
    /// Parses a bitmap font from the bytes of a file, detecting the format from its content:
    /// gzip (decompressed first), PSF1 (magic 36 04), PSF2 (magic 72 b5 4a 86), BDF 2.1
    /// (`STARTFONT`), else GNU Unifont `.hex` (lines `XXXX:hexdigits`). A PCF, TrueType,
    /// OpenType, WOFF, Type 1 or Windows font, recognised by its magic bytes, is
    /// ``LayoutError/unsupportedFontFormat(file:format:)``; other bytes are
    /// ``LayoutError/unknownFontFormat(file:)``.
    ///
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - file: the file's path, used in errors; its last component names PSF and `.hex`
    ///     fonts (BDF fonts are named by their `FONT` line).
    /// - Throws: ``LayoutError`` naming `file`, the position and the reason.
    /// - Complexity: O(n) in the size of the (decompressed) file.
    public static func parse(_ bytes: [UInt8], file: String) throws(LayoutError) -> BitmapFont {
        var data = bytes
        var decompressed = false
        if Gzip.isGzip(bytes) {
            data = try Gzip.decompress(bytes, file: file)
            decompressed = true
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        var font: BitmapFont
        if data.starts(with: [0x36, 0x04]) {
            font = try PSFParser(data: data, file: file, decompressed: decompressed).parsePSF1(name: name)
        } else if data.starts(with: [0x72, 0xB5, 0x4A, 0x86]) {
            font = try PSFParser(data: data, file: file, decompressed: decompressed).parsePSF2(name: name)
        } else if data.starts(with: Array("STARTFONT".utf8)) {
            font = try BDFParser(data: data, file: file, decompressed: decompressed).parse()
        } else if HexParser.looksLikeHex(data) {
            font = try HexParser(data: data, file: file, decompressed: decompressed).parse(name: name)
        } else if let format = FontSignature.unsupportedFormat(of: data) {
            throw .unsupportedFontFormat(file: file, format: decompressed ? "\(format), gzip-compressed" : format)
        } else {
            throw .unknownFontFormat(file: file)
        }
        font.finishLoading()
        return font
    }
}
