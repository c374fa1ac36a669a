import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The player in-process: a scripted terminal, a manual clock, and a screen model that
/// applies everything the player wrote.
@Suite struct PlayerTests {
    /// "the code is swordfish and marmalade", both last words hidden.
    static let message = Message(
        text: "the code is swordfish and marmalade",
        entities: [Entity(.spoiler, offset: 12, length: 9), Entity(.spoiler, offset: 26, length: 9)])

    static func player(
        _ message: Message = message, size: TerminalSize = TerminalSize(columns: 40, rows: 6),
        capability: ColorCapability = .trueColor, sceneOptions: SceneOptions = SceneOptions(),
        configure: (inout PlayerOptions) -> Void = { _ in }
    ) -> Player {
        var options = PlayerOptions(frame: ANSIFrameOptions(capability: capability))
        configure(&options)
        return Player(
            size: size, options: options,
            layout: { size in LayoutEngine(wrapWidth: size.columns).layout(message) },
            scene: { layout in
                SpoilerScene(
                    words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, options: sceneOptions, seed: 1)
            })
    }

    static func keys(_ s: String) -> DeviceEvent { .input(Array(s.utf8)) }

    /// Runs the script and returns the exit, the terminal and the screen after it.
    static func play(
        _ player: Player, _ script: [(Double, DeviceEvent)], size: TerminalSize = TerminalSize(columns: 40, rows: 6)
    )
        throws -> (PlayerExit, ScriptedTerminal, ANSIScreen)
    {
        let terminal = ScriptedTerminal(size: size, script: script)
        let exit = try player.run(on: terminal, clock: terminal.clock)
        var screen = ANSIScreen(width: terminal.currentSize.columns, height: terminal.currentSize.rows)
        screen.apply(terminal.output)
        return (exit, terminal, screen)
    }

    @Test func hiddenWordsAreNotShownUntilRevealed() throws {
        let (exit, terminal, screen) = try PlayerTests.play(PlayerTests.player(), [(0.5, PlayerTests.keys("q"))])
        #expect(exit == .quit)
        let text = String(decoding: terminal.output, as: UTF8.self)
        #expect(!text.contains("swordfish") && !text.contains("marmalade"))
        #expect(!text.contains("sword") && !text.contains("fish"))
        #expect(screen.lines[0].hasPrefix("the code is "))
        #expect(screen.unexpected.isEmpty)
    }

    @Test func aClickRevealsTheWordUnderThePointerOnly() throws {
        // "swordfish" is at columns 12–20 of row 0; SGR mouse coordinates are 1-based.
        let (exit, terminal, screen) = try PlayerTests.play(
            PlayerTests.player(),
            [(0.2, PlayerTests.keys("\u{1B}[<0;15;1M\u{1B}[<0;15;1m")), (1.5, PlayerTests.keys("q"))])
        #expect(exit == .quit)
        #expect(screen.lines[0].hasPrefix("the code is swordfish and "))
        #expect(!screen.lines[0].contains("marmalade"))
        #expect(!String(decoding: terminal.output, as: UTF8.self).contains("marmalade"))
    }

    @Test func tabFocusesAndEnterReveals() throws {
        let player = PlayerTests.player()
        let (_, _, screen) = try PlayerTests.play(
            player,
            [
                (0.1, PlayerTests.keys("\t")), (0.2, PlayerTests.keys("\t")), (0.3, PlayerTests.keys("\r")),
                (1.5, PlayerTests.keys("q")),
            ])
        #expect(screen.lines[0].contains("marmalade"))
        #expect(!screen.lines[0].contains("swordfish"))
    }

