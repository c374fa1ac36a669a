import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler read` killed while it is busy, in a real terminal emulator (tmux, as in
/// ``PlayEndToEndTests``).
///
/// End in a large Markdown document that opens fenced code in a list item on its first line
/// (`- ```sh`, which the chunk scan does not follow) and has a fence line in its last
/// megabyte parses every chunk up to the end once, on the event loop's thread: the reader is
/// busy for a second or more, and waits in poll(2) for nothing meanwhile. A terminating
/// signal must still end it at once, with the terminal restored, and not once the work is
/// done. Each test first measures that busy period without a signal, in the same pane, and
/// holds the exit to a quarter of it.
@Suite(.serialized) struct ReadBusySignalEndToEndTests {
    typealias Tmux = PlayEndToEndTests.Tmux

    /// A Markdown document that keeps the reader busy after End, in a temporary directory of
    /// its own that `deinit` removes (with anything else put there).
    final class BusyDocument {
        let directory: URL
        let file: URL

        /// About `megabytes` MB: `- ```sh`, then paragraphs of shell lines with a spoiler
        /// each, then a fence line and one more line near the end.
        init(megabytes: Int) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "spoiler-busy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            file = directory.appendingPathComponent("busy.md")
            let paragraph = String(repeating: "echo step of the long script ||x||\n", count: 20) + "\n"
            let block = Data(String(repeating: paragraph, count: (1 << 20) / paragraph.utf8.count).utf8)
            try #require(FileManager.default.createFile(atPath: file.path, contents: nil))
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.write(contentsOf: Data("- ```sh\n".utf8))
            for _ in 0..<megabytes { try handle.write(contentsOf: block) }
            try handle.write(contentsOf: Data("```\n\nthe end of the script ||done||\n".utf8))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    /// The fields of `/proc/PID/stat` after the command's name (the state first), or nil
    /// once the process is gone.
    static func stat(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ")
    }

    /// Whether `pid` still runs: it exists and is not a zombie waiting for its parent.
    static func isRunning(_ pid: Int32) -> Bool {
        guard let fields = stat(pid), let state = fields.first else { return false }
        return state != "Z" && state != "X"
    }

    /// The CPU time `pid` has used (user + system, all threads), in seconds.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let fields = stat(pid), fields.count > 12 else { return 0 }
        return (Double(fields[11]) ?? 0) / 100 + (Double(fields[12]) ?? 0) / 100
    }

    /// Waits until `pid` uses less than 40 % of a core over 250 ms, twice in a row: the
    /// index of the document is built, and the reader only animates the screen.
    static func waitUntilIdle(_ pid: Int32, timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var quiet = 0
        while Date() < deadline {
            let before = cpuSeconds(pid)
            Thread.sleep(forTimeInterval: 0.25)
            quiet = cpuSeconds(pid) - before < 0.1 ? quiet + 1 : 0
            if quiet == 2 { return }
        }
        Issue.record("the reader (pid \(pid)) never went idle")
        throw CancellationError()
    }

    /// Types `command` (which runs the reader on `document`), waits for its first frame, then
    /// until it is idle; returns its pid.
    static func startReader(_ t: Tmux, _ command: String) throws -> Int32 {
        try t.type("clear")
        try t.press("Enter")
        try t.waitUntil("a clear screen") { $0.trimmingCharacters(in: .whitespacesAndNewlines) == "$" }
        try t.type(command)
        try t.press("Enter")
        try t.waitUntil("the first frame") { $0.contains("echo step") && $0.contains("0%") }
        #expect(try t.format("#{alternate_on}") == "1")
        let pid = try t.playPID()
        try waitUntilIdle(pid)
        return pid
    }

    /// The reader's command line on `document`, its exit status echoed as `exit=N`.
    static func readCommand(_ document: BusyDocument) -> String {
        "bash -c '\(spoilerBinary().path) read --from markdown \(document.file.path); echo \"exit=$?\"'"
    }

    /// Presses End and returns how long the reader takes to show the end (the bar at 100 %),
    /// then quits it with `q`.
    static func busyPeriod(_ t: Tmux, _ document: BusyDocument) throws -> Double {
        _ = try startReader(t, readCommand(document))
        try t.press("End")
        let started = Date()
        try t.waitUntil("the end", timeout: 120) { $0.contains("100%") }
        let busy = Date().timeIntervalSince(started)
        try t.type("q")
        try t.waitUntil("exit=0") { $0.contains("exit=0") }
        return busy
    }

