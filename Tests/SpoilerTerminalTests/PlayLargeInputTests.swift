import Foundation
import SpoilerCore
import SpoilerTestSupport
import Testing

/// `spoiler play` of one spoiler of 30,000 words (about 250 KB) in tmux: the first frame
/// comes, and `q` or SIGHUP ends it, within the tests' generous limits (the measured
/// figures are in the README; timings are not checked here).
@Suite(.serialized) struct PlayLargeInputTests {
    static let message: String = {
        var rng = SplitMix64(seed: 7)
        var words: [String] = []
        for _ in 0..<30_000 {
            let n = 3 + Int(rng.next() % 10)
            words.append(String((0..<n).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.next() % 26))) }))
        }
        return "start ||" + words.joined(separator: " ") + "|| end"
    }()

    func start(_ t: PlayEndToEndTests.Tmux) throws {
        try t.type("bash -c '\(spoilerBinary().path) play \(t.messageFile.path); echo \"exit=$?\"'")
        try t.press("Enter")
        let first = try t.waitUntil("the first frame", timeout: 30) { screen in
            screen.contains("start") && screen.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }
        }
        #expect(!first.contains("exit="))
    }

    @Test func theFirstFrameComesAndQQuits() throws {
        let t = try PlayEndToEndTests.Tmux(width: 80, height: 24, message: PlayLargeInputTests.message)
        try start(t)
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    /// End with the player laying the rest out off its loop (past 16 KB here, as past 1 MB
    /// by default): the screen goes to the message's last row once that layout is made,
    /// and `q` quits.
    @Test func endIsLaidOutOffTheLoopAndTheEndComes() throws {
        let t = try PlayEndToEndTests.Tmux(width: 80, height: 24, message: PlayLargeInputTests.message)
        try t.type(
            "bash -c 'SPOILER_BACKGROUND_LAYOUT_BYTES=16384 \(spoilerBinary().path) play \(t.messageFile.path); echo \"exit=$?\"'"
        )
        try t.press("Enter")
        _ = try t.waitUntil("the first frame", timeout: 30) { $0.contains("start") }
        try t.press("End")
        let end = try t.waitUntil("the last row", timeout: 120) { screen in
            screen.split(separator: "\n").contains { $0.hasSuffix(" end") }
        }
        #expect(!end.contains("start"))
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    /// A message past the length at which it is kept a chunk at a time (16 KB here, 1 MB by
    /// default): the first screen has its dust, End shows the last row at once with dust
    /// over its hidden words, `r` shows them, Home goes back to the start.
    @Test func aMessageKeptAChunkAtATimeScrollsAndReveals() throws {
        // Lines of 50 words: chunks of a few kilobytes, cut at line breaks.
        let words = (0..<20_000).map { ($0 % 3 == 0 ? "||h\($0)||" : "w\($0)") + ($0 % 50 == 49 ? "\n" : " ") }
        let message = "start " + words.joined() + "end"
        let t = try PlayEndToEndTests.Tmux(width: 80, height: 24, message: message)
        try t.type(
            "bash -c 'SPOILER_PLAY_CHUNKED=16384 \(spoilerBinary().path) play \(t.messageFile.path); echo \"exit=$?\"'")
        try t.press("Enter")
        func dusty(_ screen: String) -> Bool { screen.unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) } }
        let first = try t.waitUntil("the first frame", timeout: 30) { $0.contains("start") && dusty($0) }
        #expect(!first.contains("h3 "))
        try t.press("End")
        let end = try t.waitUntil("the last row", timeout: 30) { screen in
            screen.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "end" } && dusty(screen)
        }
        #expect(!end.contains("start") && !end.contains("h19998") && end.contains("w19999"))
        try t.type("r")
        let shown = try t.waitUntil("the words revealed", timeout: 30) { $0.contains("h19998") }
        #expect(shown.contains("h19998 w19999"))
        try t.press("Home")
        _ = try t.waitUntil("the start", timeout: 30) { $0.contains("start h0 w1") }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func sighupEndsItAtOnce() throws {
        let t = try PlayEndToEndTests.Tmux(width: 80, height: 24, message: PlayLargeInputTests.message)
        try start(t)
        let kill = try spawnAndWait("/bin/kill", ["-HUP", "\(try t.playPID())"])
        #expect(kill.status == 0)
        try t.expectRestored(exitStatus: "129")
    }
}
