import Dispatch
public import SpoilerCore
public import SpoilerEffect
import SpoilerLayout
import Synchronization
public import SpoilerRender

/// How the live player runs.
public struct PlayerOptions: Sendable {
    /// Frames a second while something moves (30 by default).
    public var frameRate: FrameRate = .standard
    /// Frames per second while something moves, as a `Double`.
    @available(*, deprecated, renamed: "frameRate", message: "use frameRate, a FrameRate")
    public var framesPerSecond: Double {
        get { Double(frameRate.framesPerSecond) }
        set { frameRate = FrameRate(clamping: newValue) }
    }
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
    /// The confetti over the screen when the last hidden word is revealed (`--celebrate`);
    /// nil: none.
    public var celebration: Preset?

    /// Options with the given frame look and the defaults above.
    public init(frame: ANSIFrameOptions) { self.frame = frame }

    /// The options of the view the player runs (``SpoilerTerminalView``).
    public var view: SpoilerTerminalView.Options {
        var v = SpoilerTerminalView.Options(frame: frame)
        v.showsHelp = showsHelp
        v.rehideAfter = rehideAfter
        v.reader = reader
        v.maxCatchUp = 0.1
        v.celebration = celebration
        return v
    }
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

/// The live animation of one message on a whole terminal (`spoiler play`, `spoiler
/// read`): a thin loop around a ``SpoilerTerminalView`` that fills the screen.
///
/// The loop waits for input, signals or the next frame in
/// ``TerminalDevice/waitForEvents(timeout:)``, decodes keys and mouse reports
/// (``InputDecoder``, with a short wait before a lone ESC counts as Escape), hands them
/// to the view with the clock's time, and writes the view's frame differences. What the
/// keys do is the view's (``SpoilerTerminalView/handle(_:at:)``); Ctrl-Z stops the
/// program as in a shell (the terminal restored until `fg`).
///
/// Frames are drawn at ``PlayerOptions/frameRate`` while something moves on the
/// screen (``SpoilerTerminalView/needsFrames(at:)``), and not at all otherwise: the
/// player then sleeps until input. While the terminal window is out of focus (xterm's
/// focus events, mode 1004) the animation pauses. Each frame writes only the cells that
/// changed, and nothing when none did. Input is read between frames and every frame costs
/// what one screen costs, whatever the message's length, so keys, clicks and signals are
/// answered within a frame or two.
///
/// The player only draws; setting up and restoring the terminal is the caller's job
/// (``TTYTerminal``, or ``TTYTerminal/runPlayer(options:layout:scene:)``), which keeps
/// it testable with a ``ScriptedTerminal``.
public final class Player {
    /// Makes the layout for a terminal size (the caller decides the wrap width).
    public typealias LayoutMaker = SpoilerTerminalView.LayoutMaker
    /// Makes the scene for a layout.
    public typealias SceneMaker = SpoilerTerminalView.SceneMaker

    /// How the player runs.
    public let options: PlayerOptions
    /// The view that fills the screen.
    public private(set) var view: SpoilerTerminalView
    private var decoder = InputDecoder()
    /// A long message's layout being made on a thread of its own, if any.
    private var background: BackgroundLayout?
    private var out: [UInt8] = []

    /// Frames written so far (a frame that changed nothing is not counted).
    public private(set) var framesWritten = 0
    /// Frames built so far.
    public var framesBuilt: Int { view.framesBuilt }
    /// Bytes written so far.
    public private(set) var bytesWritten = 0

    /// A player for a terminal of `size`.
    ///
    /// - Parameters:
    ///   - size: the terminal's size at the start.
    ///   - options: frame rate, look, mouse, help row, re-hiding, reader.
    ///   - layout: makes the layout for a size (called again on resize).
    ///   - scene: makes the scene for a layout.
    public init(size: TerminalSize, options: PlayerOptions, layout: @escaping LayoutMaker, scene: @escaping SceneMaker)
    {
        self.options = options
        view = SpoilerTerminalView(size: size, options: options.view, layout: layout, scene: scene)
        view.laysOutInBackground = true
        out.reserveCapacity(1 << 16)
    }

    /// A player around a view made by the caller (of a long message laid out lazily,
    /// ``SpoilerTerminalView/init(size:options:prefixLayout:scene:)``, or of a long
    /// document, ``SpoilerTerminalView/init(document:size:options:layout:scene:)``),
    /// which should have been made with ``PlayerOptions/view``.
    ///
    /// - Parameters:
    ///   - options: frame rate, look, mouse, help row, re-hiding, reader.
    ///   - view: the view that fills the screen.
    public init(options: PlayerOptions, view: SpoilerTerminalView) {
        self.options = options
        self.view = view
        self.view.laysOutInBackground = true
        out.reserveCapacity(1 << 16)
    }

