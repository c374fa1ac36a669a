import SpoilerCore
public import SpoilerEffect
public import SpoilerLayout
public import SpoilerRender

/// How the live player runs.
public struct PlayerOptions: Sendable {
    /// Frames per second while something moves.
    public var framesPerSecond: Double = 30
    /// Colours, glyphs and styles of the frames.
    public var frame: ANSIFrameOptions
    /// Whether to ask for mouse reports (clicks reveal).
    public var mouse = true
    /// Whether to show the key help on the last row when there is room.
    public var showsHelp = true
    /// Seconds after which a revealed word hides again on its own (`--rehide-after`).
    public var rehideAfter: Double?
    /// Seconds to wait for the rest of an escape sequence before a lone ESC counts as
    /// the Escape key.
    public var escapeDelay: Double = 0.05
    /// The full-screen reader's chrome and keys (`spoiler read`); nil: the plain player.
    public var reader: ReaderOptions?

    public init(frame: ANSIFrameOptions) { self.frame = frame }
}

/// How a run of the player ended.
public enum PlayerExit: Sendable, Equatable {
    /// `q`, Ctrl-C or Escape.
    case quit
    /// A terminating signal (SIGINT, SIGTERM, SIGHUP): restore the terminal, then re-raise it.
    case signal(Int32)
    /// The terminal went away.
    case endOfInput
}

/// The live animation of one message (`spoiler play`): draws frames at a steady rate,
/// reveals words on clicks and keys, reflows on resize.
///
/// Keys: a click (SGR mouse, button 1) reveals the word under the pointer with the
/// reveal wave from the click; Tab / Shift-Tab (or the arrow keys) move the focus between
/// hidden words and Enter (or space) reveals the focused one; `r` reveals every word,
/// `h` hides them all again; PgUp, PgDn, Home, End and the mouse wheel scroll a message
/// taller than the screen (the focus scrolls to its word); `q`, Ctrl-C, and Escape with
/// nothing focused quit; Ctrl-Z stops the program as in a shell (the terminal restored
/// until `fg`).
///
/// Frames are drawn at ``PlayerOptions/framesPerSecond`` while particles exist or a
/// reveal is moving, and not at all otherwise (the player then sleeps until input).
/// While the terminal window is out of focus (xterm's focus events, mode 1004) the
/// animation pauses, so a spoiler left in a background window costs nothing.
/// Each frame writes only the cells that changed, and nothing when none did. The loop
/// sleeps in ``TerminalDevice/waitForEvents(timeout:)`` until the next frame is due, so
/// it costs nothing between frames.
///
/// The player only draws; setting up and restoring the terminal is the caller's job
/// (``TTYTerminal``), which keeps it testable with a ``ScriptedTerminal``.
public final class Player {
    /// Makes the layout for a terminal size (the caller decides the wrap width).
    public typealias LayoutMaker = (TerminalSize) -> TextLayout
    /// Makes the scene for a layout.
    public typealias SceneMaker = (TextLayout) -> SpoilerScene

    public let options: PlayerOptions
    private let makeLayout: LayoutMaker
    let makeScene: SceneMaker

    var builder: ANSIFrameBuilder
    var scene: SpoilerScene
    var size: TerminalSize
    private var encoder: ANSIEncoder
    private var previous: CellCanvas?
    private var spare: CellCanvas?
    private var decoder = InputDecoder()
    /// Clock time at which the scene's time 0 happened.
    var sceneEpoch: Double = 0
    /// The groups revealed, and when (scene time), for reflow and re-hiding.
    var revealedAt: [Int: Double] = [:]
    private var out: [UInt8] = []

    /// Frames written so far (a frame that changed nothing is not counted).
    public private(set) var framesWritten = 0
    /// Frames built so far.
    public private(set) var framesBuilt = 0

    /// - Parameters:
    ///   - size: the terminal's size at the start.
    ///   - layout: makes the layout for a size (called again on resize).
    ///   - scene: makes the scene for a layout.
    public init(size: TerminalSize, options: PlayerOptions, layout: @escaping LayoutMaker, scene: @escaping SceneMaker)
    {
        self.options = options
        makeLayout = layout
        makeScene = scene
        self.size = size
        let l = layout(size)
        builder = ANSIFrameBuilder(layout: l, options: options.frame)
        if options.reader != nil {
            // Only the first screens' words get dust: a long document's other words wait.
            let window = 0..<(3 * max(1, size.rows))
            self.scene = scene(Player.inert(l, outside: window))
            sceneWindowRows = window
        } else {
            self.scene = scene(l)
        }
        encoder = ANSIEncoder(capability: options.frame.capability)
        out.reserveCapacity(1 << 16)
    }

