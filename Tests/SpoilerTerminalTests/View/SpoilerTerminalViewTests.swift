import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The host-driven view as a TUI embeds it: the host has its own screen (an
/// ``ANSIScreen`` here), places views in rectangles of it, drives them by its own clock,
/// forwards clicks in its own coordinates, and applies the bytes they give back.
@Suite struct SpoilerTerminalViewTests {
    /// "the code is swordfish ok", "swordfish" hidden (columns 12–20).
    static let message = Message(
        text: "the code is swordfish ok", entities: [Entity(.spoiler, offset: 12, length: 9)])

    /// A host screen 80 × 6 filled with `#`, so that any cell a view writes outside its
    /// rectangle shows.
    static func hostScreen() -> ANSIScreen {
        var screen = ANSIScreen(width: 80, height: 6)
        screen.apply(Array(String(repeating: "#", count: 80 * 6).utf8))
        return screen
    }

    static func view(at column: Int, _ row: Int, size: TerminalSize = TerminalSize(columns: 30, rows: 3))
        -> SpoilerTerminalView
    {
        var view = SpoilerTerminalView(message: message, size: size)
        view.originColumn = column
        view.originRow = row
        return view
    }

    /// The text of `screen`'s row `row`, columns `columns`.
    static func text(_ screen: ANSIScreen, row: Int, _ columns: Range<Int>) -> String {
        columns.map { screen[$0, row].text }.joined()
    }

    @Test func twoViewsSideBySideAClickRevealsOnlyTheOneClicked() throws {
        var screen = SpoilerTerminalViewTests.hostScreen()
        var left = SpoilerTerminalViewTests.view(at: 2, 1)
        var right = SpoilerTerminalViewTests.view(at: 42, 2)
        var leftBytes: [UInt8] = []
        var rightBytes: [UInt8] = []
        for t in stride(from: 0.0, through: 2.0, by: 1.0 / 30) {
            if abs(t - 0.2) < 1e-9 {
                // A click on "swordfish" of the right view, in host coordinates.
                let click = InputEvent.mouse(MouseEvent(kind: .press, button: 0, column: 42 + 15, row: 2))
                let leftResponse = left.handle(click, at: t)
                #expect(leftResponse == .ignored)
                let rightResponse = right.handle(click, at: t)
                #expect(rightResponse == .handled)
            }
            var bytes: [UInt8] = []
            left.encodeFrame(at: t, into: &bytes)
            leftBytes += bytes
            screen.apply(bytes)
            bytes.removeAll()
            right.encodeFrame(at: t, into: &bytes)
            rightBytes += bytes
            screen.apply(bytes)
        }
        #expect(SpoilerTerminalViewTests.text(screen, row: 2, 42..<72).hasPrefix("the code is swordfish ok"))
        #expect(SpoilerTerminalViewTests.text(screen, row: 1, 2..<32).hasPrefix("the code is "))
        #expect(!SpoilerTerminalViewTests.text(screen, row: 1, 2..<32).contains("swordfish"))
        #expect(!String(decoding: leftBytes, as: UTF8.self).contains("sword"))
        #expect(right.isRevealed(word: 0) && !left.isRevealed(word: 0))
        // The left view's dust still covers its hidden word.
        let dots = (14...22).filter { (0x2801...0x28FF).contains(screen[$0, 1].text.unicodeScalars.first!.value) }
        #expect(!dots.isEmpty)
        #expect(screen.unexpected.isEmpty)
    }

    @Test func nothingIsDrawnOutsideTheRectangle() throws {
        var screen = SpoilerTerminalViewTests.hostScreen()
        var view = SpoilerTerminalViewTests.view(at: 10, 2, size: TerminalSize(columns: 20, rows: 2))
        for t in stride(from: 0.0, through: 1.0, by: 0.1) {
            var bytes: [UInt8] = []
            view.encodeFrame(at: t, into: &bytes)
            screen.apply(bytes)
            #expect(!String(decoding: bytes, as: UTF8.self).contains("\u{1B}[2J"), "no screen clear")
        }
        for row in 0..<6 {
            for column in 0..<80 where !(10..<30).contains(column) || !(2..<4).contains(row) {
                #expect(screen[column, row].text == "#", "cell \(column), \(row) was overwritten")
            }
        }
        // Inside, every cell was written: the text, blanks included.
        #expect(SpoilerTerminalViewTests.text(screen, row: 2, 10..<22) == "the code is ")
        #expect(!SpoilerTerminalViewTests.text(screen, row: 3, 10..<30).contains("#"))
    }

    @Test func theCellsAreTheRectanglesOnly() throws {
        var view = SpoilerTerminalViewTests.view(at: 40, 3)
        let cells = view.frame(at: 0)
        #expect(cells.width == 30 && cells.height == 3)
        #expect(cells.lines[0].hasPrefix("the code is "))
    }

    @Test func aResizeKeepsTheReveal() throws {
        var view = SpoilerTerminalViewTests.view(at: 0, 0)
        let revealed = view.click(column: 15, row: 0, at: 0.1)
        #expect(revealed)
        _ = view.frame(at: 1.5)
        view.resize(to: TerminalSize(columns: 12, rows: 4), at: 2)
        let cells = view.frame(at: 2.05)
        #expect(cells.lines[0] == "the code is ")
        #expect(cells.lines[1].hasPrefix("swordfish ok"))
        #expect(view.isRevealed(word: 0))
        // The old dust under the revealed word dies out, and then nothing moves.
        _ = view.frame(at: 4)
        #expect(!view.needsFrames(at: 4))
    }

    @Test func aHitTestFindsTheWordUnderACell() throws {
        let view = SpoilerTerminalViewTests.view(at: 5, 1)
        #expect(view.word(atColumn: 5 + 12, row: 1)?.entity == 0)
        #expect(view.word(atColumn: 5 + 12, row: 1)?.isHidden == true)
        #expect(view.word(atColumn: 5 + 11, row: 1) == nil)
        #expect(view.word(atColumn: 5 + 12, row: 2) == nil)
    }

    @Test func aPixelClickRevealsAndNothingMovesOnceAllIsShown() throws {
        var view = SpoilerTerminalViewTests.view(at: 0, 0)
        #expect(view.needsFrames(at: 0))
        // Pixel (14 × 8 + 3, 5): inside "swordfish" in 8 × 16 cells.
        let revealed = view.click(pixelX: 14 * 8 + 3, pixelY: 5, at: 0.1)
        #expect(revealed)
        _ = view.frame(at: 3)
        #expect(!view.needsFrames(at: 3))
        #expect(view.lastFrame.lines[0].hasPrefix("the code is swordfish ok"))
        view.hideAll(at: 3)
        #expect(view.needsFrames(at: 3.1))
    }

    @Test func aClickRevealsTheWholeSpoilerByDefault() throws {
        let butler = Message(text: "the butler did it", entities: [Entity(.spoiler, offset: 0, length: 10)])
        var view = SpoilerTerminalView(message: butler, size: TerminalSize(columns: 30, rows: 2))
        let revealed = view.click(column: 1, row: 0, at: 0)
        #expect(revealed)
        let cells = view.frame(at: 2)
        #expect(cells.lines[0].hasPrefix("the butler did it"))
        // With the word scope only "the" shows.
        var options = SceneOptions()
        options.revealScope = .word
        var one = SpoilerTerminalView(message: butler, size: TerminalSize(columns: 30, rows: 2), sceneOptions: options)
        let revealedOne = one.click(column: 1, row: 0, at: 0)
        #expect(revealedOne)
        let line = one.frame(at: 2).lines[0]
        #expect(line.hasPrefix("the ") && !line.contains("butler"))
    }
}
