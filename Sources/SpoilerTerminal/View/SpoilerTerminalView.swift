import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout
public import SpoilerRender

/// One message animating in a rectangle of a terminal screen, driven by its host.
///
/// The view is what `spoiler play` and `spoiler read` are built on, and what a terminal
/// program with its own event loop and screen buffer embeds (a chat client, a TUI). The
/// host owns the terminal, the clock and the loop; the view never reads, writes or sets
/// up anything. The host:
/// - places the view in its screen (``originColumn``, ``originRow``, ``size``);
/// - advances it by its own clock (``step(to:)``; times are the host's seconds, from any
///   fixed start, never decreasing);
/// - forwards keys and mouse reports in its own screen coordinates (``handle(_:at:)``,
///   or ``click(column:row:at:)``, ``click(pixelX:pixelY:at:)``, ``key(_:at:)``);
/// - gets back the rectangle's cells (``frame(at:)``, a ``CellCanvas`` of ``size``:
///   glyph, colours, attributes) or the bytes that bring the rectangle from the last
///   frame to this one (``encodeFrame(at:into:synchronized:)``), which touch no cell
///   outside it;
/// - asks whether anything still moves (``needsFrames(at:)``, ``nextChange(after:)``)
///   so that it can sleep when nothing does.
///
/// Hidden text never reaches the cells: a hidden word is drawn as dust until a click,
/// Tab and Enter, or ``revealAll(at:)`` uncovers it. Reveals follow the scene's
/// ``SceneOptions/revealScope`` (by default a click uncovers every word of its spoiler)
/// and survive ``resize(to:at:)``.
///
/// Only the words on and near the screen are simulated and drawn (the screen and one
/// screen above and below it): a message of any length costs what one screen costs, and
/// the first frame comes as fast as for a short message.
///
/// The type is named with the package's prefix so that it does not clash with a TUI
/// framework's own `View` or `TerminalView` in app code.
///
/// ```swift
/// var view = SpoilerTerminalView(message: message, size: TerminalSize(columns: 30, rows: 3))
/// view.originColumn = 10                       // where it sits on the host's screen
/// view.click(column: 14, row: 0, at: 0.2)      // host coordinates
/// var bytes: [UInt8] = []
/// view.encodeFrame(at: 0.5, into: &bytes)      // only the view's 30 × 3 cells
/// ```
///
/// The view is a `Sendable` value: a host may make it on one task and step it on another
/// (its layout and scene functions are `@Sendable`).
public struct SpoilerTerminalView: Sendable {
    /// Makes the layout for the view's size (the host decides the wrap width).
    public typealias LayoutMaker = @Sendable (TerminalSize) -> TextLayout
    /// Makes the scene for a layout.
    public typealias SceneMaker = @Sendable (TextLayout) -> SpoilerScene

    /// How the view looks and behaves.
    public struct Options: Sendable {
        /// Colours, glyphs and styles of the frames.
        public var frame: ANSIFrameOptions
        /// Whether to show the key help on the last row when there is room below the text.
        ///
        /// Default false.
        public var showsHelp = false
        /// Seconds after which a revealed word hides again on its own; nil (the default):
        /// never.
        public var rehideAfter: Double?
        /// The full-screen reader's bar, margins and reading keys (`spoiler read`); nil
        /// (the default): the plain player.
        public var reader: ReaderOptions?
        /// The most scene time one step may simulate, in seconds; a step further behind
        /// the host's clock skips the rest (the animation slows down instead of the host
        /// waiting for it). nil (the default): every step catches up exactly, so a step
        /// to time T always shows time T. A real-time loop sets a few frames' worth
        /// (``Player`` uses 0.1 s).
        public var maxCatchUp: Double?
        /// The confetti that falls over the whole view when the last hidden word is
        /// revealed (``Preset/confetti``; see ``Celebration``); nil (the default): none.
        /// With reduced motion there is none either.
        public var celebration: Preset?

        /// Options with the given frame look, no help row, no re-hiding, no reader.
        public init(frame: ANSIFrameOptions) { self.frame = frame }
    }

    /// What handling an input did.
    public enum Response: Sendable, Equatable {
        /// The event was not for the view (outside its rectangle, or a key it does not use).
        case ignored
        /// The view took the event (the next frame shows what changed).
        case handled
        /// The user asked to leave (`q`, Ctrl-C, Escape with nothing focused; Ctrl-D in
        /// the plain player).
        case quit
    }

