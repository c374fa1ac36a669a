/// What may reach a terminal from message text: nothing that a terminal would act on.
///
/// C0 controls (U+0000–U+001F, ESC among them), DEL, C1 controls (U+0080–U+009F, which
/// 8-bit terminals read as CSI, OSC, DCS…) and the bidirectional formatting characters
/// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069, which reorder what a reader
/// sees) are replaced by visible symbols: the Control Pictures block for C0 and DEL
/// (U+2400–U+2421: `␛` for ESC, `␇` for BEL), U+FFFD for the others. The layout gives
/// renderers such stand-ins already (`PlacedGrapheme.display`); the canvas applies this
/// again to every scalar it stores, so text can never write a control byte.
public enum TerminalSafety {
    /// Whether `value` is a scalar a terminal would interpret rather than show.
    @inlinable
    public static func isUnsafe(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `value` if safe, else its visible stand-in.
    @inlinable
    public static func visible(_ value: UInt32) -> UInt32 {
        guard isUnsafe(value) else { return value }
        switch value {
        case 0x00...0x1F: return 0x2400 + value
        case 0x7F: return 0x2421
        default: return 0xFFFD
        }
    }

    /// `text` with every unsafe scalar replaced by its stand-in.
    public static func visibleText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0.value) }) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            out.append(Unicode.Scalar(visible(s.value)) ?? "\u{FFFD}")
        }
        return String(out)
    }
}
