public import SpoilerCore

/// The colour of a cell's text or background, already reduced to a ``ColorCapability``:
/// the terminal's default, an index into its palette, or a 24-bit colour.
///
/// Packed in 32 bits (the tag in the top byte) so that cells compare quickly.
public struct CellColor: Sendable, Hashable {
    /// Bits 24–31: 0 default, 1 indexed (bits 0–7), 2 RGB (bits 0–23).
    public var raw: UInt32

    /// A colour from its packed form, as described on ``raw`` (the tag is not checked).
    @inlinable public init(raw: UInt32) { self.raw = raw }

    /// The terminal's default colour (`CSI 39 m` / `CSI 49 m`).
    public static let `default` = CellColor(raw: 0)

    /// Palette entry `index` (0–15 the ANSI colours, 16–255 the xterm cube and grey ramp).
    @inlinable public static func indexed(_ index: UInt8) -> CellColor {
        CellColor(raw: 1 << 24 | UInt32(index))
    }

    /// A 24-bit colour.
    @inlinable public static func rgb(_ c: RGBColor) -> CellColor {
        CellColor(raw: 2 << 24 | UInt32(c.red) << 16 | UInt32(c.green) << 8 | UInt32(c.blue))
    }

    /// Whether this is the terminal's default colour.
    @inlinable public var isDefault: Bool { raw >> 24 == 0 }
}

/// Text attributes of a cell (SGR 1, 2, 3, 4, 7, 9).
public struct CellAttributes: OptionSet, Sendable, Hashable {
    public var rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bold or bright text (SGR 1).
    public static let bold = CellAttributes(rawValue: 1 << 0)
    /// Faint text (SGR 2).
    public static let dim = CellAttributes(rawValue: 1 << 1)
    /// Italic text (SGR 3).
    public static let italic = CellAttributes(rawValue: 1 << 2)
    /// Underlined text (SGR 4).
    public static let underline = CellAttributes(rawValue: 1 << 3)
    /// Foreground and background swapped (SGR 7).
    public static let reverse = CellAttributes(rawValue: 1 << 4)
    /// Struck-through text (SGR 9).
    public static let strikethrough = CellAttributes(rawValue: 1 << 5)

    /// The SGR parameter that turns each attribute on, in bit order.
    static let sgrCodes: [UInt8] = [1, 2, 3, 4, 7, 9]
}

/// The colours and attributes a cell is drawn with.
public struct CellStyle: Sendable, Hashable {
    /// The colour of the text.
    public var foreground: CellColor
    /// The colour behind the text.
    public var background: CellColor
    /// Bold, dim, italic, underline, reverse and strikethrough.
    public var attributes: CellAttributes

    /// A style; by default the terminal's own colours and no attributes (``plain``).
    @inlinable
    public init(foreground: CellColor = .default, background: CellColor = .default, attributes: CellAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// Default colours, no attributes.
    public static let plain = CellStyle()
}
