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

    /// The file the error is about.
    public var file: String {
        switch self {
        case .truncatedFont(let f, _, _), .corruptFont(let f, _, _), .unknownFontFormat(let f): return f
        }
    }

    /// The message in compiler form: `font.bdf:12: error: truncated font: …`.
    public var description: String {
        switch self {
        case .truncatedFont(let file, let at, let reason):
            return "\(file):\(at): error: truncated font: \(reason)"
        case .corruptFont(let file, let at, let reason):
            return "\(file):\(at): error: corrupt font: \(reason)"
        case .unknownFontFormat(let file):
            return
                "\(file): error: not a font: expected BDF 2.1, PSF1, PSF2 or GNU Unifont .hex (plain or gzip-compressed)"
        }
    }
}

/// Where in a font file: a byte offset or a line.
public enum FontPosition: Sendable, Hashable, CustomStringConvertible {
    /// A 0-based byte offset in the file (in the decompressed data when `decompressed`).
    case byte(Int, decompressed: Bool)
    /// A 1-based line number (in the decompressed data when `decompressed`).
    case line(Int, decompressed: Bool)

    /// `byte 40`, `line 7`, with "(after gunzip)" for decompressed data.
    public var description: String {
        switch self {
        case .byte(let b, let d): return "byte \(b)" + (d ? " (after gunzip)" : "")
        case .line(let l, let d): return "line \(l)" + (d ? " (after gunzip)" : "")
        }
    }
}