    /// The view's options.
    public let options: Options
    let makeLayout: LayoutMaker
    let makeScene: SceneMaker

    /// The screen column (0-based, host coordinates) of the view's left edge.
    ///
    /// Mouse reports are taken relative to it and encoded frames are placed at it.
    public var originColumn = 0
    /// The screen row (0-based, host coordinates) of the view's top edge.
    public var originRow = 0
    /// The rectangle's size in cells (change it with ``resize(to:at:)``).
    public internal(set) var size: TerminalSize

    var builder: ANSIFrameBuilder
    var scene: SpoilerScene
    /// Host time at which the scene's time 0 happened; nil until the first call with a time.
    var sceneEpoch: Double?
    /// The groups revealed, and when (scene time), for reflow and re-hiding.
    var revealedAt: [Int: Double] = [:]
    /// The first row of the message on the screen (when it is taller than the screen).
    var scrollRow = 0
    /// Host time of the last key or mouse input (the reader's bar shrinks after a while).
    var lastInput: Double = 0
    /// The animated scroll back to the top (the reader's `g`), while it runs.
    var scrollAnimation: ScrollAnimation?
    /// Whether the last frame drew the reader's compact wheel instead of the bar.
    var drawnCompact = false
    /// The layout rows whose hidden words the scene animates.
    var sceneWindowRows: Range<Int>
    /// The scene time at which the animation stopped (nothing moving on the screen, the
    /// program stopped, the window out of focus), until it goes on.
    var pausedSceneTime: Double?
    /// Whether the host said the window lost focus: nothing moves until it gets it back
    /// or input arrives.
    var isPaused = false
    /// The reader's search (`/`), while it is typed or after it ran.
    var search = SearchState()
    /// The confetti falling now (host time), and whether it fell since every word was revealed.
    var celebration: Celebration?
    var hasCelebrated = false
    /// The chunks laid out, for a view of a long document (nil: the whole message is).
    var document: DocumentWindow?
    /// The laid-out beginning of a long message, while it is not the whole message.
    var prefix: PrefixState?
    /// Whether a long message's prefix of more than ``backgroundPrefixBytes`` is left to the
    /// host to lay out off its loop (``prefixLayoutRequest``), so that keys are answered
    /// meanwhile; false (the default) lays it out at once. ``Player`` turns it on.
    public var laysOutInBackground = false
    /// The prefix length, in UTF-8 bytes, past which a view that ``laysOutInBackground``
    /// leaves the layout to its host instead of making it at once.
    public var backgroundPrefixBytes = SpoilerTerminalView.defaultBackgroundPrefixBytes

    var previous: CellCanvas?
    private var spare: CellCanvas?
    private var encoder: ANSIEncoder

    /// Frames built so far.
    public private(set) var framesBuilt = 0

    /// A view of `size` cells whose layout and scene come from the given functions.
    ///
    /// - Parameters:
    ///   - size: the rectangle's size in cells.
    ///   - options: the look, the help row, re-hiding, the reader.
    ///   - layout: makes the layout (`mono`) for a size; called again on resize. Scene
    ///     word `i` must be layout word `i` (``ANSIFrameBuilder/sceneWords(for:)``).
    ///   - scene: makes the scene for a layout (called again on resize and when the
    ///     screen scrolls far; the words away from the screen are given no graphemes, so
    ///     no dust).
    public init(
        size: TerminalSize, options: Options, layout: @escaping LayoutMaker, scene: @escaping SceneMaker
    ) {
        self.options = options
        makeLayout = layout
        makeScene = scene
        self.size = size
        let l = layout(size)
        builder = ANSIFrameBuilder(layout: l, options: options.frame)
        let rows = max(1, size.rows - (options.reader != nil && size.rows >= 2 ? 1 : 0))
        let window = 0..<(3 * rows)
        self.scene = scene(SpoilerTerminalView.inert(l, outside: window))
        sceneWindowRows = window
        encoder = ANSIEncoder(capability: options.frame.capability)
    }

