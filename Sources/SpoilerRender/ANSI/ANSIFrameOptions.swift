public import SpoilerCore

/// How an ANSI frame looks: colours, particle glyphs and styles.
public struct ANSIFrameOptions: Sendable, Hashable {
    /// The colours the terminal shows.
    public var capability: ColorCapability
    /// How particles are drawn inside cells.
    public var glyphs: GlyphSet
    /// Brightness levels particles are rounded to (fewer levels: fewer changed cells).
    public var brightnessLevels: Int
    /// The style of message text.
    public var textStyle: CellStyle
    /// The background of the focused hidden word (Tab), before reduction.
    public var focusBackground: RGBColor
    /// Whether hidden cells without a particle get the glyph set's still mask symbol, so
    /// a still frame shows where hidden words are; otherwise (live frames) each gets a
    /// faint ember that moves (``DotRaster/addEmber(cell:color:)``), so no cell of a
    /// hidden word is ever blank, whatever the density.
    public var fillHiddenCells: Bool
    /// Draw one particle in this many, chosen by a hash of its serial number, but never
    /// leave a cell with particles in it empty (``DotRaster/plotParticles(of:thinning:)``);
    /// nil: about ``ANSIFrameBuilder/particlesPerCell`` particles a cell.
    public var particleThinning: Int?
    /// The message's entities, whose formatting the shown text takes on: `bold` (SGR 1),
    /// `italic` (3), `underline` and links (`url`, `text_link`, `email`; 4) and
    /// `strikethrough` (9). Other types change nothing here. Hidden text is never drawn,
    /// formatted or not. Default none.
    public var formatting: [Entity] = []

    /// - Parameters:
    ///   - capability: the terminal's colours.
    ///   - glyphs: braille (default), half blocks or ASCII.
    public init(
        capability: ColorCapability, glyphs: GlyphSet = .braille, brightnessLevels: Int = 3,
        textStyle: CellStyle = .plain, focusBackground: RGBColor = RGBColor(red: 0x3A, green: 0x3A, blue: 0x44),
        fillHiddenCells: Bool = false
    ) {
        self.capability = capability
        self.glyphs = glyphs
        self.brightnessLevels = max(1, min(brightnessLevels, 255))
        self.textStyle = textStyle
        self.focusBackground = focusBackground
        self.fillHiddenCells = fillHiddenCells
    }
}