    /// The scene as it is now (for tests).
    public var currentScene: SpoilerScene { view.currentScene }
    /// The focused word group, if any.
    public var focusedGroup: Int? { view.focusedGroup }
    /// The canvas of the last frame built.
    public var lastFrame: CellCanvas { view.lastFrame }
    /// How much of the text has been read (the reader's bar): 0 at the top, 1 at the end.
    public var readFraction: Double { view.readFraction }
    /// The first row of the text on the screen.
    public var firstVisibleRow: Int { view.firstVisibleRow }

    /// Runs until the user quits, a signal arrives or the terminal goes away.
    ///
    /// - Throws: the device's errors (a failed write or wait).
    public func run(on device: TerminalDevice, clock: TerminalClock) throws(TerminalError) -> PlayerExit {
        let frameInterval = options.frameRate.frameDuration
        view.step(to: clock.now())
        try drawFrame(on: device, at: clock.now())
        var nextFrame = clock.now() + frameInterval
        var pendingSince: Double? = nil
        while true {
            let now = clock.now()
            let moving = view.needsFrames(at: now)
            var timeout: Double? = moving ? max(0, nextFrame - now) : nil
            if let since = pendingSince {
                let escapeDue = max(0, since + options.escapeDelay - now)
                timeout = min(timeout ?? escapeDue, escapeDue)
            }
            if let change = view.nextChange(after: now) {
                let due = max(0, change - now)
                timeout = min(timeout ?? due, due)
            }
            if background != nil {
                // A layout is being made off the loop: look for it every 50 ms.
                timeout = min(timeout ?? 0.05, 0.05)
            }
            if timeout == nil {
                // Dust off the screen waits where it is until it scrolls into view, instead
                // of being simulated (or caught up) for the time nobody looked.
                view.pause(at: now)
            }
            let events = try device.waitForEvents(timeout: timeout)
            var dirty = false
            for event in events {
                switch event {
                case .input(let bytes):
                    for e in decoder.feed(bytes) {
                        if e == .key(.control("z")) {
                            try suspend(on: device, now: clock.now())
                        } else if view.handle(e, at: clock.now()) == .quit {
                            return .quit
                        }
                        dirty = true
                    }
                    pendingSince = decoder.hasPending ? (pendingSince ?? clock.now()) : nil
                case .resized:
                    view.resize(to: try device.size(), at: clock.now())
                    dirty = true
                case .terminate(let signo):
                    return .signal(signo)
                case .endOfInput:
                    return .endOfInput
                case .suspend:
                    try suspend(on: device, now: clock.now())
                    dirty = true
                case .resumed:
                    view.invalidate()
                    dirty = true
                }
            }
            let after = clock.now()
            if followBackgroundLayout(at: after) { dirty = true }
            if let since = pendingSince, after >= since + options.escapeDelay {
                for e in decoder.finish() {
                    if view.handle(e, at: after) == .quit { return .quit }
                    dirty = true
                }
                pendingSince = nil
            }
            if let change = view.nextChange(after: after), after >= change { dirty = true }
            if view.chromeNeedsRedraw(at: after) { dirty = true }
            if dirty || after >= nextFrame {
                try drawFrame(on: device, at: after)
                if after >= nextFrame {
                    nextFrame += frameInterval
                    if nextFrame <= after { nextFrame = after + frameInterval }
                }
            }
        }
    }

    /// Starts the layout the view asks for on a thread of its own, and gives the view the
    /// one that is done; the loop answers keys and signals meanwhile.
    ///
    /// - Returns: whether the view took a new layout.
    private func followBackgroundLayout(at now: Double) -> Bool {
        var adopted = false
        if let job = background, let made = job.result {
            background = nil
            view.adoptPrefixLayout(made, for: job.request, at: now)
            adopted = true
        }
        if let request = view.prefixLayoutRequest, background?.request != request {
            // A layout no longer wanted (the window was resized) runs on and is dropped.
            background = BackgroundLayout(request)
        }
        return adopted
    }

    /// Stops the program (Ctrl-Z), then redraws everything once it continues; the
    /// animation resumes where it was, without the time it was stopped.
    private func suspend(on device: TerminalDevice, now: Double) throws(TerminalError) {
        view.pause(at: now)
        try device.suspend()
        view.invalidate()
    }

    /// Builds the frame for clock time `now` and writes its difference from the last one.
    private func drawFrame(on device: TerminalDevice, at now: Double) throws(TerminalError) {
        out.removeAll(keepingCapacity: true)
        view.encodeFullScreenFrame(at: now, into: &out)
        if !out.isEmpty {
            try device.write(out)
            framesWritten += 1
            bytesWritten += out.count
        }
    }
}

/// A prefix layout made off the player's loop, on a Dispatch worker thread (a message of
/// megabytes takes seconds).
private final class BackgroundLayout: Sendable {
    let request: PrefixLayoutRequest
    private let made = Mutex<PrefixLayout?>(nil)

    /// Starts making `request`'s layout.
    init(_ request: PrefixLayoutRequest) {
        self.request = request
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let layout = request.make()
            made.withLock { $0 = layout }
        }
    }

    /// The layout, once it is made.
    var result: PrefixLayout? { made.withLock { $0 } }
}
