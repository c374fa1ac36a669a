public import SpoilerLayout

/// What may reach a terminal from message text: nothing that a terminal would act on.
///
/// The policy is SpoilerLayout's ``ControlPictures`` (one table for the layout and the
/// terminal): controls and bidirectional controls are replaced by visible symbols, the
/// Control Pictures block for C0 and DEL (`␛` for ESC, `␇` for BEL), U+FFFD for the
/// others. The layout gives renderers such stand-ins already (`PlacedGrapheme.display`);
/// the canvas applies this again to every scalar it stores, so text can never write a
/// control byte.
public enum TerminalSafety {
    /// Whether `value` is a scalar a terminal would interpret rather than show.
    @inlinable
    public static func isUnsafe(_ value: UInt32) -> Bool {
        ControlPictures.isUnsafe(value)
    }

    /// `value` if safe, else its visible stand-in.
    @inlinable
    public static func visible(_ value: UInt32) -> UInt32 {
        ControlPictures.standIn(for: value)
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
