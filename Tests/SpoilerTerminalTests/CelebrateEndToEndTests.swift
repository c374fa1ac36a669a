import Foundation
import SpoilerTestSupport
import Testing

/// `--celebrate` in a real terminal (tmux, as in ``PlayEndToEndTests``): confetti after
/// the last reveal, in the rows that hold no text, gone after the preset's lifetime.
@Suite(.serialized) struct CelebrateEndToEndTests {
    typealias Tmux = PlayEndToEndTests.Tmux
    static let confetti: Set<Character> = ["■", "◆", "⬢", "⬣", "★"]

    /// Confetti glyphs on rows `rows` of a screen capture.
    static func pieces(_ screen: String, rows: Range<Int>) -> Int {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        return rows.filter { $0 < lines.count }.map { lines[$0].filter(confetti.contains).count }.reduce(0, +)
    }

    /// No confetti on the screen for a second, looked at five times: gone, not between
    /// two bursts.
    static func expectStaysGone(_ t: Tmux) throws {
        for k in 0..<5 {
            Thread.sleep(forTimeInterval: 0.2)
            let n = pieces(try t.screen(), rows: 0..<12)
            #expect(n == 0, "\(n) pieces back \(Double(k + 1) * 0.2) s after the confetti was gone")
        }
    }

    @Test func playCelebratesTheLastRevealThenStopsAndQRestores() throws {
        let t = try Tmux(width: 60, height: 12)
        try t.startPlay("--celebrate")
        // Before: none, even with the dust moving.
        Thread.sleep(forTimeInterval: 0.3)
        #expect(CelebrateEndToEndTests.pieces(try t.screen(), rows: 0..<12) == 0)
        try t.type("r")
        // Rows 1–10 hold no text (row 0 is the message, row 11 the key help).
        let falling = try t.waitUntil("confetti below the text") {
            $0.contains("the code is swordfish and marmalade") && CelebrateEndToEndTests.pieces($0, rows: 3..<11) >= 3
        }
        #expect(falling.split(separator: "\n").first?.hasPrefix("the code is swordfish and marmalade") == true)
        // Gone after the emission (1.5 s) and the lifetime (7 s) at the latest.
        try t.waitUntil("the confetti gone", timeout: 12) { CelebrateEndToEndTests.pieces($0, rows: 0..<12) == 0 }
        try CelebrateEndToEndTests.expectStaysGone(t)
        #expect(try t.screen().contains("the code is swordfish and marmalade"))
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func readCelebratesTheLastWordOfTheDocument() throws {
        let t = try Tmux(width: 60, height: 12, message: "line 00 of the log\nline 01 says ||swordfish||")
        try t.type("bash -c '\(spoilerBinary().path) read --celebrate \(t.messageFile.path); echo \"exit=$?\"'")
        try t.press("Enter")
        try t.waitUntil("the first frame") { $0.contains("line 00") }
        try t.type("r")
        try t.waitUntil("confetti below the text") {
            $0.contains("swordfish") && CelebrateEndToEndTests.pieces($0, rows: 3..<10) >= 3
        }
        try t.waitUntil("the confetti gone", timeout: 12) { CelebrateEndToEndTests.pieces($0, rows: 0..<12) == 0 }
        try CelebrateEndToEndTests.expectStaysGone(t)
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }
}
