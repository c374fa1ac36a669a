public import SpoilerRender

/// How the full-screen reader (`spoiler read`) looks and behaves, on top of the player.
///
/// With ``PlayerOptions/reader`` set, the player keeps the bottom row for the progress
/// bar (``ReaderBar``), draws the text between margins on the theme's background, and
/// takes reading keys: ↑ ↓ `j` `k` a row, space PgDn and `b` PgUp a page, Home and End
/// (and `G`), the wheel three rows, `g` or a click on "↑" back to the top with an
/// ease-in-out movement (``ScrollAnimation``). Tab and Enter reveal in turn and a click
/// reveals the word under it, as in the player.
public struct ReaderOptions: Sendable {
    /// The colours.
    public var theme: ReaderTheme = .green
    /// Blank columns left and right of the text on a screen at least 40 columns wide
    /// (one below that, none below 12).
    public var margin = 2
    /// Seconds without input after which the bar shrinks to the wheel (DESIGN.md §6: 3 s).
    public var idleSeconds = 3.0
    /// Seconds the movement back to the top takes (DESIGN.md §6: about 1.5 s).
    public var scrollToTopSeconds = ScrollAnimation.defaultDuration

    /// The reader's options with `theme`'s colours (``ReaderTheme/green`` if not given) and the
    /// defaults of every other property.
    public init(theme: ReaderTheme = .green) { self.theme = theme }

    /// The blank columns on each side of the text on a screen `columns` wide.
    public func margin(columns: Int) -> Int {
        if columns >= 40 { return max(0, margin) }
        if columns >= 12 { return min(1, max(0, margin)) }
        return 0
    }

    /// The width to wrap the text to on a screen `columns` wide: the columns inside the
    /// margins, at least 1.
    public func textWidth(columns: Int) -> Int {
        max(1, columns - 2 * margin(columns: columns))
    }
}
