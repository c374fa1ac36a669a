/// The visible stand-ins that renderers draw for control characters, so that no control
/// character from message text ever reaches a terminal raw (SPEC §9, terminal safety).
///
/// - C0 controls U+0000–U+001F (other than the line breaks LF and CR and the tab) are shown
///   as their Control Pictures U+2400–U+241F (ESC is "␛", BEL "␇").
/// - DEL U+007F is shown as U+2421 "␡".
/// - C1 controls U+0080–U+009F (other than NEL U+0085, a line break) and the bidirectional
///   embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069 (the "Trojan
///   Source" characters, which could reorder what a terminal shows) have no Control Picture
///   and are shown as U+FFFD "�".
/// - The invisible format characters (ZWSP, ZWNJ, LRM, RLM, ALM, WJ, BOM and the other
///   zero-width Cf characters) are drawn as nothing: their ``PlacedGrapheme/display`` is "".
///
/// Each stand-in takes one cell in the `mono` model.
public enum ControlPictures {
    /// The scalar drawn in place of the control character `value`, or nil if `value` is
    /// not one of the controls listed above.
    public static func picture(for value: UInt32) -> Unicode.Scalar? {
        switch value {
        case 0x00...0x1F: return Unicode.Scalar(0x2400 + value)
        case 0x7F: return "\u{2421}"
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return "\u{FFFD}"
        default: return nil
        }
    }
}
