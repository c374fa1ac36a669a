/// The one policy for characters that must never reach a terminal raw, shared by the
/// layout (``PlacedGrapheme/display``) and the terminal renderer (`TerminalSafety` in
/// SpoilerRender, which applies it again to every scalar a cell holds): each such character
/// is drawn as a visible stand-in (DESIGN.md §9, terminal safety).
///
/// The unsafe characters are exactly the Unicode controls (general category Cc) and the
/// bidirectional controls (the Bidi_Control property), which a terminal or a reader's eye
/// would act on rather than show:
/// - C0 controls U+0000–U+001F are shown as their Control Pictures U+2400–U+241F (ESC is
///   "␛", BEL "␇"); the layout treats LF, CR and the tab as line breaks and spacing first.
/// - DEL U+007F is shown as U+2421 "␡".
/// - C1 controls U+0080–U+009F (which 8-bit terminals read as CSI, OSC, DCS…; NEL U+0085 is
///   a line break to the layout), and the bidirectional controls — the Arabic letter mark
///   U+061C, the left-to-right and right-to-left marks U+200E and U+200F, the embeddings
///   and overrides U+202A–U+202E and the isolates U+2066–U+2069 (the "Trojan Source"
///   characters, which reorder what a terminal shows) — have no Control Picture and are
///   shown as U+FFFD "�".
///
/// Other invisible format characters (ZWSP, ZWNJ, ZWJ, WJ, BOM and the other zero-width Cf
/// characters) are safe: the layout draws them as nothing, or as part of their cluster.
/// Each stand-in takes one cell in the `mono` model.
public enum ControlPictures {
    /// The scalar drawn in place of the unsafe character `value`, or nil if `value` is
    /// safe (drawn as itself).
    @inlinable
    public static func picture(for value: UInt32) -> Unicode.Scalar? {
        let stand = standIn(for: value)
        return stand == value ? nil : Unicode.Scalar(stand)
    }

    /// Whether `value` is unsafe: a control or a bidirectional control.
    @inlinable
    public static func isUnsafe(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `value` if it is safe, else its visible stand-in.
    @inlinable
    public static func standIn(for value: UInt32) -> UInt32 {
        guard isUnsafe(value) else { return value }
        switch value {
        case 0x00...0x1F: return 0x2400 + value
        case 0x7F: return 0x2421
        default: return 0xFFFD
        }
    }
}
