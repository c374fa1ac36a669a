/// The xterm private modes the player turns on, and the sequences that turn them off
/// again (XTerm Control Sequences, "DECSET").
public enum TerminalModes {
    /// `CSI ? 1049 h`: save the cursor and switch to the alternate screen, cleared.
    public static let enterAlternateScreen: [UInt8] = Array("\u{1B}[?1049h".utf8)
    /// `CSI ? 1049 l`: back to the primary screen and the saved cursor.
    public static let leaveAlternateScreen: [UInt8] = Array("\u{1B}[?1049l".utf8)
    /// `CSI ? 25 l` / `CSI ? 25 h`: hide / show the cursor.
    public static let hideCursor: [UInt8] = Array("\u{1B}[?25l".utf8)
    /// `CSI ? 25 h`: show the cursor again (undoes ``hideCursor``).
    public static let showCursor: [UInt8] = Array("\u{1B}[?25h".utf8)
    /// `CSI ? 1000 h` (report button presses and releases) with `CSI ? 1006 h` (in the SGR
    /// form `CSI < b ; x ; y M`, which has no 223-column limit and cannot produce bytes
    /// that are not UTF-8).
    public static let enableMouse: [UInt8] = Array("\u{1B}[?1000h\u{1B}[?1006h".utf8)
    /// `CSI ? 1006 l` with `CSI ? 1000 l`: stop mouse reports (undoes ``enableMouse``).
    public static let disableMouse: [UInt8] = Array("\u{1B}[?1006l\u{1B}[?1000l".utf8)
    /// `CSI ? 1004 h` / `l`: report focus in and out (`CSI I`, `CSI O`).
    public static let enableFocusEvents: [UInt8] = Array("\u{1B}[?1004h".utf8)
    /// `CSI ? 1004 l`: stop focus reports (undoes ``enableFocusEvents``).
    public static let disableFocusEvents: [UInt8] = Array("\u{1B}[?1004l".utf8)
    /// `CSI 0 m`: default colours and attributes.
    public static let resetAttributes: [UInt8] = Array("\u{1B}[0m".utf8)
}
