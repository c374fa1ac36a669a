import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The reader (the player with ``PlayerOptions/reader``) in-process: a scripted
/// terminal, a manual clock, and a screen model of everything written.
@Suite struct ReaderTests {
    /// 40 lines, "line 00" … "line 39"; line 2 ends with the hidden "pineapple", line 30
    /// with the hidden "mandarin".
    static let document: Message = {
        var text = ""
        var entities: [Entity] = []
        for i in 0..<40 {
            if i > 0 { text += "\n" }
            text += "line " + (i < 10 ? "0\(i)" : "\(i)")
            if i == 2 || i == 30 {
                text += " has "
                entities.append(Entity(.spoiler, offset: text.utf16.count, length: i == 2 ? 9 : 8))
                text += i == 2 ? "pineapple" : "mandarin"
            }
        }
        return Message(text: text, entities: entities)
    }()

    /// A screen 40 × 10: nine rows of text between margins of 2, the bar on row 9; the
    /// document scrolls over 40 − 9 = 31 rows.
    static let size = TerminalSize(columns: 40, rows: 10)

    static func reader(
        _ message: Message = document, theme: ReaderTheme = .green, capability: ColorCapability = .trueColor,
        sceneOptions: SceneOptions = SceneOptions(), frameRate: FrameRate = 30
    ) -> Player {
        let reader = ReaderOptions(theme: theme)
        var frame = ANSIFrameOptions(capability: capability)
        frame.textStyle = theme.textStyle(capability)
        var options = PlayerOptions(frame: frame)
        options.reader = reader
        options.showsHelp = false
        options.frameRate = frameRate
        return Player(
            size: size, options: options,
            layout: { size in LayoutEngine(wrapWidth: reader.textWidth(columns: size.columns)).layout(message) },
            scene: { layout in
                SpoilerScene(
                    words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, options: sceneOptions, seed: 1)
            })
    }

    static func keys(_ s: String) -> DeviceEvent { .input(Array(s.utf8)) }
    /// A left click at the 0-based cell (`column`, `row`), as an SGR press and release.
    static func click(_ column: Int, _ row: Int) -> DeviceEvent {
        keys("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m")
    }

    /// Runs the script; returns the exit, the terminal and the final screen.
    static func read(_ player: Player, _ script: [(Double, DeviceEvent)]) throws -> (
        PlayerExit, TimedTerminal, ANSIScreen
    ) {
        let terminal = TimedTerminal(ScriptedTerminal(size: size, script: script))
        let exit = try player.run(on: terminal, clock: terminal.inner.clock)
        var screen = ANSIScreen(width: size.columns, height: size.rows)
        screen.apply(terminal.inner.output)
        return (exit, terminal, screen)
    }

    /// The bottom row, without its trailing blanks.
    static func bar(_ screen: ANSIScreen) -> String {
        String(screen.lines[size.rows - 1].reversed().drop { $0 == " " }.reversed())
    }

    @Test func theTextSitsBetweenMarginsAboveTheBar() throws {
        let (exit, _, screen) = try ReaderTests.read(ReaderTests.reader(), [(0.5, ReaderTests.keys("q"))])
        #expect(exit == .quit)
        #expect(screen.lines[0] == "  line 00" + String(repeating: " ", count: 31))
        #expect(screen.lines[8].hasPrefix("  line 08"))
        #expect(ReaderTests.bar(screen) == "   0% " + String(repeating: "░", count: 29))
        #expect(screen.unexpected.isEmpty, "\(screen.unexpected)")
        // Green on near-black everywhere, the bar on its own background.
        #expect(screen[2, 0].pen.foreground == "#4af626")
        #expect(screen[0, 0].pen.background == "#050a06" && screen[39, 8].pen.background == "#050a06")
        #expect(screen[0, 9].pen.background == "#0c1a0e")
    }