    @Test func theFocusedWordIsHighlighted() throws {
        let player = PlayerTests.player()
        let (_, _, screen) = try PlayerTests.play(
            player, [(0.1, PlayerTests.keys("\t")), (0.2, PlayerTests.keys("q"))])
        #expect(player.focusedGroup == 0)
        // Every cell of "swordfish" (columns 12–20) has the focus background; others not.
        for column in 12...20 { #expect(screen[column, 0].pen.background == "#3a3a44") }
        #expect(screen[11, 0].pen.background == "default")
        #expect(screen[26, 0].pen.background == "default")
    }

    @Test(arguments: [ColorCapability.palette16, .none])
    func theFocusIsVisibleWithFewColours(_ capability: ColorCapability) throws {
        let (_, _, screen) = try PlayerTests.play(
            PlayerTests.player(capability: capability), [(0.1, PlayerTests.keys("\t")), (0.2, PlayerTests.keys("q"))])
        for column in 12...20 { #expect(screen[column, 0].pen.attributes.contains(4)) }
        #expect(screen[12, 0].pen.background == (capability == .none ? "default" : "i8"))
        #expect(!screen[26, 0].pen.attributes.contains(4))
    }

    @Test func revealAllAndHideAll() throws {
        let (_, _, revealed) = try PlayerTests.play(
            PlayerTests.player(), [(0.1, PlayerTests.keys("r")), (1.5, PlayerTests.keys("q"))])
        #expect(revealed.lines[0].hasPrefix("the code is swordfish and marmalade"))
        let (_, terminal, hidden) = try PlayerTests.play(
            PlayerTests.player(),
            [(0.1, PlayerTests.keys("r")), (1.5, PlayerTests.keys("h")), (3.0, PlayerTests.keys("q"))])
        #expect(!hidden.lines[0].contains("swordfish"), "\(hidden.lines[0])")
        #expect(!hidden.lines[0].contains("marmalade"), "\(hidden.lines[0])")
        _ = terminal
        // The dust is back over the hidden words.
        let dots = (12...20).filter { (0x2801...0x28FF).contains(hidden[$0, 0].text.unicodeScalars.first!.value) }
        #expect(!dots.isEmpty)
    }

    @Test func signalsAndEndOfInputEndTheRun() throws {
        let (exit, _, _) = try PlayerTests.play(PlayerTests.player(), [(0.3, .terminate(signal: 15))])
        #expect(exit == .signal(15))
        let (ctrlC, _, _) = try PlayerTests.play(PlayerTests.player(), [(0.3, PlayerTests.keys("\u{03}"))])
        #expect(ctrlC == .quit)
        let (eof, _, _) = try PlayerTests.play(PlayerTests.player(), [(0.3, .endOfInput)])
        #expect(eof == .endOfInput)
    }

    @Test func aLoneEscapeQuitsAfterTheEscapeDelay() throws {
        let (exit, terminal, _) = try PlayerTests.play(PlayerTests.player(), [(0.3, PlayerTests.keys("\u{1B}"))])
        #expect(exit == .quit)
        #expect(terminal.clock.now() >= 0.35 - 1e-9)
        // An escape sequence split across reads is one key, not Escape.
        let (split, _, _) = try PlayerTests.play(
            PlayerTests.player(),
            [(0.3, PlayerTests.keys("\u{1B}")), (0.31, PlayerTests.keys("[Z")), (0.5, PlayerTests.keys("q"))])
        #expect(split == .quit)
    }

    @Test func theScreenModelMatchesTheLastFrame() throws {
        let player = PlayerTests.player()
        let (_, _, screen) = try PlayerTests.play(
            player,
            [(0.2, PlayerTests.keys("\u{1B}[<0;15;1M")), (0.7, PlayerTests.keys("\t")), (1.0, PlayerTests.keys("q"))])
        let frame = player.lastFrame
        var mismatches = 0
        for row in 0..<frame.height {
            for column in 0..<frame.width where screen[column, row].text != frame.text(of: frame[column, row]) {
                mismatches += 1
            }
        }
        #expect(mismatches == 0)
    }

    @Test func framesComeAtTheFrameRateAndSleepBetween() throws {
        let player = PlayerTests.player { $0.frameRate = 30 }
        let (_, terminal, _) = try PlayerTests.play(player, [(2.0, PlayerTests.keys("q"))])
        // About 60 frames in 2 s, each after one wait, and no busy waiting.
        #expect((58...63).contains(player.framesBuilt))
        #expect(terminal.waits <= player.framesBuilt + 2)
    }

    @Test func withNothingMovingNothingIsWrittenAndThePlayerSleeps() throws {
        var options = SceneOptions()
        options.reducedMotion = true
        let player = PlayerTests.player(sceneOptions: options)
        let (exit, terminal, screen) = try PlayerTests.play(player, [])
        #expect(exit == .endOfInput, "the player waited without a timeout")
        #expect(terminal.writes.count == 1)
        #expect(!screen.lines[0].contains("swordfish"))
    }

    @Test func aResizeReflowsAndKeepsRevealedWords() throws {
        let size = TerminalSize(columns: 40, rows: 6)
        let terminal = ScriptedTerminal(
            size: size,
            script: [(0.2, PlayerTests.keys("\u{1B}[<0;15;1M")), (1.5, .resized), (2.0, PlayerTests.keys("q"))])
        let player = PlayerTests.player()
        // The window shrinks to 16 columns when the resize arrives.
        var resized = false
        let exit = try player.run(
            on: ResizingTerminal(terminal, at: 1.5) {
                resized = true
                terminal.currentSize = TerminalSize(columns: 16, rows: 6)
            }, clock: terminal.clock)
        #expect(exit == .quit && resized)
        var screen = ANSIScreen(width: 16, height: 6)
        // Apply only what came after the resize (a full redraw).
        let last = terminal.writes.lastIndex { String(decoding: $0, as: UTF8.self).contains("\u{1B}[2J") }!
        for w in terminal.writes[last...] { screen.apply(w) }
        #expect(screen.lines[0].hasPrefix("the code is"))
        #expect(screen.lines[1].hasPrefix("swordfish and"))
        #expect(!screen.lines.joined().contains("marmalade"))
    }

    @Test func losingFocusPausesTheAnimation() throws {
        let player = PlayerTests.player()
        let terminal = ScriptedTerminal(
            size: TerminalSize(columns: 40, rows: 6),
            script: [
                (0.5, PlayerTests.keys("\u{1B}[O")), (10.5, PlayerTests.keys("\u{1B}[I")),
                (11.0, PlayerTests.keys("q")),
            ])
        _ = try player.run(on: terminal, clock: terminal.clock)
        // About 15 frames before the focus went, none in the 10 s without it, 15 after.
        #expect((25...40).contains(player.framesBuilt), "\(player.framesBuilt) frames")
        #expect(terminal.waits < 50)
        // The scene did not run on while paused: about 1 s of scene time in 11 s.
        #expect(player.currentScene.time < 1.5)
    }

    /// Ten lines on a screen of four rows, a hidden word on line 8.
    static let tall = Message(
        text: (0..<10).map { $0 == 8 ? "line 8 has pineapple" : "line \($0)" }.joined(separator: "\n"),
        entities: [Entity(.spoiler, offset: 8 * 7 + 11, length: 9)])

    @Test func aTallMessageScrollsAndClicksHitTheScrolledWord() throws {
        let size = TerminalSize(columns: 30, rows: 4)
        #expect(PlayerTests.tall.text.split(separator: "\n")[8] == "line 8 has pineapple")
        let (_, _, top) = try PlayerTests.play(
            PlayerTests.player(PlayerTests.tall, size: size), [(0.2, PlayerTests.keys("q"))], size: size)
        #expect(top.lines[0].hasPrefix("line 0") && top.lines[3].hasPrefix("line 3"))
        // PgDn twice reaches the end (lines 6–9); a click on row 2 is line 8's word.
        let (_, _, bottom) = try PlayerTests.play(
            PlayerTests.player(PlayerTests.tall, size: size),
            [
                (0.1, PlayerTests.keys("\u{1B}[6~")), (0.2, PlayerTests.keys("\u{1B}[6~")),
                (0.3, PlayerTests.keys("\u{1B}[<0;15;3M")), (1.5, PlayerTests.keys("q")),
            ], size: size)
        #expect(bottom.lines[0].hasPrefix("line 6") && bottom.lines[3].hasPrefix("line 9"))
        #expect(bottom.lines[2] == "line 8 has pineapple          ")
        // The wheel scrolls too, and Tab scrolls to the hidden word.
        let (_, _, tabbed) = try PlayerTests.play(
            PlayerTests.player(PlayerTests.tall, size: size),
            [(0.1, PlayerTests.keys("\t")), (0.2, PlayerTests.keys("q"))], size: size)
        #expect(tabbed.lines[3].hasPrefix("line 8 has "))
        let (_, _, wheeled) = try PlayerTests.play(
            PlayerTests.player(PlayerTests.tall, size: size),
            [(0.1, PlayerTests.keys("\u{1B}[<65;1;1M")), (0.2, PlayerTests.keys("q"))], size: size)
        #expect(wheeled.lines[0].hasPrefix("line 3"))
    }

    @Test func ctrlZSuspendsAndEverythingIsRedrawnAfter() throws {
        let (exit, terminal, screen) = try PlayerTests.play(
            PlayerTests.player(),
            [(0.3, PlayerTests.keys("\u{1A}")), (0.5, .suspend), (0.6, .resumed), (0.8, PlayerTests.keys("q"))])
        #expect(exit == .quit)
        #expect(terminal.suspensions == 2)
        let fullFrames = terminal.writes.filter { String(decoding: $0, as: UTF8.self).contains("\u{1B}[2J") }
        #expect(fullFrames.count == 4, "the first frame, and one after each suspension and resumption")
        #expect(screen.lines[0].hasPrefix("the code is "))
    }

    @Test func aRevealedWordHidesAgainAfterRehideAfter() throws {
        let player = PlayerTests.player { $0.rehideAfter = 1 }
        let (_, _, screen) = try PlayerTests.play(
            player, [(0.2, PlayerTests.keys("\u{1B}[<0;15;1M")), (3.0, PlayerTests.keys("q"))])
        #expect(!screen.lines[0].contains("swordfish"))
        let (_, _, shown) = try PlayerTests.play(
            PlayerTests.player { $0.rehideAfter = 5 },
            [(0.2, PlayerTests.keys("\u{1B}[<0;15;1M")), (3.0, PlayerTests.keys("q"))])
        #expect(shown.lines[0].contains("swordfish"))
    }

    @Test func controlCharactersInTheMessageAreShownAsSymbols() throws {
        let hostile = Message(
            text: "a\u{1B}]52;c;aGk=\u{07} b\u{1B}[2J \u{202E}c secret",
            entities: [Entity(.spoiler, offset: 22, length: 6)])
        let (_, terminal, screen) = try PlayerTests.play(PlayerTests.player(hostile), [(0.2, PlayerTests.keys("q"))])
        let out = terminal.output
        #expect(!out.contains(0x07))
        for (i, b) in out.enumerated() where b == 0x1B { #expect(out[i + 1] == UInt8(ascii: "[")) }
        #expect(!String(decoding: out, as: UTF8.self).contains("\u{202E}"))
        #expect(!String(decoding: out, as: UTF8.self).contains("secret"))
        #expect(screen.lines[0].hasPrefix("a␛]52;c;aGk=␇ b␛[2J"))
        #expect(screen.unexpected.isEmpty)
    }
}

/// A terminal that runs `action` once the clock reaches `time` (to change its size).
final class ResizingTerminal: TerminalDevice {
    let inner: ScriptedTerminal
    let time: Double
    var action: (() -> Void)?

    init(_ inner: ScriptedTerminal, at time: Double, _ action: @escaping () -> Void) {
        self.inner = inner
        self.time = time
        self.action = action
    }

    func size() throws(TerminalError) -> TerminalSize { try inner.size() }
    func write(_ bytes: [UInt8]) throws(TerminalError) { try inner.write(bytes) }
    func suspend() throws(TerminalError) { try inner.suspend() }
    func waitForEvents(timeout: Double?) throws(TerminalError) -> [DeviceEvent] {
        let events = try inner.waitForEvents(timeout: timeout)
        if inner.clock.now() >= time, let a = action {
            a()
            action = nil
        }
        return events
    }
}
