import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The reader's themes, control characters and rewrapping on resize.
extension ReaderTests {
    @Test(arguments: [("amber", "#ffb000", "#0c0802"), ("mono", "default", "default")])
    func themesColourTheTextAndBackground(name: String, foreground: String, background: String) throws {
        let theme = ReaderTheme.builtIn[name]!
        let (_, _, screen) = try ReaderTests.read(ReaderTests.reader(theme: theme), [(0.2, ReaderTests.keys("q"))])
        #expect(screen[2, 0].pen.foreground == foreground)
        #expect(screen[0, 0].pen.background == background)
        #expect(ReaderTests.bar(screen).hasPrefix("   0% ░"))
        // No colour at all (NO_COLOR) with the green theme: the terminal's colours.
        let (_, terminal, plain) = try ReaderTests.read(
            ReaderTests.reader(capability: .none), [(0.2, ReaderTests.keys("q"))])
        #expect(plain[2, 0].pen.foreground == "default" && plain[0, 9].pen.background == "default")
        #expect(!String(decoding: terminal.inner.output, as: UTF8.self).contains("38;"))
    }

    @Test func controlCharactersInTheTextAreShownAsSymbols() throws {
        let hostile = Message(
            text: "a\u{1B}]52;c;aGk=\u{07} b\u{1B}[2J \u{202E}c secret\nmore",
            entities: [Entity(.spoiler, offset: 22, length: 6)])
        let (_, terminal, screen) = try ReaderTests.read(ReaderTests.reader(hostile), [(0.2, ReaderTests.keys("q"))])
        let out = terminal.inner.output
        #expect(!out.contains(0x07))
        for (i, b) in out.enumerated() where b == 0x1B { #expect(out[i + 1] == UInt8(ascii: "[")) }
        #expect(!String(decoding: out, as: UTF8.self).contains("\u{202E}"))
        #expect(!String(decoding: out, as: UTF8.self).contains("secret"))
        #expect(screen.lines[0].hasPrefix("  a␛]52;c;aGk=␇ b␛[2J"))
        #expect(screen.unexpected.isEmpty)
    }

    @Test func aResizeRewrapsToTheNewWidthInsideTheMargins() throws {
        let long = Message(text: "alpha beta gamma delta epsilon zeta eta theta iota kappa", entities: [])
        let player = ReaderTests.reader(long)
        let inner = ScriptedTerminal(
            size: ReaderTests.size, script: [(0.5, .resized), (1.0, ReaderTests.keys("q"))])
        var resized = false
        _ = try player.run(
            on: ResizingTerminal(inner, at: 0.5) {
                resized = true
                inner.currentSize = TerminalSize(columns: 20, rows: 10)
            }, clock: inner.clock)
        #expect(resized)
        // 20 columns: margins of 1, text 18 wide.
        #expect(player.lastFrame.lines[0] == " alpha beta gamma   ")
        #expect(player.lastFrame.lines[1].hasPrefix(" delta epsilon"))
    }
}
