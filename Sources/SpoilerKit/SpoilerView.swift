public import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout
public import SpoilerRender
import SpoilerTerminal

/// A message with its spoilers animated, as a String at a time: an SVG picture or terminal
/// text, driven by the caller's clock.
///
/// ```swift
/// var view = try SpoilerView(Message(parsing: "the butler ||did it||"))
/// view.advance(to: 0.5)            // seconds on your clock since the view started
/// let svg = view.svg()              // a still SVG picture of this moment
/// view.click(column: 12, row: 0)    // reveals "did it" with a wave from that cell
/// while view.needsFrames { view.advance(to: view.time + 1.0 / 30); print(view.ansi()) }
/// ```
///
/// The view wraps a ``SpoilerTerminalView`` the size of the whole message, so it
/// behaves as `spoiler play` does: a click reveals the hidden word under it, or the nearest on
/// its row within a cell, and what ``SceneOptions/revealScope`` adds (by default
/// every word of the spoiler). A terminal program with its own screen buffer, that wants cells
/// or diff bytes for a rectangle of its screen, uses ``SpoilerTerminalView`` itself.
///
/// The view never reads a clock, a file or the terminal: time moves only by
/// ``advance(to:)`` and ``step(by:)``, so the same calls give the same frames on every run.
///
/// By default the message is laid out in terminal cells of 8 × 16 pixels. Made with a
/// bitmap font (``init(_:font:width:glyphs:capability:preset:options:seed:)``), it is laid
/// out in the font's pixels: ``layout``, ``scene``, ``svg()`` and
/// ``click(pixelX:pixelY:)`` are in those pixels, while ``ansi()`` and
/// ``click(column:row:)`` stay in terminal cells, with the same words revealed.
///
/// A view is a `Sendable` value: make it on one task, step and draw it on another.
public struct SpoilerView: Sendable {
    /// The message shown.
    public let message: Message
    /// Colours and the font family of ``svg()``.
    public var svgStyle = SVGStyle()
    /// The colour capability of ``ansi()``: ``ColorCapability/none`` gives
    /// text without escape sequences.
    public var capability: ColorCapability
    private var terminalView: SpoilerTerminalView
    /// With a bitmap font: the layout in the font's pixels and the scene over it.
    private var pixels: PixelSurface?
    /// The view's time in seconds since it started (it starts at 0).
    public private(set) var time: Double = 0

    /// Lays out `message` and covers each of its hidden words with `preset`'s effect.
    ///
    /// - Parameters:
    ///   - message: The message; its `spoiler` entities are the hidden parts.
    ///   - width: The wrap width in columns; nil wraps only at the message's line breaks.
    ///   - glyphs: The characters the dust is drawn with in ``ansi()``; braille by default.
    ///   - capability: The colours of ``ansi()``; 24-bit by default.
    ///   - preset: The effect; Telegram's `dust` by default.
    ///   - options: Density, reveal scope, reduced motion and the rest (``SceneOptions``).
    ///   - seed: The seed of the effect's random numbers: the same seed, the same frames.
    public init(
        _ message: Message, width: Int? = nil, glyphs: GlyphSet = .braille, capability: ColorCapability = .trueColor,
        preset: Preset = .dust, options: SceneOptions = SceneOptions(), seed: UInt64 = 1
    ) {
        self.message = message
        self.capability = capability
        pixels = nil
        let natural = message.layout(width: width)
        let size = TerminalSize(columns: max(1, width ?? natural.columns ?? 1), rows: max(1, natural.rows ?? 1))
        terminalView = SpoilerTerminalView(
            message: message, size: size, frame: ANSIFrameOptions(capability: capability, glyphs: glyphs),
            preset: preset, sceneOptions: options, seed: seed)
        terminalView.step(to: 0)  // the view's clock starts at 0
    }

    /// Lays out `message` in `font`'s pixels and covers each of its hidden words with
    /// `preset`'s effect.
    ///
    /// ```swift
    /// let font = try BitmapFont.parse(bytes, file: "ter-u16n.psf.gz")
    /// var view = try SpoilerView(Message(parsing: "the butler ||did it||"), font: font, width: 320)
    /// view.click(pixelX: 100, pixelY: 8)   // in the font's pixels, as svg() draws it
    /// ```
    ///
    /// ``ansi()`` still draws terminal cells: the message wrapped at as many columns as
    /// the font's default advance fits in `width`.
    ///
    /// - Parameters:
    ///   - message: The message; its `spoiler` entities are the hidden parts.
    ///   - font: The bitmap font (``BitmapFont/parse(_:file:)`` reads BDF, PSF and Unifont `.hex`).
    ///   - width: The wrap width in pixels; nil wraps only at the message's line breaks.
    ///   - glyphs: The characters the dust is drawn with in ``ansi()``; braille by default.
    ///   - capability: The colours of ``ansi()``; 24-bit by default.
    ///   - preset: The effect; Telegram's `dust` by default.
    ///   - options: Density, reveal scope, reduced motion and the rest (``SceneOptions``).
    ///   - seed: The seed of the effect's random numbers: the same seed, the same frames.
    public init(
        _ message: Message, font: BitmapFont, width: Int? = nil, glyphs: GlyphSet = .braille,
        capability: ColorCapability = .trueColor, preset: Preset = .dust, options: SceneOptions = SceneOptions(),
        seed: UInt64 = 1
    ) {
        let columns = width.map { max(1, $0 / max(1, font.defaultAdvance)) }
        self.init(
            message, width: columns, glyphs: glyphs, capability: capability, preset: preset, options: options,
            seed: seed)
        let layout = message.layout(width: width, font: font)
        pixels = PixelSurface(
            layout: layout, scene: SpoilerScene(layout: layout, preset: preset, options: options, seed: seed),
            font: font)
    }

