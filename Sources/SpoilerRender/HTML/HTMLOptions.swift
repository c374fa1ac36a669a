public import SpoilerCore
public import SpoilerEffect

/// How ``HTMLRenderer`` writes a page: the effect's options and the look.
public struct HTMLOptions: Sendable, Hashable {
    /// The particle look the page's runtime follows (its Core Animation fields).
    ///
    /// Default ``Preset/dust``.
    public var preset: Preset = .dust
    /// The seed of the page's particle generator; the same seed gives the same dust.
    ///
    /// Default 1.
    public var seed: UInt64 = 1
    /// Particles per grapheme per second, as ``SceneOptions/density``.
    ///
    /// Default 20.
    public var density: Double = 20
    /// What one click or key press on a hidden part uncovers, as in every other format:
    /// ``RevealScope/spoiler`` (every word of the clicked spoiler), ``RevealScope/word``
    /// (the word under the pointer; Enter or Space uncovers the spoiler's next hidden
    /// word) or ``RevealScope/message`` (every hidden word at once).
    ///
    /// Default ``RevealScope/spoiler``.
    public var revealScope: RevealScope = .spoiler
    /// Seconds after a reveal at which the words hide again (the circle shrinking back
    /// over 0.4 s), or nil to stay revealed.
    public var rehideAfter: Double?
    /// Whether the page always shows the still dot pattern (it does anyway when the
    /// browser asks for `prefers-reduced-motion: reduce`).
    ///
    /// Default false.
    public var reducedMotion = false
    /// The confetti that falls over the whole window when the last hidden word of the
    /// message is revealed (``Preset/confetti``: from a line along the window's top edge,
    /// for 1.5 s of births and each piece's lifetime, then gone), or nil for none. Never
    /// with reduced motion (``reducedMotion`` or the browser's setting).
    ///
    /// Default nil.
    public var celebration: Preset?
    /// Whether hidden text is left out of the file altogether: a preview whose spoilers
    /// cannot be revealed.
    ///
    /// Default false.
    public var redact = false
    /// Whether to write a fragment (a `<style>`, the message element and its `<script>`)
    /// to paste into another page, instead of a whole document.
    ///
    /// Default false.
    public var embed = false
    /// The page's background, or nil to leave it to the embedding page.
    ///
    /// Default `#17212b` (a dark chat bubble, as ``SVGStyle/background``).
    public var background: RGBColor? = RGBColor(red: 0x17, green: 0x21, blue: 0x2B)
    /// The text colour.
    ///
    /// Default white.
    public var text = RGBColor(red: 0xFF, green: 0xFF, blue: 0xFF)

    /// The defaults.
    public init() {}
}
