import SpoilerCore
import SpoilerEffect
import SpoilerRender
import SpoilerTerminal
import Testing

/// The view's confetti (``SpoilerTerminalView/Options/celebration``).
@Suite struct SpoilerTerminalViewCelebrationTests {
    static let message = Message(
        text: "the code is swordfish ok", entities: [Entity(.spoiler, offset: 12, length: 9)])
    static let glyphs: Set<UInt32> = [0x25A0, 0x25C6, 0x2B22, 0x2B23, 0x2605]

    static func view(reducedMotion: Bool = false, celebrates: Bool = true) -> SpoilerTerminalView {
        var options = SceneOptions()
        options.reducedMotion = reducedMotion
        return SpoilerTerminalView(
            message: message, size: TerminalSize(columns: 40, rows: 12), sceneOptions: options
        ) { $0.celebration = celebrates ? .confetti : nil }
    }

    /// Confetti glyphs in each row of a frame.
    static func confettiRows(_ canvas: CellCanvas) -> [Int] {
        (0..<canvas.height).map { row in
            (0..<canvas.width).filter { glyphs.contains(canvas[$0, row].symbol) }.count
        }
    }

    @Test func theLastRevealStartsConfettiBelowTheTextThatStopsAndSleeps() {
        var view = SpoilerTerminalViewCelebrationTests.view()
        view.frame(at: 0)
        #expect(SpoilerTerminalViewCelebrationTests.confettiRows(view.lastFrame).allSatisfy { $0 == 0 })
        view.revealAll(at: 1)
        var below = 0
        for k in 1...20 {
            let rows = SpoilerTerminalViewCelebrationTests.confettiRows(view.frame(at: 1 + Double(k) * 0.1))
            below += rows.dropFirst().reduce(0, +)
            // The text's row keeps its text, the spaces between its words too.
            #expect(view.lastFrame.lines[0].hasPrefix(k < 8 ? "the code is " : "the code is swordfish ok"))
        }
        #expect(below > 20, "confetti in the rows below the text: \(below)")
        #expect(view.needsFrames(at: 3))
        // After the lifetime: gone, and nothing moves, so the host may sleep.
        view.frame(at: 1 + 1.5 + 7.1)
        #expect(SpoilerTerminalViewCelebrationTests.confettiRows(view.lastFrame).allSatisfy { $0 == 0 })
        #expect(!view.needsFrames(at: 9.7))
    }

    @Test func withoutTheOptionOrWithReducedMotionNoConfetti() {
        for view0 in [
            SpoilerTerminalViewCelebrationTests.view(celebrates: false),
            SpoilerTerminalViewCelebrationTests.view(reducedMotion: true),
        ] {
            var view = view0
            view.frame(at: 0)
            view.revealAll(at: 1)
            var seen = 0
            for k in 1...10 {
                seen += SpoilerTerminalViewCelebrationTests.confettiRows(view.frame(at: 1 + Double(k) * 0.1))
                    .reduce(0, +)
            }
            #expect(seen == 0)
        }
    }
}
