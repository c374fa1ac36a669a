import SpoilerLayout

/// The layout options shared by `layout`, `render` and `play`: `--font mono|PATH`,
/// `--width N`, `--cell WxH` (SPEC §3, §7).
///
/// A command adds ``optionNames`` to its `Arguments.Spec`, ``help`` to its help text, and
/// calls ``engine(from:)`` to get a ready ``LayoutEngine``:
///
/// ```swift
/// static let spec = Arguments.Spec(command: "render", options: LayoutOptions.optionNames.union(["seed"]), flags: [])
/// let engine = try LayoutOptions.engine(from: args)
/// ```
enum LayoutOptions {
    /// The options that take a value.
    static let optionNames: Set<String> = ["font", "width", "cell"]

    /// The lines to put under `options:` in a command's help.
    static let help = """
          --font F    metrics: mono (default, a terminal cell grid) or the path of a bitmap
                      font: BDF 2.1 (.bdf), PSF1/PSF2 (.psf, .psf.gz), GNU Unifont (.hex, .hex.gz)
          --width N   wrap lines at N columns (mono) or N pixels (fonts); default: no wrapping
          --cell WxH  pixels per cell for mono (default 8x16)
        """

    /// The layout engine the options ask for.
    ///
    /// A font file is read here, at the edge.
    ///
    /// - Throws: a usage error for a malformed `--width` or `--cell`; a failure naming the
    ///   file for a font that cannot be read or parsed.
    static func engine(from args: Arguments) throws(CommandLineError) -> LayoutEngine {
        let wrapWidth = try args.integer("width", in: 1...1_000_000)
        var cellWidth = 8
        var cellHeight = 16
        if let cell = args["cell"] {
            let parts = cell.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...1024).contains(w),
                (1...1024).contains(h)
            else {
                throw .usage(
                    "'--cell' needs WIDTHxHEIGHT in pixels, each from 1 to 1024 (like 8x16), got '\(cell)'",
                    command: args.command)
            }
            cellWidth = w
            cellHeight = h
        }
        let fontArgument = args["font"] ?? "mono"
        if fontArgument == "mono" {
            return LayoutEngine(model: .mono(cellWidth: cellWidth, cellHeight: cellHeight), wrapWidth: wrapWidth)
        }
        if args["cell"] != nil {
            throw .usage(
                "'--cell' applies to --font mono only; a bitmap font sets its own sizes", command: args.command)
        }
        let font = try loadFont(path: fontArgument)
        return LayoutEngine(model: .font(font), wrapWidth: wrapWidth)
    }

    /// Reads and parses the font file at `path`.
    static func loadFont(path: String) throws(CommandLineError) -> BitmapFont {
        let bytes: [UInt8]
        do {
            bytes = try InputSource(path: path).readAll()
        } catch {
            throw .failure("font \(error.description)")
        }
        do {
            return try BitmapFont.parse(bytes, file: path)
        } catch {
            throw .failure(error.description)
        }
    }
}
