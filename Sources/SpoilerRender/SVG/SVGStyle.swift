public import SpoilerCore

/// How an SVG looks apart from the particles (whose colours come from the preset).
public struct SVGStyle: Sendable, Hashable {
    /// The background, or nil for a transparent one.
    ///
    /// Default `#17212b` (a dark chat bubble, on which the dust's secondary-text grey shows as in
    /// Telegram).
    public var background: RGBColor? = RGBColor(red: 0x17, green: 0x21, blue: 0x2B)
    /// The text colour.
    ///
    /// Default white.
    public var text = RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)
    /// The font family list for `mono` text.
    public var fontFamily = "DejaVu Sans Mono, Menlo, Consolas, monospace"

    /// The defaults.
    public init() {}
}
