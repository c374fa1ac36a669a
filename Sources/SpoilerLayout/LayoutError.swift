/// Why a font could not be loaded.
///
/// The module's one error type.
///
/// Every case names the file and where in it the problem is: a byte offset for binary
/// formats (PSF, gzip), a 1-based line for line-based ones (BDF, `.hex`).
public enum LayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file ends before the structure it started is complete.
    case truncatedFont(file: String, at: FontPosition, reason: String)
    /// The file holds something its format does not allow.
    case corruptFont(file: String, at: FontPosition, reason: String)
    /// The bytes are none of the supported formats (BDF 2.1, PSF1, PSF2, Unifont `.hex`,
    /// each plain or gzip-compressed).
    case unknownFontFormat(file: String)
    /// The bytes are a font in a format that is not read (a scalable or compiled font):
    /// `format` names it, as recognised from its magic bytes (PCF, TrueType, OpenType,
    /// WOFF, WOFF2, PostScript Type 1, Windows FON, or a compression other than gzip).
    case unsupportedFontFormat(file: String, format: String)

    /// The file the error is about.
    public var file: String {
        switch self {
        case .truncatedFont(let f, _, _), .corruptFont(let f, _, _), .unknownFontFormat(let f),
            .unsupportedFontFormat(let f, _):
            return f
        }
    }

    /// The formats that are read, as the messages name them.
    public static let supportedFormats = "BDF 2.1, PSF1, PSF2 or GNU Unifont .hex (plain or gzip-compressed)"

    /// The message in compiler form, `path:position: reason`, with no `error:` of its own
    /// (the program that prints it adds that once): `font.bdf:12: truncated font: …`,
    /// `font.psf:byte 40: corrupt font: …`, `DejaVuSans.ttf: unsupported font format: …`.
    public var description: String {
        switch self {
        case .truncatedFont(let file, let at, let reason):
            return "\(file):\(at): truncated font: \(reason)"
        case .corruptFont(let file, let at, let reason):
            return "\(file):\(at): corrupt font: \(reason)"
        case .unknownFontFormat(let file):
            return "\(file): not a font: expected \(LayoutError.supportedFormats)"
        case .unsupportedFontFormat(let file, let format):
            return "\(file): unsupported font format: \(format); the formats read are \(LayoutError.supportedFormats)"
        }
    }
}

/// Where in a font file: a byte offset or a line.
public enum FontPosition: Sendable, Hashable, CustomStringConvertible {
    /// A 0-based byte offset in the file (in the decompressed data when `decompressed`).
    case byte(Int, decompressed: Bool)
    /// A 1-based line number (in the decompressed data when `decompressed`).
    case line(Int, decompressed: Bool)

    /// `byte 40` or the bare line number `7` (so that `file:7:` reads as compilers write
    /// it), with " (after gunzip)" for decompressed data.
    public var description: String {
        switch self {
        case .byte(let b, let d): return "byte \(b)" + (d ? " (after gunzip)" : "")
        case .line(let l, let d): return "\(l)" + (d ? " (after gunzip)" : "")
        }
    }
}