    /// A document that keeps the reader busy for at least about a second after End, and that
    /// period: 24 MB is enough for a debug build, a release build needs four times as much.
    static func busyDocument(_ t: Tmux) throws -> (BusyDocument, busy: Double) {
        var megabytes = 24
        var document = try BusyDocument(megabytes: megabytes)
        var busy = try busyPeriod(t, document)
        while busy < 0.8 && megabytes < 96 {
            megabytes *= 4
            document = try BusyDocument(megabytes: megabytes)
            busy = try busyPeriod(t, document)
        }
        try #require(busy > 0.5, "End in \(megabytes) MB kept the reader busy only \(busy) s")
        return (document, busy)
    }

    /// Presses End, checks that the reader then computes (its CPU time grows by at least a
    /// quarter of the time that passes, where it idles at a tenth; the machine may be busy
    /// with something else too), and returns when that is so, about 0.2 s after End.
    static func pressEndAndExpectBusy(_ t: Tmux, _ pid: Int32) throws {
        try t.press("End")
        Thread.sleep(forTimeInterval: 0.05)
        let before = cpuSeconds(pid)
        Thread.sleep(forTimeInterval: 0.15)
        let used = cpuSeconds(pid) - before
        try #require(used >= 0.04, "the reader did not compute after End (\(used) s of CPU in 0.15 s)")
        try #require(!(try t.screen().contains("100%")), "End was done before the signal")
    }

    /// Seconds until `pid` no longer runs (gone, or a zombie), polled every 2 ms; fails after
    /// `timeout`.
    static func secondsUntilGone(_ pid: Int32, from start: Date, timeout: Double = 60) throws -> Double {
        let deadline = start.addingTimeInterval(timeout)
        while isRunning(pid) {
            if Date() > deadline {
                Issue.record("the reader (pid \(pid)) still runs \(timeout) s after the signal")
                throw CancellationError()
            }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return Date().timeIntervalSince(start)
    }

    @Test func sigtermWhileBusyEndsTheReaderAtOnceWithTheTerminalRestored() throws {
        let t = try Tmux(width: 80, height: 20)
        let (document, busy) = try ReadBusySignalEndToEndTests.busyDocument(t)
        let pid = try ReadBusySignalEndToEndTests.startReader(t, ReadBusySignalEndToEndTests.readCommand(document))
        defer { if ReadBusySignalEndToEndTests.isRunning(pid) { kill(pid, SIGKILL) } }
        try ReadBusySignalEndToEndTests.pressEndAndExpectBusy(t, pid)
        let sent = Date()
        #expect(kill(pid, SIGTERM) == 0)
        let exit = try ReadBusySignalEndToEndTests.secondsUntilGone(pid, from: sent)
        #expect(exit < busy / 4, "gone \(exit) s after SIGTERM; End alone kept the reader busy \(busy) s")
        // The shell reports the death by SIGTERM (128 + 15), and the terminal is as it was.
        try t.expectRestored(exitStatus: "143")
        let screen = try t.screen()
        #expect(!screen.contains("echo step"), "the reader's text is still on the screen:\n\(screen)")
        #expect(screen.contains("exit=143") && screen.contains("tty=cooked"))
    }

    @Test func theTerminalClosingWhileBusyEndsTheReaderAtOnce() throws {
        let t = try Tmux(width: 80, height: 20)
        let (document, busy) = try ReadBusySignalEndToEndTests.busyDocument(t)
        // The wrapper ignores SIGHUP, so that it outlives the terminal, reaps the reader at
        // once and writes down how it ended.
        let status = document.directory.appendingPathComponent("status")
        let command =
            "bash -c 'trap \"\" HUP; \(spoilerBinary().path) read --from markdown \(document.file.path); "
            + "echo $? > \(status.path)'"
        let pid = try ReadBusySignalEndToEndTests.startReader(t, command)
        defer { if ReadBusySignalEndToEndTests.isRunning(pid) { kill(pid, SIGKILL) } }
        try ReadBusySignalEndToEndTests.pressEndAndExpectBusy(t, pid)
        let sent = Date()
        try t.run("kill-server")
        let exit = try ReadBusySignalEndToEndTests.secondsUntilGone(pid, from: sent)
        #expect(exit < busy / 4, "gone \(exit) s after the terminal closed; End alone kept the reader busy \(busy) s")
        // The reader died of SIGHUP (128 + 1), as it does when it waits for input.
        let deadline = Date().addingTimeInterval(10)
        var written = ""
        while Date() < deadline {
            written = (try? String(contentsOf: status, encoding: .utf8)) ?? ""
            if written.hasSuffix("\n") { break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(written == "129\n")
    }
}
