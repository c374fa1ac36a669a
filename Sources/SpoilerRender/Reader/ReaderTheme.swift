public import SpoilerCore

/// The colours of the full-screen reader (`spoiler read --theme`): text on a background,
/// a dimmer colour for the progress bar's track, an accent for its fill, and a tint for
/// the spoiler dust.
///
/// Colours are 24-bit and reduced to the terminal's ``ColorCapability`` when drawn, so
/// with no colour (`NO_COLOR`, `--color never`) every theme draws in the terminal's own
/// colours and the bar stays readable by its glyphs alone.
public struct ReaderTheme: Sendable, Hashable {
    /// The name `--theme` takes.
    public var name: String
    /// Message text; nil: the terminal's default foreground.
    public var text: RGBColor?
    /// The screen's background; nil: the terminal's default background.
    public var background: RGBColor?
    /// The bar's fill, the percentage and the "↑" button.
    public var accent: RGBColor?
    /// The bar's track and the wheel's unlit ring.
    public var dim: RGBColor?
    /// The background of the bottom bar's row.
    public var barBackground: RGBColor?
    /// The colour of the dust over hidden words; nil: the preset's own.
    public var dust: RGBColor?

    /// A theme named `name`; each colour left nil is the terminal's own (for `dust`, the
    /// preset's), as described on its property.
    public init(
        name: String, text: RGBColor? = nil, background: RGBColor? = nil, accent: RGBColor? = nil,
        dim: RGBColor? = nil, barBackground: RGBColor? = nil, dust: RGBColor? = nil
    ) {
        self.name = name
        self.text = text
        self.background = background
        self.accent = accent
        self.dim = dim
        self.barBackground = barBackground
        self.dust = dust
    }

    /// Phosphor green on near-black, the film terminal look (the default).
    public static let green = ReaderTheme(
        name: "green", text: RGBColor(red: 0x4A, green: 0xF6, blue: 0x26),
        background: RGBColor(red: 0x05, green: 0x0A, blue: 0x06), accent: RGBColor(red: 0x9D, green: 0xFF, blue: 0x8A),
        dim: RGBColor(red: 0x1E, green: 0x5C, blue: 0x1A), barBackground: RGBColor(red: 0x0C, green: 0x1A, blue: 0x0E),
        dust: RGBColor(red: 0x7C, green: 0xC8, blue: 0x6A))

    /// Amber on near-black, like an old plasma display.
    public static let amber = ReaderTheme(
        name: "amber", text: RGBColor(red: 0xFF, green: 0xB0, blue: 0x00),
        background: RGBColor(red: 0x0C, green: 0x08, blue: 0x02), accent: RGBColor(red: 0xFF, green: 0xD2, blue: 0x66),
        dim: RGBColor(red: 0x6B, green: 0x47, blue: 0x00), barBackground: RGBColor(red: 0x1C, green: 0x13, blue: 0x04),
        dust: RGBColor(red: 0xD8, green: 0x9A, blue: 0x2C))

    /// The terminal's own colours, nothing set.
    public static let mono = ReaderTheme(name: "mono")

    /// The themes by name; `none` is another name for `mono`.
    public static let builtIn: [String: ReaderTheme] = ["green": .green, "amber": .amber, "mono": .mono, "none": .mono]
    /// The names of ``builtIn``, sorted, for help and errors.
    public static let builtInNames: [String] = ["amber", "green", "mono", "none"]

    /// The style of message text on `capability`.
    public func textStyle(_ capability: ColorCapability) -> CellStyle {
        CellStyle(foreground: color(text, capability), background: color(background, capability))
    }

    /// The style of an empty cell of the screen.
    public func backgroundStyle(_ capability: ColorCapability) -> CellStyle {
        CellStyle(background: color(background, capability))
    }

    /// `c` on `capability`, the default colour for nil.
    func color(_ c: RGBColor?, _ capability: ColorCapability) -> CellColor {
        c.map { capability.quantise($0) } ?? .default
    }
}
