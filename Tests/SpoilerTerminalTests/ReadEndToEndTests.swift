import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler read` in a real terminal emulator (tmux, as in ``PlayEndToEndTests``): what
/// a user sees on the screen, keys and clicks sent with `send-keys`.
@Suite(.serialized) struct ReadEndToEndTests {
    /// 40 lines; line 05 ends with a hidden word.
    static let document = (0..<40).map { i in
        let n = i < 10 ? "0\(i)" : "\(i)"
        return i == 5 ? "line \(n) says ||swordfish||" : "line \(n) of the log"
    }.joined(separator: "\n")

    typealias Tmux = PlayEndToEndTests.Tmux

    /// Starts `spoiler read` on the document and waits for its first frame.
    static func start(_ t: Tmux, _ extra: String = "") throws -> String {
        try t.type("bash -c '\(spoilerBinary().path) read \(extra) \(t.messageFile.path); echo \"exit=$?\"'")
        try t.press("Enter")
        let screen = try t.waitUntil("the first frame") { $0.contains("line 00") && $0.contains("0%") }
        #expect(try t.format("#{alternate_on}") == "1")
        return screen
    }

    /// The last row of the screen, trailing blanks removed.
    static func bottom(_ screen: String) -> String {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
        let last = rows.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
        return String(last.reversed().drop { $0 == " " }.reversed())
    }

    static func top(_ screen: String) -> String {
        String(screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }

    @Test func theBarShowsProgressScrollingMovesItAndQRestores() throws {
        // 60 × 12: 11 rows of text, the document scrolls over 40 − 11 = 29 rows.
        let t = try Tmux(width: 60, height: 12, message: ReadEndToEndTests.document)
        let first = try ReadEndToEndTests.start(t)
        #expect(ReadEndToEndTests.top(first) == "  line 00 of the log")
        #expect(ReadEndToEndTests.bottom(first).hasPrefix("   0% ░░░"))
        #expect(!first.contains("swordfish"))
        try t.press("PageDown")
        // A page is 10 rows: 10/29 = 34 %.
        let paged = try t.waitUntil("a page down") { ReadEndToEndTests.top($0).hasPrefix("  line 10") }
        #expect(ReadEndToEndTests.bottom(paged).hasPrefix("  34% ███"))
        try t.type("j")
        try t.waitUntil("a line down") {
            ReadEndToEndTests.top($0).hasPrefix("  line 11") && ReadEndToEndTests.bottom($0).hasPrefix("  37% ")
        }
        try t.press("End")
        let end = try t.waitUntil("the end, with the button") { ReadEndToEndTests.bottom($0).hasSuffix("[↑]") }
        #expect(ReadEndToEndTests.bottom(end).hasPrefix(" 100% ███"))
        #expect(end.contains("line 39"))
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func gGlidesToTheTopAndTheBarShrinksWhenIdle() throws {
        let t = try Tmux(width: 60, height: 12, message: ReadEndToEndTests.document)
        _ = try ReadEndToEndTests.start(t)
        try t.press("End")
        try t.waitUntil("the end") { ReadEndToEndTests.bottom($0).hasPrefix(" 100% ") }
        let started = Date()
        try t.type("g")
        // On the way up, the screen passes through rows in between.
        var between = false
        let top = try t.waitUntil("back at the top") { s in
            let line = ReadEndToEndTests.top(s)
            if !line.hasPrefix("  line 29") && !line.hasPrefix("  line 00") { between = true }
            return line.hasPrefix("  line 00")
        }
        let took = Date().timeIntervalSince(started)
        #expect(between, "no frame in between: a jump, not a glide")
        #expect(took > 1.2, "the glide took \(took) s")
        #expect(ReadEndToEndTests.bottom(top).hasPrefix("   0% "))
        // Left alone for 3 s, the bar becomes the wheel at the lower right.
        let idle = try t.waitUntil("the wheel") { s in
            let b = ReadEndToEndTests.bottom(s)
            return !b.contains("░") && b.hasSuffix("0%")
        }
        #expect(ReadEndToEndTests.bottom(idle).trimmingCharacters(in: .whitespaces).count <= 12)
        // A key brings the bar back.
        try t.type("j")
        try t.waitUntil("the bar back") { ReadEndToEndTests.bottom($0).contains("░") }
        try t.press("C-c")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func aClickRevealsTheHiddenWordAndTheButtonGoesUp() throws {
        let t = try Tmux(width: 60, height: 12, message: ReadEndToEndTests.document)
        _ = try ReadEndToEndTests.start(t, "--theme amber")
        // "line 05 says swordfish": the word at text columns 13–21, screen 15–23 (0-based),
        // on row 5; SGR mouse columns and rows are 1-based.
        try t.sendBytes("\u{1B}[<0;18;6M\u{1B}[<0;18;6m")
        try t.waitUntil("swordfish revealed") { $0.contains("line 05 says swordfish") }
        try t.press("End")
        try t.waitUntil("the end") { ReadEndToEndTests.bottom($0).hasSuffix("[↑]") }
        // "[↑]" is at columns 56–58 of the last row (row 12): click its middle.
        try t.sendBytes("\u{1B}[<0;58;12M\u{1B}[<0;58;12m")
        try t.waitUntil("back at the top") { ReadEndToEndTests.top($0).hasPrefix("  line 00") }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func aSignalRestoresTheTerminal() throws {
        let t = try Tmux(width: 60, height: 12, message: ReadEndToEndTests.document)
        _ = try ReadEndToEndTests.start(t)
        let pid = try t.playPID()
        let kill = try spawnAndWait("/bin/kill", ["-TERM", "\(pid)"])
        #expect(kill.status == 0)
        try t.expectRestored(exitStatus: "143")
    }
}