    /// A view of `message` laid out in `mono` cells, wrapped at the view's width (inside
    /// the reader's margins with ``Options/reader``), its spoilers as `preset` dust.
    ///
    /// - Parameters:
    ///   - message: the text and its entities (the formatting is drawn as terminal
    ///     attributes; ``ANSIFrameOptions/formatting`` is set from it).
    ///   - size: the rectangle's size in cells.
    ///   - frame: the look (default: 24-bit colour, braille dust).
    ///   - preset: the effect (default ``Preset/dust``).
    ///   - sceneOptions: density, reveal scope, reduced motion.
    ///   - seed: the random seed.
    public init(
        message: Message, size: TerminalSize, frame: ANSIFrameOptions = ANSIFrameOptions(capability: .trueColor),
        preset: Preset = .dust, sceneOptions: SceneOptions = SceneOptions(), seed: UInt64 = 1,
        configure: (inout Options) -> Void = { _ in }
    ) {
        var frame = frame
        frame.formatting = message.entities
        var options = Options(frame: frame)
        configure(&options)
        let reader = options.reader
        self.init(
            size: size, options: options,
            layout: { size in
                LayoutEngine(wrapWidth: SpoilerTerminalView.wrapWidth(columns: size.columns, reader: reader)).layout(
                    message)
            },
            scene: SpoilerTerminalView.dustScene(preset: preset, options: sceneOptions, seed: seed))
    }

    /// The width the convenience initialisers wrap text at in a view `columns` wide: inside
    /// the reader's margins with one, else the view's width.
    static func wrapWidth(columns: Int, reader: ReaderOptions?) -> Int {
        reader?.textWidth(columns: columns) ?? max(1, columns)
    }

