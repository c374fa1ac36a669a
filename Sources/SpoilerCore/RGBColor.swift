/// An sRGB colour with 8-bit channels.
public struct RGBColor: Sendable, Hashable {
    /// The red channel, 0 (none) to 255 (full).
    public var red: UInt8
    /// The green channel, 0 (none) to 255 (full).
    public var green: UInt8
    /// The blue channel, 0 (none) to 255 (full).
    public var blue: UInt8

    /// A colour from its three 8-bit channels, each 0 to 255.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#rrggbb` or `#rgb` (the `#` optional); nil if malformed.
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        if s.count == 3 { s = Substring(s.map { "\($0)\($0)" }.joined()) }
        guard s.count == 6, let v = UInt32(s, radix: 16) else { return nil }
        self.init(red: UInt8(v >> 16 & 0xFF), green: UInt8(v >> 8 & 0xFF), blue: UInt8(v & 0xFF))
    }

    /// `#rrggbb`, lower case.
    public var hexString: String {
        let digits: [Character] = Array("0123456789abcdef")
        var s = "#"
        for c in [red, green, blue] {
            s.append(digits[Int(c >> 4)])
            s.append(digits[Int(c & 15)])
        }
        return s
    }
}
