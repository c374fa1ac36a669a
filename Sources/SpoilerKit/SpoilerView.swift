public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout
public import SpoilerRender

/// A message with its spoilers animated: the layout, the particle scene, and a frame of
/// either as a String at any time, driven by the caller's clock.
///
/// ```swift
/// var view = try SpoilerView(Message(parsing: "the butler ||did it||"))
/// view.advance(to: 0.5)            // seconds on your clock since the view started
/// let svg = view.svg()              // a still SVG picture of this moment
/// view.click(column: 12, row: 0)    // reveals "did it" with a wave from that cell
/// while view.needsFrames { view.advance(to: view.time + 1.0 / 30); draw(view.ansi()) }
/// ```
///
/// The view never reads a clock, a file or the terminal: time moves only by
/// ``advance(to:)`` and ``step(by:)``, so the same calls give the same frames on every run.
/// Coordinates are the layout's pixels (origin top left, y downward) or terminal cells
/// (column and row from 0) of ``TextLayout/metrics``.
public struct SpoilerView: Sendable {
    /// The message shown.
    public let message: Message
    /// The message laid out; word `i` of ``scene`` is `layout.words[i]`.
    public let layout: TextLayout
    /// The bitmap font the layout was made with, nil for terminal cells.
    public let font: BitmapFont?
    /// The particle effect and the reveal state, at ``time``.
    public private(set) var scene: SpoilerScene
    /// Colours and the font family of ``svg()``.
    public var svgStyle = SVGStyle()
    /// The colour capability, glyph set and text style of ``ansi()``.
    ///
    /// Its ``ANSIFrameOptions/formatting`` starts as the message's entities, so that bold,
    /// italic, underline and the rest show.
    public var ansiOptions: ANSIFrameOptions

    /// Lays out `message` and covers each of its hidden words with `preset`'s effect.
    ///
    /// - Parameters:
    ///   - message: The message; its `spoiler` entities are the hidden parts.
    ///   - width: The wrap width in columns (terminal cells) or, with `font`, in pixels;
    ///     nil wraps only at the message's line breaks.
    ///   - font: A bitmap font; nil measures in 8 × 16 px terminal cells.
    ///   - preset: The effect; Telegram's `dust` by default.
    ///   - options: Density, reveal scope, reduced motion and the rest (``SceneOptions``).
    ///   - seed: The seed of the effect's random numbers: the same seed, the same frames.
    public init(
        _ message: Message, width: Int? = nil, font: BitmapFont? = nil, preset: Preset = .dust,
        options: SceneOptions = SceneOptions(), seed: UInt64 = 1
    ) {
        self.message = message
        self.font = font
        layout = message.layout(width: width, font: font)
        scene = SpoilerScene(layout: layout, preset: preset, options: options, seed: seed)
        ansiOptions = ANSIFrameOptions(capability: .trueColor, glyphs: .braille)
        ansiOptions.formatting = message.entities
    }

    // MARK: Time

    /// The view's time in seconds since it started (it starts at 0).
    public var time: Double { scene.time }

    /// Moves the effect to `seconds` on the caller's clock (seconds since the view started).
    ///
    /// Time never goes back: a time before ``time`` does nothing. The simulation runs in
    /// fixed steps (``SceneOptions/tickRate``), so any frame rate gives the same motion.
    ///
    /// - Parameter seconds: The caller's time, in seconds from the view's start.
    /// - Complexity: O(particles × steps).
    public mutating func advance(to seconds: Double) {
        scene.advance(to: seconds)
    }

    /// Moves the effect on by `seconds` (a frame's duration on the caller's clock).
    ///
    /// - Parameter seconds: How long since the last call; ignored unless positive.
    public mutating func step(by seconds: Double) {
        scene.step(by: seconds)
    }

