/// How particles are drawn inside cells (`--glyphs`).
///
/// Each cell is split into a grid of dots; a particle lights the dot it falls in. A
/// braille cell shows the pattern of its lit dots. Half blocks and ASCII have too few
/// dots for a pattern to move (two dots saturate at once), so their cells show a
/// brightness ramp instead: the glyph follows how much light the particles in the cell
/// give (``symbol(mask:light:)``), which rises and falls as particles fade in, fade out
/// and cross cells, so the dust twinkles there too.
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

    /// Whether a cell's glyph follows the light of its particles (half blocks, ASCII)
    /// rather than the pattern of its dots (braille).
    @inlinable public var usesBrightnessRamp: Bool { self != .braille }

    /// The glyphs of the brightness ramp, faintest first (empty for braille): `░▒▓█` for
    /// half blocks, `.:-=+*#` for ASCII.
    public var ramp: [UInt32] {
        switch self {
        case .braille: return []
        case .blocks: return GlyphSet.blocksRamp
        case .ascii: return GlyphSet.asciiRamp
        }
    }

    @usableFromInline static let blocksRamp: [UInt32] = [0x2591, 0x2592, 0x2593, 0x2588]  // ░ ▒ ▓ █
    @usableFromInline static let asciiRamp: [UInt32] = [0x2E, 0x3A, 0x2D, 0x3D, 0x2B, 0x2A, 0x23]  // . : - = + * #

    /// The light of particles that moves the ramp one glyph up, in particles at full
    /// opacity (0 for braille).
    ///
    /// The frame builder leaves about five particles a cell
    /// (``ANSIFrameBuilder/particlesPerCell``), of mean opacity about 0.6, so a typical
    /// cell has a light of about 3: the middle of the ramp, with room to rise and fall.
    /// The steps are narrow, so that a particle or two fading in or out moves the glyph:
    /// the ASCII ramp has seven glyphs and steps of 0.75, the half-block ramp four and
    /// steps of 1.5.
    @inlinable public var rampStep: Double {
        switch self {
        case .braille: return 0
        case .blocks: return 1.5
        case .ascii: return 0.75
        }
    }

    /// The scalar value of the glyph for a cell with the non-empty dot mask `mask` and
    /// particle light `light` (the sum of its particles' opacities, 1 = one particle at
    /// full opacity).
    ///
    /// Braille shows the mask; half blocks and ASCII show the ramp glyph for the light
    /// (``ramp``, one step per ``rampStep``), whatever the mask.
    @inlinable
    public func symbol(mask: UInt8, light: Double) -> UInt32 {
        guard usesBrightnessRamp else { return symbol(mask: mask) }
        let glyphs = ramp
        let step = light.isFinite ? Int(max(light, 0) / rampStep) : 0
        return glyphs[min(step, glyphs.count - 1)]
    }

    /// The scalar value of the glyph for a cell with the non-empty dot mask `mask`,
    /// particle light `light` and twinkle phase `phase` (a whole number that goes up by
    /// one every ``DotRaster/twinkleSeconds``, ``DotRaster/twinklePhase(cell:)``).
    ///
    /// Braille shows the mask, as ``symbol(mask:light:)``. The ramps pair their glyphs
    /// (`░▒` `▓█`; `.:` `-=` `+*`): the light picks the pair (two ``rampStep``s a pair, the
    /// brightest pair for anything brighter) and the phase's parity the glyph in it. A
    /// cell's light alone can hold still while its particles drift, and a light that
    /// rises as the phase turns could cancel a plain offset; with the parity in the
    /// glyph's own place, the glyph changes at every new phase whatever the particles
    /// do, and the particles still set how bright the cell shimmers.
    @inlinable
    public func symbol(mask: UInt8, light: Double, phase: Int) -> UInt32 {
        guard usesBrightnessRamp else { return symbol(mask: mask) }
        let glyphs = ramp
        let pairs = glyphs.count / 2
        let steps = light.isFinite ? max(light, 0) / rampStep : 0
        let pair = Int(min(steps / 2, Double(pairs - 1)))
        return glyphs[2 * pair + (phase & 1)]
    }

    /// The scalar value of the glyph for a non-empty dot mask (the pattern of the dots,
    /// without a brightness ramp).
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