    /// The scene as it is now (for tests).
    public var currentScene: SpoilerScene { scene }
    /// The focused word group, if any.
    public var focusedGroup: Int? { builder.focusedGroup }
    /// The canvas of the last frame built.
    public var lastFrame: CellCanvas { previous ?? CellCanvas(width: 0, height: 0) }
    /// Bytes written so far.
    public private(set) var bytesWritten = 0

    /// Runs until the user quits, a signal arrives or the terminal goes away.
    ///
    /// - Throws: the device's errors (a failed write or wait).
    public func run(on device: TerminalDevice, clock: TerminalClock) throws(TerminalError) -> PlayerExit {
        let frameInterval = 1 / max(1, min(options.framesPerSecond, 240))
        sceneEpoch = clock.now()
        lastInput = sceneEpoch
        try drawFrame(on: device, at: clock.now())
        var nextFrame = clock.now() + frameInterval
        var pendingSince: Double? = nil
        while true {
            let now = clock.now()
            var timeout: Double? = isAnimating(at: now) ? max(0, nextFrame - now) : nil
            if let since = pendingSince {
                let escapeDue = max(0, since + options.escapeDelay - now)
                timeout = min(timeout ?? escapeDue, escapeDue)
            }
            if let rehide = nextRehide() {
                let due = max(0, sceneEpoch + rehide - now)
                timeout = min(timeout ?? due, due)
            }
            if let change = nextChromeChange() {
                let due = max(0, change - now)
                timeout = min(timeout ?? due, due)
            }
            if timeout == nil && options.reader != nil && pausedSceneTime == nil && !isPaused {
                // Dust off the screen waits where it is until it scrolls into view, instead
                // of being simulated (or caught up) for the time nobody looked.
                pausedSceneTime = now - sceneEpoch
            }
            let events = try device.waitForEvents(timeout: timeout)
            var dirty = false
            for event in events {
                switch event {
                case .input(let bytes):
                    for e in decoder.feed(bytes) {
                        if e == .key(.control("z")) {
                            try suspend(on: device, now: clock.now())
                        } else if let exit = handle(e, now: clock.now()) {
                            return exit
                        }
                        dirty = true
                    }
                    pendingSince = decoder.hasPending ? (pendingSince ?? clock.now()) : nil
                case .resized:
                    size = try device.size()
                    reflow(now: clock.now())
                    dirty = true
                case .terminate(let signo):
                    return .signal(signo)
                case .endOfInput:
                    return .endOfInput
                case .suspend:
                    try suspend(on: device, now: clock.now())
                    dirty = true
                case .resumed:
                    redrawAll()
                    dirty = true
                }
            }
            let after = clock.now()
            if let since = pendingSince, after >= since + options.escapeDelay {
                for e in decoder.finish() {
                    if let exit = handle(e, now: after) { return exit }
                    dirty = true
                }
                pendingSince = nil
            }
            if let rehide = nextRehide(), after >= sceneEpoch + rehide {
                rehideDue(at: after - sceneEpoch)
                dirty = true
            }
            if chromeNeedsRedraw(at: after) { dirty = true }
            if dirty || after >= nextFrame {
                try drawFrame(on: device, at: after)
                if after >= nextFrame {
                    nextFrame += frameInterval
                    if nextFrame <= after { nextFrame = after + frameInterval }
                }
            }
        }
    }

    /// Stops the program (Ctrl-Z), then redraws everything once it continues; the
    /// animation resumes where it was, without the time it was stopped.
    private func suspend(on device: TerminalDevice, now: Double) throws(TerminalError) {
        let sceneNow = now - sceneEpoch
        try device.suspend()
        redrawAll()
        pausedSceneTime = sceneNow
    }

    /// Forgets what the screen shows, so the next frame is drawn whole.
    private func redrawAll() {
        previous = nil
        spare = nil
        encoder.invalidate()
    }

