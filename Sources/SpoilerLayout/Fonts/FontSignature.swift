/// Recognises font and archive formats that are not read, from their magic bytes, so that
/// a user who passes one is told what it is rather than "not a font".
///
/// Only the formats themselves are named; nothing is parsed. The signatures are those the
/// formats' specifications put at offset 0: PCF (`\1fcp`, X11's `pcfread.c`), TrueType
/// (`00 01 00 00` or `true`), OpenType with CFF outlines (`OTTO`), TrueType collections
/// (`ttcf`), WOFF (`wOFF`) and WOFF2 (`wOF2`), PostScript Type 1 (`%!PS-AdobeFont`,
/// `%!FontType1`, or PFB's `80 01` segment marker), Windows `.fon`/`.fnt` (an `MZ`
/// executable), and the compressions that are not gzip (bzip2 `BZh`, xz `FD 37 7A 58 5A
/// 00`, zstd `28 B5 2F FD`, zip `PK 03 04`).
enum FontSignature {
    /// The known signatures, each with the name a message gives it.
    static let known: [(magic: [UInt8], name: String)] = [
        ([0x01, 0x66, 0x63, 0x70], "PCF (X11 compiled bitmap font; convert it to BDF with pcf2bdf)"),
        ([0x00, 0x01, 0x00, 0x00], "TrueType"),
        (Array("true".utf8), "TrueType"),
        (Array("OTTO".utf8), "OpenType"),
        (Array("ttcf".utf8), "TrueType/OpenType collection"),
        (Array("wOFF".utf8), "WOFF"),
        (Array("wOF2".utf8), "WOFF2"),
        (Array("%!PS-AdobeFont".utf8), "PostScript Type 1"),
        (Array("%!FontType1".utf8), "PostScript Type 1"),
        ([0x80, 0x01], "PostScript Type 1 (PFB)"),
        (Array("MZ".utf8), "Windows FON/FNT"),
        (Array("BZh".utf8), "bzip2-compressed data (decompress it first)"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz-compressed data (decompress it first)"),
        ([0x28, 0xB5, 0x2F, 0xFD], "zstd-compressed data (decompress it first)"),
        ([0x50, 0x4B, 0x03, 0x04], "a zip archive (extract the font first)"),
    ]

    /// The name of the unsupported format `data` starts with, or nil.
    static func unsupportedFormat(of data: [UInt8]) -> String? {
        known.first { data.starts(with: $0.magic) }?.name
    }
}