    /// The scene the convenience initialisers make for a layout: `preset` over its words.
    static func dustScene(preset: Preset, options: SceneOptions, seed: UInt64) -> SceneMaker {
        { layout in
            SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: preset, options: options, seed: seed)
        }
    }

    // MARK: What the host reads

    /// The scene as it is now (its words are the layout's; those away from the screen
    /// have no dust).
    public var currentScene: SpoilerScene { scene }
    /// The layout the view draws.
    public var layout: TextLayout { builder.layout }
    /// The focused word group (Tab), if any.
    public var focusedGroup: Int? { builder.focusedGroup }
    /// The cells of the last frame built (empty before the first).
    public var lastFrame: CellCanvas { previous ?? CellCanvas(width: 0, height: 0) }
    /// The first layout row on the screen.
    public var firstVisibleRow: Int { scrollRow }

    /// Whether the layout word `word` has been revealed (and not hidden again).
    public func isRevealed(word: Int) -> Bool {
        builder.groups.indices.contains(word) && revealedAt[builder.groups[word]] != nil
    }

    // MARK: Time

    /// The scene time for host time `time`, starting the clock on the first call.
    mutating func sceneTime(_ time: Double) -> Double {
        if sceneEpoch == nil {
            sceneEpoch = time
            lastInput = time
        }
        return time - sceneEpoch!
    }

    /// Advances the animation to host time `time`: particles, reveals, re-hiding, the
    /// reader's scroll to the top.
    ///
    /// Times before the last one change nothing. While paused (see ``setFocus(_:at:)``)
    /// the animation holds still and resumes where it was, without the time it was paused.
    public mutating func step(to time: Double) {
        if let due = nextRehide(), let epoch = sceneEpoch, time >= epoch + due { rehideDue(at: time - epoch) }
        advanceScene(to: time)
        advanceScrollAnimation(to: time)
        if document != nil {
            settleDocumentTail()
            followDocumentEnd()
            followScreen()
        }
        if prefix != nil { followPrefix() }
        updateSceneWindow(now: time)
        updateCelebration(at: time)
    }

    mutating func advanceScene(to time: Double) {
        let t = sceneTime(time)
        if isPaused { return }
        if let paused = pausedSceneTime {
            // Continue from where the scene was when it stopped.
            sceneEpoch = time - paused
            pausedSceneTime = nil
            scene.advance(to: paused)
            return
        }
        // A machine too slow for the dust on the screen falls behind instead of catching
        // up: more than `maxCatchUp` behind, the time is skipped, so a step costs at most
        // that much simulation and input is answered at once whatever the message.
        if let limit = options.maxCatchUp, t - scene.time > limit {
            sceneEpoch! += t - scene.time - limit
        }
        scene.advance(to: time - sceneEpoch!)
    }

    /// Holds the animation at host time `time`: the next step goes on from where it was,
    /// and the time in between is skipped, not caught up (the host slept because
    /// nothing moved on the screen, or the program was stopped).
    public mutating func pause(at time: Double) {
        advanceScene(to: time)
        if pausedSceneTime == nil, let epoch = sceneEpoch { pausedSceneTime = time - epoch }
    }

    /// Tells the view the host window lost (false) or gained (true) focus: out of focus
    /// it holds still and ``needsFrames(at:)`` says no.
    public mutating func setFocus(_ hasFocus: Bool, at time: Double) {
        if hasFocus {
            isPaused = false
        } else if !isPaused {
            pause(at: time)
            isPaused = true
        }
    }

    /// Whether frames must keep coming at host time `time`: particles move on the
    /// screen, a reveal or hide runs there, or the reader scrolls.
    ///
    /// When it is false the host may sleep until input or ``nextChange(after:)``.
    /// - Complexity: O(words + particles).
    public func needsFrames(at time: Double) -> Bool {
        if isPaused { return false }
        if scrollAnimation != nil || celebration != nil { return true }
        if scene.options.reducedMotion { return false }
        return movesInView()
    }

    /// The host time of the next change that happens on its own while nothing moves (a
    /// word hiding again, the reader's bar shrinking), if any.
    public func nextChange(after time: Double) -> Double? {
        var next: Double?
        // End waits for a document's index: look again in 50 ms.
        if document?.waitsForEnd == true { next = time + 0.05 }
        if let rehide = nextRehide(), let epoch = sceneEpoch { next = min(next ?? .infinity, epoch + rehide) }
        if let change = nextChromeChange() { next = min(next ?? change, change) }
        return next
    }

    // MARK: Drawing

    /// Advances to host time `time` and draws the view's cells: a canvas of ``size``,
    /// column 0 row 0 being the rectangle's top-left.
    ///
    /// - Complexity: O(cells of the screen + graphemes and particles near it).
    @discardableResult
    public mutating func frame(at time: Double) -> CellCanvas {
        step(to: time)
        var next = spare ?? CellCanvas(width: size.columns, height: size.rows)
        spare = nil
        if next.width != size.columns || next.height != size.rows {
            next.resize(width: size.columns, height: size.rows)
        } else {
            next.clear()
        }
        if let reader = options.reader { next.fill(reader.theme.backgroundStyle(options.frame.capability)) }
        builder.draw(
            scene, into: &next, originColumn: textColumn, originRow: -scrollRow,
            rows: scrollRow..<(scrollRow + viewRows))
        drawSearchMatch(into: &next)
        drawCelebration(into: &next)
        drawPendingLayoutNote(into: &next)
        if options.reader != nil {
            drawChrome(into: &next, at: time)
        } else if options.showsHelp && size.rows > builder.rows + 1 {
            next.write(
                "click or Tab/Enter: reveal · r: reveal all · h: hide · q: quit", column: 0, row: size.rows - 1,
                style: CellStyle(attributes: .dim))
        }
        framesBuilt += 1
        spare = previous
        previous = next
        return next
    }

    /// Draws the frame for host time `time` and appends the bytes that bring the view's
    /// rectangle from the last frame encoded to it: only cells that changed, nothing when
    /// none did, every cell of the rectangle the first time (and after ``invalidate()``
    /// or a resize).
    ///
    /// The bytes move the cursor absolutely to the rectangle (``originColumn``,
    /// ``originRow``) at the start, end with the pen reset (`CSI 0 m`), and write no
    /// cell outside the rectangle and no screen clear, so the host's own drawing between
    /// frames is safe.
    ///
    /// - Parameter synchronized: wrap the bytes in DEC mode 2026 synchronized output
    ///   (default false: the host usually wraps its whole screen update).
    public mutating func encodeFrame(at time: Double, into out: inout [UInt8], synchronized: Bool = false) {
        let old = previous
        let next = frame(at: time)
        var rect = ANSIEncoder(capability: options.frame.capability, synchronized: synchronized)
        rect.clearsScreen = false
        rect.originColumn = originColumn
        rect.originRow = originRow
        let start = out.count
        rect.encodeFrame(from: old, to: next, into: &out)
        if out.count > start { out.append(contentsOf: ANSI.resetPen) }
    }

    /// Draws the frame for host time `time` and appends what changed on a screen that
    /// is the view (origin 0, 0, the player's own alternate screen): the first frame, and
    /// the first after ``invalidate()`` or a resize, clears the screen.
    mutating func encodeFullScreenFrame(at time: Double, into out: inout [UInt8]) {
        let old = previous
        let next = frame(at: time)
        encoder.encodeFrame(from: old, to: next, into: &out)
    }

    /// Forgets what the screen shows, so that the next encoded frame is drawn whole (after
    /// the host cleared or overdrew the rectangle).
    public mutating func invalidate() {
        previous = nil
        spare = nil
        encoder.invalidate()
    }
}