    /// Whether frames must keep coming: particles move, or a reveal or hide is running.
    private func isAnimating(at now: Double) -> Bool {
        if isPaused { return false }
        if scrollAnimation != nil { return true }
        if scene.options.reducedMotion { return false }
        if options.reader != nil { return movesInView() }
        if scene.particles.count > 0 { return true }
        for w in scene.words.indices where !scene.isHidden(word: w) && !scene.isFullyRevealed(word: w) {
            return true
        }
        return false
    }

    /// Handles one input event; returns how to end, if it ends the run.
    private func handle(_ event: InputEvent, now: Double) -> PlayerExit? {
        if case .focus(let gained) = event {
            if gained {
                isPaused = false
            } else if !isPaused {
                advanceScene(to: now)
                isPaused = true
                pausedSceneTime = now - sceneEpoch
            }
            return nil
        }
        // Any input wakes a paused player, in case the terminal never says it has focus.
        isPaused = false
        advanceScene(to: now)
        if event != .unknown { lastInput = now }
        if options.reader != nil && handleReaderEvent(event, now: now) { return nil }
        switch event {
        case .key(.character("q")), .key(.character("Q")), .key(.control("c")), .key(.control("d")):
            return .quit
        case .key(.escape):
            if builder.focusedGroup == nil { return .quit }
            builder.focusedGroup = nil
        case .key(.character("r")), .key(.character("R")):
            scene.revealAll()
            for g in builder.groups { revealedAt[g] = scene.time }
        case .key(.character("h")), .key(.character("H")):
            scene.hideAll()
            revealedAt.removeAll()
        case .key(.tab), .key(.right), .key(.down):
            moveFocus(by: 1)
        case .key(.backTab), .key(.left), .key(.up):
            moveFocus(by: -1)
        case .key(.enter), .key(.character(" ")):
            if builder.focusedGroup == nil { moveFocus(by: 1) }
            if let g = builder.focusedGroup, let w = builder.groups.firstIndex(of: g) {
                scene.reveal(word: w)
                revealedAt[g] = scene.time
                moveFocus(by: 1)
            }
        case .mouse(let m) where m.kind == .wheelDown:
            scroll(by: 3)
        case .mouse(let m) where m.kind == .wheelUp:
            scroll(by: -3)
        case .key(.pageDown):
            scroll(by: max(1, viewRows - 1))
        case .key(.pageUp):
            scroll(by: -max(1, viewRows - 1))
        case .key(.home):
            scroll(by: -scrollRow)
        case .key(.end):
            scroll(by: builder.rows)
        case .mouse(let m) where m.kind == .press && m.button == 0:
            reveal(atColumn: m.column, row: m.row)
        default:
            break
        }
        return nil
    }

    /// Reveals the word under the screen cell `column`, `row` (0-based), if any, with the
    /// reveal wave from that cell.
    func reveal(atColumn column: Int, row: Int) {
        guard row < viewRows else { return }
        let point = SpoilerPoint(
            x: (Double(column - textColumn) + 0.5) * builder.cellWidth,
            y: (Double(row + scrollRow) + 0.5) * builder.cellHeight)
        if let w = scene.word(at: point) {
            scene.reveal(word: w, origin: point)
            revealedAt[builder.groups[w]] = scene.time
            if builder.focusedGroup == builder.groups[w] { builder.focusedGroup = nil }
        }
    }

    /// Moves the focus to the next (or previous) group that is still hidden.
    func moveFocus(by step: Int) {
        defer { scrollToFocus() }
        let all = Array(Set(builder.groups)).sorted()
        let hidden = all.filter { revealedAt[$0] == nil }
        guard !hidden.isEmpty else {
            builder.focusedGroup = nil
            return
        }
        guard let current = builder.focusedGroup else {
            builder.focusedGroup = step > 0 ? hidden.first : hidden.last
            return
        }
        if step > 0 {
            builder.focusedGroup = hidden.first { $0 > current } ?? hidden.first
        } else {
            builder.focusedGroup = hidden.last { $0 < current } ?? hidden.last
        }
    }

    /// The rows of the message that fit on the screen.
    var maxScroll: Int { max(0, builder.rows - viewRows) }