    /// Whether the picture still changes: dust moves on a hidden word, a reveal or hide wave
    /// runs, or pushed particles still fade. When false, the last frame stays right until
    /// the next click: a host can stop asking for frames.
    ///
    /// Under reduced motion hidden words wear a still pattern, so only nothing at all needs frames.
    public var needsFrames: Bool {
        let still = scene.options.reducedMotion
        for w in scene.words.indices {
            let hidden = scene.isHidden(word: w)
            if hidden && !still { return true }  // dust moves
            guard let state = scene.reveals[w] else { continue }
            if state.start > scene.time { return true }  // a reveal is scheduled
            if !hidden && (state.hideStart != nil || !scene.isFullyRevealed(word: w)) { return true }  // a wave runs
        }
        return !still && scene.particles.count > 0
    }

    // MARK: Clicks

    /// Reveals the word under a click at `point`, in the layout's pixels, with a wave from
    /// the point (and what ``SceneOptions/revealScope`` adds), at the current time.
    ///
    /// - Parameter point: Where the click landed, in pixels from the layout's top-left corner.
    /// - Returns: Whether a hidden word was there.
    @discardableResult
    public mutating func click(_ point: SpoilerPoint) -> Bool {
        guard let word = scene.word(at: point), scene.isHidden(word: word) else { return false }
        scene.reveal(word: word, origin: point)
        return true
    }

    /// Reveals the word under a click at pixel (`pixelX`, `pixelY`) of the layout.
    ///
    /// - Parameters:
    ///   - pixelX: Pixels from the layout's left edge.
    ///   - pixelY: Pixels from the layout's top edge, downward.
    /// - Returns: Whether a hidden word was there.
    @discardableResult
    public mutating func click(pixelX: Double, pixelY: Double) -> Bool {
        click(SpoilerPoint(x: pixelX, y: pixelY))
    }

    /// Reveals the word under a click on terminal cell (`column`, `row`) of the layout, with
    /// the wave starting at the cell's centre.
    ///
    /// - Parameters:
    ///   - column: The cell's column from 0 (cells of ``LayoutMetrics/cellWidth`` pixels).
    ///   - row: The cell's row from 0 (lines of ``LayoutMetrics/lineHeight`` pixels).
    /// - Returns: Whether a hidden word was there.
    @discardableResult
    public mutating func click(column: Int, row: Int) -> Bool {
        let m = layout.metrics
        return click(
            SpoilerPoint(
                x: (Double(column) + 0.5) * Double(m.cellWidth), y: (Double(row) + 0.5) * Double(m.lineHeight)))
    }

    /// Reveals every hidden word at once, with one wave from the first word's centre.
    public mutating func revealAll() {
        scene.revealAll()
    }

    /// Hides every revealed word again; the dust comes back over 0.4 s.
    public mutating func hideAll() {
        scene.hideAll()
    }

    // MARK: Frames

    /// The view at ``time`` as one still SVG picture.
    ///
    /// Hidden words have no text in the SVG source at all; a word being revealed is drawn
    /// under a mask that follows the wave. See ``SVGRenderer``.
    ///
    /// - Returns: A complete SVG document.
    public func svg() -> String {
        var out: [UInt8] = []
        SVGRenderer.renderStill(scene: scene, layout: layout, font: font, style: svgStyle, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The view at ``time`` as lines of terminal text: the message, each hidden word covered
    /// by dust in ``ansiOptions``'s glyphs, colours and attributes as SGR sequences.
    ///
    /// The frame moves no cursor and clears nothing: each row ends with a newline (and `CSI 0 m`
    /// when it has colours), trailing blanks and blank rows at the end are left out, and with
    /// ``ColorCapability/none`` there is no escape sequence at all. Control characters of the
    /// message are shown as visible symbols. A terminal program that draws into its own
    /// screen buffer wants cells instead: see ``ANSIFrameBuilder`` and ``CellCanvas``.
    ///
    /// - Returns: The frame's text.
    public func ansi() -> String {
        var builder = ANSIFrameBuilder(layout: layout, options: ansiOptions)
        var canvas = CellCanvas(width: builder.columns, height: builder.rows)
        builder.draw(scene, into: &canvas)
        var out: [UInt8] = []
        StillFrameWriter.write(canvas, capability: ansiOptions.capability, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
