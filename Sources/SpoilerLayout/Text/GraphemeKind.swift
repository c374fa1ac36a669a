/// How the line breaker and the word finder treat one grapheme cluster.
enum GraphemeKind: UInt8, Sendable {
    /// A visible grapheme that joins its neighbours into one unbreakable run.
    case other
    /// A wide grapheme (CJK ideograph, kana, Hangul syllable, emoji): a line may break
    /// before and after it (UAX #14 class ID).
    case wide
    /// Breakable whitespace (U+0020, U+1680, U+2000–U+200A, U+205F, U+3000).
    case space
    /// Whitespace that separates words but never breaks a line (U+00A0, U+2007, U+202F).
    case glue
    /// A horizontal tab: advances to the next tab stop.
    case tab
    /// A line break: LF, CR, CR LF, NEL (U+0085), U+2028, U+2029.
    case newline
    /// A control character shown as a visible stand-in (see ``ControlPictures``).
    case control
    /// An invisible format character (ZWSP, LRM, RLM, BOM, WJ, …): zero width, drawn as "".
    case format

    /// Whether the grapheme separates words (DESIGN.md §3: words are maximal runs of
    /// non-whitespace graphemes).
    var isWhitespace: Bool {
        switch self {
        case .space, .glue, .tab, .newline: return true
        default: return false
        }
    }
}