    /// The bitmap font the view is laid out in, or nil for terminal cells of 8 × 16 pixels.
    public var font: BitmapFont? { pixels?.font }

    /// The message laid out, in terminal cells or in the bitmap font's pixels; word `i` of
    /// ``scene`` is `layout.words[i]`.
    public var layout: TextLayout { pixels?.layout ?? terminalView.layout }

    /// The particle effect and the reveal state, at ``time``, over ``layout``.
    public var scene: SpoilerScene { pixels?.scene ?? terminalView.currentScene }

    // MARK: Time

    /// Moves the effect to `seconds` on the caller's clock (seconds since the view started).
    ///
    /// Time never goes back: a time before ``time`` does nothing. The simulation runs in
    /// fixed steps (``SceneOptions/tickRate``), so any frame rate gives the same motion.
    ///
    /// - Parameter seconds: The caller's time, in seconds from the view's start.
    /// - Complexity: O(particles × steps).
    public mutating func advance(to seconds: Double) {
        guard seconds.isFinite, seconds > time else { return }
        time = seconds
        terminalView.step(to: seconds)
        pixels?.scene.advance(to: seconds)
    }

    /// Moves the effect on by `seconds` (a frame's duration on the caller's clock).
    ///
    /// - Parameter seconds: How long since the last call; ignored unless positive.
    public mutating func step(by seconds: Double) {
        advance(to: time + seconds)
    }

    /// Whether the picture still changes: dust moves on a hidden word, a reveal or hide wave
    /// runs, or pushed particles still fade. When false, the last frame stays right until
    /// the next click: a host can stop asking for frames.
    ///
    /// Under reduced motion hidden words wear a still pattern and reveals are instant, so
    /// no frames are needed.
    public var needsFrames: Bool { terminalView.needsFrames(at: time) || (pixels?.needsFrames ?? false) }

    // MARK: Clicks

    /// Reveals the hidden word under a click on terminal cell (`column`, `row`) of the
    /// message as ``ansi()`` draws it, or the nearest on that row within one cell, with the
    /// wave from the click, at the current time.
    ///
    /// - Parameters:
    ///   - column: The cell's column from 0.
    ///   - row: The cell's row from 0.
    /// - Returns: Whether a hidden word was revealed.
    @discardableResult
    public mutating func click(column: Int, row: Int) -> Bool {
        guard terminalView.click(column: column, row: row, at: time) else { return false }
        if pixels != nil {
            let cells = terminalView.layout.words
            let shown = Set(cells.indices.filter { terminalView.isRevealed(word: $0) }.map { WordKey(cells[$0]) })
            pixels!.revealWords { shown.contains($0) }
        }
        return true
    }

    /// Reveals the hidden word under a click at pixel (`pixelX`, `pixelY`) of the layout,
    /// or the nearest on that line within a character's width, with the wave from the
    /// click, at the current time.
    ///
    /// Pixels are those ``svg()`` draws: origin at the layout's top-left corner, y
    /// downward; 8 × 16 pixels a cell, or the bitmap font's own.
    ///
    /// - Parameters:
    ///   - pixelX: Pixels from the layout's left edge.
    ///   - pixelY: Pixels from the layout's top edge, downward.
    /// - Returns: Whether a hidden word was revealed.
    @discardableResult
    public mutating func click(pixelX: Double, pixelY: Double) -> Bool {
        guard pixels != nil else { return terminalView.click(pixelX: pixelX, pixelY: pixelY, at: time) }
        guard let revealed = pixels!.click(at: SpoilerPoint(x: pixelX, y: pixelY)) else { return false }
        // The same words in the terminal cells of ansi().
        let keys = Set(revealed.map { WordKey(pixels!.layout.words[$0]) })
        for (i, word) in terminalView.layout.words.enumerated()
        where keys.contains(WordKey(word)) && !terminalView.isRevealed(word: i) {
            terminalView.reveal(word: i, at: time)
        }
        return true
    }

    /// Reveals every hidden word at once, with one wave.
    public mutating func revealAll() {
        terminalView.revealAll(at: time)
        pixels?.scene.revealAll()
    }

    /// Hides every revealed word again; the dust comes back as the circles shrink.
    public mutating func hideAll() {
        terminalView.hideAll(at: time)
        pixels?.scene.hideAll()
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
        SVGRenderer.renderStill(
            scene: scene, layout: layout, font: font, style: svgStyle, formatting: message.entities, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The view at ``time`` as lines of terminal text: the message, each hidden word covered
    /// by dust, colours and attributes as SGR sequences (none with
    /// ``ColorCapability/none``).
    ///
    /// The frame moves no cursor and clears nothing: each row ends with a newline (and `CSI 0 m`
    /// when it has colours), trailing blanks and blank rows at the end are left out. Control
    /// characters of the message are shown as visible symbols.
    ///
    /// - Returns: The frame's text.
    public mutating func ansi() -> String {
        let canvas = terminalView.frame(at: time)
        var out: [UInt8] = []
        StillFrameWriter.write(canvas, capability: capability, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