    @Test func keysScrollAndThePercentageFollows() throws {
        // j: one row (1/31 = 3 %); space: a page of 8 (9/31 = 29 %); k: back one (8/31 = 25 %).
        let steps: [(String, String, String)] = [
            ("j", "line 01", "3%"), (" ", "line 09", "29%"), ("k", "line 08", "25%"),
            ("\u{1B}[6~", "line 16", "51%"), ("\u{1B}[5~", "line 08", "25%"), ("b", "line 00", "0%"),
            ("\u{1B}[B", "line 01", "3%"), ("\u{1B}[A", "line 00", "0%"), ("\u{1B}[F", "line 31", "100%"),
            ("\u{1B}[H", "line 00", "0%"), ("G", "line 31", "100%"),
        ]
        var script: [(Double, DeviceEvent)] = []
        for (i, step) in steps.enumerated() { script.append((0.1 * Double(i + 1), ReaderTests.keys(step.0))) }
        // Check after each step by replaying the script up to it.
        for n in 1...steps.count {
            let (_, _, screen) = try ReaderTests.read(
                ReaderTests.reader(), Array(script.prefix(n)) + [(2.0, ReaderTests.keys("q"))])
            let step = steps[n - 1]
            #expect(screen.lines[0].hasPrefix("  " + step.1), "after \(n) keys: \(screen.lines[0])")
            #expect(
                ReaderTests.bar(screen).hasPrefix(String(repeating: " ", count: 5 - step.2.count) + step.2 + " "),
                "after \(n) keys: \(ReaderTests.bar(screen))")
        }
    }

    @Test func theWheelScrollsThreeRows() throws {
        let (_, _, screen) = try ReaderTests.read(
            ReaderTests.reader(),
            [
                (0.1, ReaderTests.keys("\u{1B}[<65;5;5M")), (0.2, ReaderTests.keys("\u{1B}[<65;5;5M")),
                (0.3, ReaderTests.keys("\u{1B}[<64;5;5M")), (0.5, ReaderTests.keys("q")),
            ])
        #expect(screen.lines[0].hasPrefix("  line 03"))
        #expect(ReaderTests.bar(screen).hasPrefix("   9% "))
    }

    @Test func theBarShrinksToTheWheelAfterThreeSecondsAndComesBackOnInput() throws {
        let player = ReaderTests.reader()
        let (_, terminal, idle) = try ReaderTests.read(
            player, [(0.5, ReaderTests.keys("j")), (3.49, ReaderTests.keys("q"))])
        // Up to 3.49 s (2.99 s after the key) still the bar; the q is not drawn.
        #expect(terminal.times.last! < 3.49)
        #expect(ReaderTests.bar(idle).contains("░"))
        let (_, _, shrunk) = try ReaderTests.read(
            ReaderTests.reader(), [(0.5, ReaderTests.keys("j")), (3.6, ReaderTests.keys("q"))])
        #expect(!ReaderTests.bar(shrunk).contains("░"))
        #expect(ReaderTests.bar(shrunk) == String(repeating: " ", count: 32) + "⢎⡱   3%")
        let (_, _, back) = try ReaderTests.read(
            ReaderTests.reader(),
            [(0.5, ReaderTests.keys("j")), (5.0, ReaderTests.keys("j")), (5.1, ReaderTests.keys("q"))])
        #expect(ReaderTests.bar(back).hasPrefix("   6% ░") || ReaderTests.bar(back).hasPrefix("   6% █"))
    }

    @Test func withNothingMovingAndTheBarShrunkNothingIsWritten() throws {
        let plain = Message(text: (0..<30).map { "row \($0)" }.joined(separator: "\n"), entities: [])
        let player = ReaderTests.reader(plain)
        let (exit, terminal, screen) = try ReaderTests.read(player, [(1.0, ReaderTests.keys("j"))])
        // The script ends: the reader waits with no timeout once the bar has shrunk.
        #expect(exit == .endOfInput)
        #expect(terminal.inner.clock.now() == 4.0, "woke once, at 3 s after the key")
        #expect(terminal.times == [0, 1, 4], "the first frame, the key, the shrink")
        #expect(terminal.inner.waits == 3)
        #expect(ReaderTests.bar(screen).hasSuffix("4%"))
    }

    @Test func dustOffTheScreenDoesNotKeepTheReaderAwake() throws {
        // Only line 30's word is hidden: at the top nothing moves on the screen.
        var message = ReaderTests.document
        message.entities.removeFirst()
        let player = ReaderTests.reader(message)
        let (exit, terminal, _) = try ReaderTests.read(player, [(100, ReaderTests.keys("q"))])
        #expect(exit == .quit)
        #expect(terminal.times == [0, 3], "the first frame and the shrink")
        #expect(player.framesBuilt == 2)
        #expect(terminal.inner.waits == 2, "until the shrink, then without a timeout until q")
        // Scrolled to the word, the dust moves at the frame rate; back at the top it stops.
        let awake = ReaderTests.reader(message)
        let (_, _, _) = try ReaderTests.read(
            awake, [(0.1, ReaderTests.keys("G")), (1.1, ReaderTests.keys("\u{1B}[H")), (2.0, ReaderTests.keys("q"))])
        #expect((28...34).contains(awake.framesBuilt), "\(awake.framesBuilt) frames")
        // After a long time away the dust goes on from where it was, not caught up.
        let later = ReaderTests.reader(message)
        let (_, _, screen) = try ReaderTests.read(
            later,
            [(1000, ReaderTests.keys("G")), (1000.1, ReaderTests.keys("k")), (1000.5, ReaderTests.keys("q"))])
        #expect(later.currentScene.time < 5, "\(later.currentScene.time) s of scene time")
        #expect(screen.lines[0].hasPrefix("  line 30 has "), "\(screen.lines.joined(separator: "\n"))")
        #expect(screen.lines[0].contains { (0x2801...0x28FF).contains($0.unicodeScalars.first!.value) }, "dust")
    }

    @Test func aResizeWhileTheDustWaitsDoesNotReplayTheTimeBefore() throws {
        // Dust in view for 200 s (at 1 frame a second), then off the screen; a resize
        // makes a new scene, which must start fresh when the dust is back in view.
        var message = ReaderTests.document
        message.entities.removeLast()
        let player = ReaderTests.reader(message, frameRate: 1)
        let (_, _, screen) = try ReaderTests.read(
            player,
            [
                (200, ReaderTests.keys("G")), (210, .resized), (220, ReaderTests.keys("\u{1B}[H")),
                (221, ReaderTests.keys("q")),
            ])
        #expect(player.currentScene.time < 5, "\(player.currentScene.time) s of scene time")
        #expect(screen.lines[2].hasPrefix("  line 02 has "))
        #expect(!screen.lines[2].contains("pineapple"))
    }

    /// 300 lines, every tenth ending with a hidden "kumquat".
    static let long: Message = {
        var text = ""
        var entities: [Entity] = []
        for i in 0..<300 {
            if i > 0 { text += "\n" }
            text += "row \(i)"
            if i % 10 == 2 {
                text += " has "
                entities.append(Entity(.spoiler, offset: text.utf16.count, length: 7))
                text += "kumquat"
            }
        }
        return Message(text: text, entities: entities)
    }()

    @Test func aLongDocumentAnimatesOnlyTheDustNearTheScreen() throws {
        let player = ReaderTests.reader(ReaderTests.long)
        // Reveal row 2's word, go to the end and back: it is still revealed.
        let (_, _, screen) = try ReaderTests.read(
            player,
            [
                (0.2, ReaderTests.click(12, 2)), (1.5, ReaderTests.keys("\u{1B}[F")), (1.6, ReaderTests.keys("q")),
            ])
        let particles = player.currentScene.particles.y
        #expect(!particles.isEmpty)
        // At the end (rows 291–299), only words within a screen of it have dust.
        #expect(particles.allSatisfy { $0 >= Float(291 - 9) * 16 }, "\(particles.min() ?? 0)")
        #expect(screen.lines[1].hasPrefix("  row 292 has "))
        let (_, _, back) = try ReaderTests.read(
            ReaderTests.reader(ReaderTests.long),
            [
                (0.2, ReaderTests.click(12, 2)), (1.5, ReaderTests.keys("\u{1B}[F")),
                (1.6, ReaderTests.keys("\u{1B}[H")), (2.0, ReaderTests.keys("q")),
            ])
        #expect(back.lines[2].hasPrefix("  row 2 has kumquat"))
        let start = ReaderTests.reader(ReaderTests.long)
        _ = try ReaderTests.read(start, [(0.5, ReaderTests.keys("q"))])
        #expect(start.currentScene.particles.y.allSatisfy { $0 < Float(30 * 16) })
    }

    @Test func gGlidesBackToTheTopWithEaseInOut() throws {
        let player = ReaderTests.reader(sceneOptions: ReaderTests.still)
        let (_, terminal, screen) = try ReaderTests.read(
            player, [(0.1, ReaderTests.keys("G")), (0.5, ReaderTests.keys("g")), (3.0, ReaderTests.keys("q"))])
        #expect(screen.lines[0].hasPrefix("  line 00"))
        #expect(player.firstVisibleRow == 0)
        // The first visible line after each frame, with the frame's time.
        let rows = terminal.firstLines(size: ReaderTests.size).filter { $0.time >= 0.5 && $0.time <= 2.5 }
        let values = rows.map(\.row)
        for (a, b) in zip(values, values.dropFirst()) { #expect(b <= a, "\(values)") }
        #expect(values.first == 31)
        #expect(values.last == 0)
        // Slow start, slow end: little movement in the first and last 0.2 s.
        let early = rows.last { $0.time <= 0.7 }!.row
        let late = rows.first { $0.time >= 1.8 }!.row
        #expect(early >= 29, "\(rows)")
        #expect(late <= 2, "\(rows)")
        // Half way at half time.
        let middle = rows.last { $0.time <= 1.25 + 1e-9 }!.row
        #expect((13...18).contains(middle), "\(rows)")
        // At the top 1.5 s after the key, not before.
        let arrival = rows.first { $0.row == 0 }!.time
        #expect(arrival > 1.9 && arrival < 2.05, "\(rows)")
    }

    /// No particles: frames only while the glide runs.
    static var still: SceneOptions {
        var o = SceneOptions()
        o.reducedMotion = false
        o.density = 0
        return o
    }

    @Test func theUpButtonShowsAtTheEndAndAClickOnItGoesToTheTop() throws {
        let (_, _, end) = try ReaderTests.read(
            ReaderTests.reader(), [(0.1, ReaderTests.keys("\u{1B}[F")), (0.5, ReaderTests.keys("q"))])
        #expect(ReaderTests.bar(end) == " 100% " + String(repeating: "█", count: 29) + " [↑]")
        let (_, _, before) = try ReaderTests.read(
            ReaderTests.reader(), [(0.1, ReaderTests.keys("k")), (0.5, ReaderTests.keys("q"))])
        #expect(!ReaderTests.bar(before).contains("↑"))
        // The button is at columns 36–38 of the bottom row.
        let player = ReaderTests.reader()
        let (_, _, top) = try ReaderTests.read(
            player,
            [(0.1, ReaderTests.keys("\u{1B}[F")), (0.5, ReaderTests.click(37, 9)), (2.2, ReaderTests.keys("q"))])
        #expect(top.lines[0].hasPrefix("  line 00"))
        #expect(ReaderTests.bar(top).hasPrefix("   0% "))
        // A click on the bar away from the button does nothing.
        let (_, _, missed) = try ReaderTests.read(
            ReaderTests.reader(),
            [(0.1, ReaderTests.keys("\u{1B}[F")), (0.5, ReaderTests.click(20, 9)), (2.2, ReaderTests.keys("q"))])
        #expect(missed.lines[0].hasPrefix("  line 31"))
    }

    @Test func theUpButtonBesideTheWheelWorksToo() throws {
        // At the end, idle: "[↑] ⢎⡱ 100%" at the right; the button at columns 28–30.
        let (_, _, idle) = try ReaderTests.read(
            ReaderTests.reader(), [(0.1, ReaderTests.keys("\u{1B}[F")), (4.0, ReaderTests.keys("q"))])
        #expect(ReaderTests.bar(idle).hasSuffix("[↑] ⢎⡱ 100%"))
        let (_, _, top) = try ReaderTests.read(
            ReaderTests.reader(),
            [(0.1, ReaderTests.keys("\u{1B}[F")), (4.0, ReaderTests.click(29, 9)), (6.0, ReaderTests.keys("q"))])
        #expect(top.lines[0].hasPrefix("  line 00"))
    }

    @Test func aClickRevealsTheHiddenWordAndHiddenTextNeverShowsBefore() throws {
        // Line 2 is "line 02 has pineapple": the word at text columns 12–20, screen 14–22.
        let (_, terminal, screen) = try ReaderTests.read(
            ReaderTests.reader(),
            [
                (0.3, ReaderTests.keys("j")), (0.6, ReaderTests.keys("k")), (1.0, ReaderTests.click(16, 2)),
                (2.5, ReaderTests.keys("q")),
            ])
        #expect(screen.lines[2].hasPrefix("  line 02 has pineapple"))
        // Everything written before the click, and the other word ever, keeps them out.
        let outputBefore = terminal.writes.filter { $0.time < 1.0 }.flatMap(\.bytes)
        #expect(!String(decoding: outputBefore, as: UTF8.self).contains("pineapple"))
        #expect(!String(decoding: outputBefore, as: UTF8.self).contains("pine"))
        #expect(!String(decoding: terminal.inner.output, as: UTF8.self).contains("mandarin"))
    }

    @Test func scrollingThroughTheWholeDocumentNeverShowsHiddenText() throws {
        var script: [(Double, DeviceEvent)] = []
        for i in 0..<40 { script.append((0.05 * Double(i + 1), ReaderTests.keys("j"))) }
        for i in 0..<40 { script.append((2.05 + 0.05 * Double(i), ReaderTests.keys("k"))) }
        script.append((4.2, ReaderTests.keys("G")))
        script.append((4.3, ReaderTests.keys("g")))
        script.append((6.5, ReaderTests.keys("q")))
        let (_, terminal, screen) = try ReaderTests.read(ReaderTests.reader(), script)
        // The whole document went by, and no frame showed a hidden word or wrote it.
        let rows = terminal.firstLines(size: ReaderTests.size).map(\.row)
        #expect(rows.max() == 31 && rows.last == 0)
        var replay = ANSIScreen(width: ReaderTests.size.columns, height: ReaderTests.size.rows)
        var shown = false
        for w in terminal.writes {
            replay.apply(w.bytes)
            let all = replay.lines.joined(separator: "\n")
            if all.contains("apple") || all.contains("darin") { shown = true }
        }
        #expect(!shown)
        let text = String(decoding: terminal.inner.output, as: UTF8.self)
        let leaked = text.contains("apple") || text.contains("darin")
        #expect(!leaked)
        #expect(screen.unexpected.isEmpty)
    }

    @Test func revealAllHideAllAndQuitKeys() throws {
        let (_, _, revealed) = try ReaderTests.read(
            ReaderTests.reader(), [(0.1, ReaderTests.keys("r")), (1.5, ReaderTests.keys("q"))])
        #expect(revealed.lines[2].hasPrefix("  line 02 has pineapple"))
        let (_, _, hidden) = try ReaderTests.read(
            ReaderTests.reader(),
            [(0.1, ReaderTests.keys("r")), (1.5, ReaderTests.keys("h")), (3.0, ReaderTests.keys("q"))])
        #expect(!hidden.lines[2].contains("pineapple"))
        for quit in ["q", "\u{03}", "\u{1B}"] {
            let (exit, _, _) = try ReaderTests.read(ReaderTests.reader(), [(0.2, ReaderTests.keys(quit))])
            #expect(exit == .quit, "\(quit.unicodeScalars.first!.value)")
        }
    }

    @Test func tabAndEnterRevealInTurnAndScrollToTheWord() throws {
        let (_, _, screen) = try ReaderTests.read(
            ReaderTests.reader(),
            [
                (0.1, ReaderTests.keys("\t")), (0.2, ReaderTests.keys("\t")), (0.3, ReaderTests.keys("\r")),
                (2.0, ReaderTests.keys("q")),
            ])
        // The second word, on line 30, scrolled into view and revealed.
        #expect(
            screen.lines.contains { $0.hasPrefix("  line 30 has mandarin") }, "\(screen.lines.joined(separator: "\n"))")
        #expect(!screen.lines.joined().contains("pineapple"))
    }
}
