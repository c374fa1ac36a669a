/// How particles are drawn inside cells (`--glyphs`).
///
/// Each cell is split into a grid of dots; a particle lights the dot it falls in, and
/// the cell shows the glyph for its lit dots.
public enum GlyphSet: String, Sendable, Hashable, CaseIterable {
    /// Braille patterns (U+2800–U+28FF): 2 × 4 dots a cell. The default.
    case braille
    /// Half blocks: 1 × 2 dots a cell (`▀`, `▄`, `█`).
    case blocks
    /// ASCII: 1 × 2 dots a cell (`'`, `.`, `:`), for terminals and fonts without the others.
    case ascii

    /// Dots across one cell.
    @inlinable public var dotsPerColumn: Int { self == .braille ? 2 : 1 }
    /// Dots down one cell.
    @inlinable public var dotsPerRow: Int { self == .braille ? 4 : 2 }

    /// The bit of the cell's dot mask for the dot at (`dx`, `dy`) inside the cell.
    ///
    /// Braille numbers its dots down the left column (1, 2, 3), down the right (4, 5, 6),
    /// then the bottom row (7, 8); dot n is bit n − 1 of the offset from U+2800.
    @inlinable
    public func bit(dx: Int, dy: Int) -> UInt8 {
        switch self {
        case .braille:
            if dy == 3 { return dx == 0 ? 0x40 : 0x80 }
            return UInt8(1) << UInt8(dx * 3 + dy)
        case .blocks, .ascii:
            return UInt8(1) << UInt8(dy)
        }
    }

    /// The scalar value of the glyph for a non-empty dot mask.
    @inlinable
    public func symbol(mask: UInt8) -> UInt32 {
        switch self {
        case .braille:
            return 0x2800 + UInt32(mask)
        case .blocks:
            switch mask {
            case 1: return 0x2580  // ▀
            case 2: return 0x2584  // ▄
            default: return 0x2588  // █
            }
        case .ascii:
            switch mask {
            case 1: return 0x27  // '
            case 2: return 0x2E  // .
            default: return 0x3A  // :
            }
        }
    }

    /// A still pattern that stands for hidden text, one glyph per cell (for output that
    /// is not animated, such as a frame written to a pipe).
    public var maskSymbol: UInt32 {
        switch self {
        case .braille: return 0x2856  // ⡖-like scatter of dots
        case .blocks: return 0x2591  // ░
        case .ascii: return 0x3A  // :
        }
    }
}
