import SpoilerLayout

/// The layout options shared by `layout`, `render` and `play`: `--font mono|PATH`,
/// `--width N`, `--cell WxH` (see ``OptionTable``).
///
/// A command lists `font`, `width` and `cell` in its `CommandSpec` and calls
/// ``engine(from:)`` to get a ready ``LayoutEngine``.
enum LayoutOptions {
    /// The layout engine the options ask for.
    ///
    /// A font file is read here, at the edge.
    ///
    /// - Throws: a usage error for a malformed `--width` or `--cell`; a failure naming the
    ///   file for a font that cannot be read or parsed.
    static func engine(from args: Arguments) throws(CommandLineError) -> LayoutEngine {
        let wrapWidth = args.integer("width")
        var cellWidth = 8
        var cellHeight = 16
        if let cell = args.text("cell") {
            let parts = cell.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...1024).contains(w),
                (1...1024).contains(h)
            else {
                throw .usage(
                    "'--cell' needs WIDTHxHEIGHT in pixels, each from 1 to 1024 (like 8x16), got '\(cell)'",
                    command: args.commandName)
            }
            cellWidth = w
            cellHeight = h
        }
        let fontArgument = args.text("font")!
        if fontArgument == "mono" {
            return LayoutEngine(model: .mono(cellWidth: cellWidth, cellHeight: cellHeight), wrapWidth: wrapWidth)
        }
        if args.given("cell") {
            throw .usage(
                "'--cell' applies to --font mono only; a bitmap font sets its own sizes", command: args.commandName)
        }
        let font = try loadFont(path: fontArgument)
        return LayoutEngine(model: .font(font), wrapWidth: wrapWidth)
    }

    /// Reads and parses the font file at `path`.
    static func loadFont(path: String) throws(CommandLineError) -> BitmapFont {
        let bytes = try InputSource(path: path, what: "font").readAll()
        do {
            return try BitmapFont.parse(bytes, file: path)
        } catch {
            throw .failure(error.description)
        }
    }
}