    /// Scrolls the message by `rows` (down when positive), within its length.
    func scroll(by rows: Int) {
        scrollRow = min(max(0, scrollRow + rows), maxScroll)
    }

    /// Scrolls so that the focused word's first line is on the screen.
    private func scrollToFocus() {
        guard let g = builder.focusedGroup, let w = builder.groups.firstIndex(of: g) else { return }
        let line = builder.layout.words[w].line
        if line < scrollRow {
            scrollRow = line
        } else if line >= scrollRow + viewRows {
            scrollRow = min(line - viewRows + 1, maxScroll)
        }
    }

    private func nextRehide() -> Double? {
        guard let after = options.rehideAfter else { return nil }
        return revealedAt.values.min().map { $0 + after }
    }

    private func rehideDue(at sceneTime: Double) {
        guard let after = options.rehideAfter else { return }
        for (g, t) in revealedAt where t + after <= sceneTime {
            if let w = builder.groups.firstIndex(of: g) { scene.hide(word: w) }
            revealedAt[g] = nil
        }
    }

    /// A new layout and scene for the new size, with the revealed words revealed.
    private func reflow(now: Double) {
        let layout = makeLayout(size)
        let focus = builder.focusedGroup
        builder = ANSIFrameBuilder(layout: layout, options: options.frame)
        builder.focusedGroup = focus.flatMap { builder.groups.contains($0) ? $0 : nil }
        if options.reader != nil {
            let window = sceneWindow(around: min(scrollRow, maxScroll))
            scene = makeScene(Player.inert(layout, outside: window))
            sceneWindowRows = window
        } else {
            scene = makeScene(layout)
        }
        for g in revealedAt.keys {
            if let w = builder.groups.firstIndex(of: g) { scene.reveal(word: w, at: -10) }
        }
        for g in revealedAt.keys { revealedAt[g] = 0 }
        previous = nil
        spare = nil
        encoder.invalidate()
        sceneEpoch = now
        // The new scene starts at 0: a time saved from the old one must not be caught up to.
        if pausedSceneTime != nil { pausedSceneTime = 0 }
        scroll(by: 0)
    }

    private func advanceScene(to now: Double) {
        if isPaused { return }
        if let paused = pausedSceneTime {
            // Continue from where the scene was when the program stopped.
            sceneEpoch = now - paused
            pausedSceneTime = nil
        }
        scene.advance(to: now - sceneEpoch)
    }

    /// The first row of the message on the screen (when it is taller than the screen).
    var scrollRow = 0
    /// Clock time of the last key or mouse input (the reader's bar shrinks after a while).
    var lastInput: Double = 0
    /// The animated scroll back to the top (the reader's `g`), while it runs.
    var scrollAnimation: ScrollAnimation?
    /// Whether the last frame drew the reader's compact wheel instead of the bar.
    var drawnCompact = false
    /// The layout rows whose hidden words the reader's scene animates (nil: all).
    var sceneWindowRows: Range<Int>?

    /// The scene time when the program was stopped or the window lost focus, until the
    /// next frame after it goes on.
    var pausedSceneTime: Double?
    /// Whether the terminal window has lost focus (xterm focus events, mode 1004): no
    /// frames are drawn until it gets it back or input arrives.
    private var isPaused = false

    /// Builds the frame for clock time `now` and writes its difference from the last one.
    private func drawFrame(on device: TerminalDevice, at now: Double) throws(TerminalError) {
        advanceScene(to: now)
        advanceScrollAnimation(to: now)
        updateSceneWindow(now: now)
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
            rows: options.reader != nil ? scrollRow..<(scrollRow + viewRows) : nil)
        if options.reader != nil {
            drawChrome(into: &next, at: now)
        } else if options.showsHelp && size.rows > builder.rows + 1 {
            next.write(
                "click or Tab/Enter: reveal · r: reveal all · h: hide · q: quit", column: 0, row: size.rows - 1,
                style: CellStyle(attributes: .dim))
        }
        framesBuilt += 1
        out.removeAll(keepingCapacity: true)
        encoder.encodeFrame(from: previous, to: next, into: &out)
        if !out.isEmpty {
            try device.write(out)
            framesWritten += 1
            bytesWritten += out.count
        }
        spare = previous
        previous = next
    }
}
