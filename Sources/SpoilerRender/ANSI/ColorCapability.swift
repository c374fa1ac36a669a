public import SpoilerCore

/// How many colours the terminal shows, decided at the command-line edge from `--color`,
/// `NO_COLOR`, `COLORTERM`, `TERM` and whether the output is a terminal, and passed in.
///
/// Colours are reduced to the capability when a cell is drawn (``quantise(_:)``), so
/// that two colours a terminal would show alike compare equal in the frame diff.
public enum ColorCapability: String, Sendable, Hashable, CaseIterable {
    /// 24-bit colour: `CSI 38;2;r;g;b m`.
    case trueColor = "24bit"
    /// The xterm 256-colour palette: `CSI 38;5;n m`.
    case palette256 = "256"
    /// The 16 ANSI colours: `CSI 30–37 m` and `CSI 90–97 m`.
    case palette16 = "16"
    /// No colour at all (`NO_COLOR`): attributes such as reverse video only.
    case none

    /// `color` as this capability shows it.
    @inlinable
    public func quantise(_ color: RGBColor) -> CellColor {
        switch self {
        case .trueColor: return .rgb(color)
        case .palette256: return .indexed(Palette.nearest256(color))
        case .palette16: return .indexed(Palette.nearest16(color))
        case .none: return .default
        }
    }
}

/// The xterm palettes, for reducing 24-bit colours.
public enum Palette {
    /// The six levels of each channel of the xterm 6×6×6 colour cube (indices 16–231).
    public static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's default values of the 16 ANSI colours.
    public static let ansi16: [RGBColor] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
        (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
        (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ].map { RGBColor(red: UInt8($0.0), green: UInt8($0.1), blue: UInt8($0.2)) }

    /// The nearest entry of the 256-colour palette's cube or grey ramp (16–255).
    public static func nearest256(_ c: RGBColor) -> UInt8 {
        func level(_ v: UInt8) -> Int {
            let v = Int(v)
            if v < 48 { return 0 }
            if v < 115 { return 1 }
            return (v - 35) / 40
        }
        let (r, g, b) = (level(c.red), level(c.green), level(c.blue))
        let cube = RGBColor(red: UInt8(cubeLevels[r]), green: UInt8(cubeLevels[g]), blue: UInt8(cubeLevels[b]))
        let average = (Int(c.red) + Int(c.green) + Int(c.blue)) / 3
        let greyIndex = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyValue = UInt8(8 + 10 * greyIndex)
        let grey = RGBColor(red: greyValue, green: greyValue, blue: greyValue)
        if distance(c, grey) < distance(c, cube) { return UInt8(232 + greyIndex) }
        return UInt8(16 + 36 * r + 6 * g + b)
    }

    /// The nearest of the 16 ANSI colours (by xterm's default values).
    public static func nearest16(_ c: RGBColor) -> UInt8 {
        var best = 0
        var bestDistance = Int.max
        for (i, p) in ansi16.enumerated() {
            let d = distance(c, p)
            if d < bestDistance {
                best = i
                bestDistance = d
            }
        }
        return UInt8(best)
    }

    /// Squared distance, with the channels weighted roughly by how the eye sees them.
    static func distance(_ a: RGBColor, _ b: RGBColor) -> Int {
        let dr = Int(a.red) - Int(b.red)
        let dg = Int(a.green) - Int(b.green)
        let db = Int(a.blue) - Int(b.blue)
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }
}
