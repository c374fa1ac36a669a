import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler play` in a real terminal emulator.
///
/// tmux on a private socket, a fixed window,
/// `TERM=xterm-256color`, a plain bash at a prompt. Keys and SGR mouse reports go in
/// with `send-keys`; `capture-pane` shows what a user would see. Every wait polls with a
/// deadline, so the tests are as fast as the program and fail instead of hanging.
@Suite(.serialized) struct PlayEndToEndTests {
    static let message = "the code is ||swordfish|| and ||marmalade||"

    /// One tmux server with one pane running bash.
    final class Tmux {
        let socket = "spoiler-test-\(UUID().uuidString.prefix(8))"
        let messageFile: URL

        init(width: Int = 60, height: Int = 12, message: String = PlayEndToEndTests.message) throws {
            messageFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).txt")
            try message.write(to: messageFile, atomically: true, encoding: .utf8)
            try run(
                "-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-e",
                "TERM=xterm-256color",
                "-e", "PS1=$ ", "-e", "LANG=C.UTF-8", "env", "-u", "NO_COLOR", "bash", "--norc", "--noprofile")
            try waitUntil("the shell prompt") { $0.contains("$") }
        }

        deinit {
            _ = try? run("kill-server")
            try? FileManager.default.removeItem(at: messageFile)
        }

        @discardableResult
        func run(_ arguments: String...) throws -> String { try run(arguments) }

        @discardableResult
        func run(_ arguments: [String]) throws -> String {
            try spawnAndWait("/usr/bin/tmux", ["-L", socket] + arguments).out
        }

        /// The visible screen, one string per row.
        func screen() throws -> String { try run("capture-pane", "-p") }

        /// A tmux format of the pane (`#{alternate_on}`, `#{cursor_flag}`, …).
        func format(_ f: String) throws -> String {
            try run("display-message", "-p", f).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func type(_ text: String) throws { try run("send-keys", "-l", text) }
        func press(_ key: String) throws { try run("send-keys", key) }

        /// Sends raw bytes to the pane, such as an SGR mouse report.
        func sendBytes(_ bytes: String) throws {
            try run(["send-keys", "-H"] + bytes.utf8.map { String($0, radix: 16) })
        }

        /// Polls the screen every 20 ms until `predicate` holds; fails after `timeout` s (generous,
        /// for a loaded machine: a passing test returns as soon as the screen is right).
        @discardableResult
        func waitUntil(_ what: String, timeout: Double = 20, _ predicate: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(timeout)
            var last = ""
            while Date() < deadline {
                last = try screen()
                if predicate(last) { return last }
                Thread.sleep(forTimeInterval: 0.02)
            }
            Issue.record("timed out waiting for \(what); the screen:\n\(last)")
            throw CancellationError()
        }

        /// Starts `spoiler play` on the message file and waits for its first frame.
        func startPlay(_ extra: String = "", firstWords: String = "the code is") throws {
            // In `bash -c`, so that a death by SIGINT does not stop the echo (an interactive
            // bash would abandon the rest of the line).
            try type("bash -c '\(spoilerBinary().path) play \(extra) \(messageFile.path); echo \"exit=$?\"'")
            try press("Enter")
            try waitUntil("the first frame") { $0.contains(firstWords) && $0.contains("reveal") }
            #expect(try format("#{alternate_on}") == "1")
        }

        /// The pid of the running `spoiler` (a child of the pane's shell).
        func playPID() throws -> Int32 {
            let shell = try format("#{pane_pid}")
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                // The shell runs `bash -c`, which runs spoiler.
                let ps = try spawnAndWait("/usr/bin/pgrep", ["-x", "spoiler", "-s", try sessionID(of: shell)])
                if let pid = Int32(ps.out.split(separator: "\n").first ?? "") { return pid }
                Thread.sleep(forTimeInterval: 0.02)
            }
            Issue.record("no spoiler process under the pane's shell \(shell)")
            throw CancellationError()
        }

        /// The session id of a process (the pane's shell leads its own session).
        func sessionID(of pid: String) throws -> String {
            try spawnAndWait("/bin/ps", ["-o", "sid=", "-p", pid]).out.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// Checks that the terminal is back to normal: the primary screen, a visible
        /// cursor, no mouse reporting, and a cooked tty (canonical mode, echo, signals).
        func expectRestored(exitStatus: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try waitUntil("exit=\(exitStatus)") { $0.contains("exit=\(exitStatus)") }
            #expect(try format("#{alternate_on}") == "0", sourceLocation: sourceLocation)
            #expect(try format("#{cursor_flag}") == "1", sourceLocation: sourceLocation)
            #expect(
                try format("#{mouse_any_flag}#{mouse_standard_flag}#{mouse_sgr_flag}") == "000",
                sourceLocation: sourceLocation)
            // The verdict is spelled in pieces so that the typed command never matches it.
            try type(
                "stty -a | grep -qE -- '(^| )-(icanon|echo|isig|opost)( |$)' && echo \"tty=ra\"\"w\" || echo \"tty=cook\"\"ed\""
            )
            try press("Enter")
            let screen = try waitUntil("the stty verdict") { $0.contains("tty=raw") || $0.contains("tty=cooked") }
            #expect(screen.contains("tty=cooked"), "the tty is still raw", sourceLocation: sourceLocation)
        }
    }

    @Test func clickRevealsOnlyTheClickedWordAndQRestores() throws {
        let t = try Tmux()
        try t.startPlay()
        let first = try t.screen()
        #expect(!first.contains("swordfish") && !first.contains("marmalade"))
        // "swordfish" starts at column 13 (1-based) of row 1: click inside it.
        try t.sendBytes("\u{1B}[<0;15;1M\u{1B}[<0;15;1m")
        let after = try t.waitUntil("swordfish revealed") { $0.contains("the code is swordfish and") }
        #expect(!after.contains("marmalade"))
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func tabAndEnterRevealAndCtrlCQuits() throws {
        let t = try Tmux()
        try t.startPlay()
        try t.press("Tab")
        try t.press("Tab")
        try t.press("Enter")
        let after = try t.waitUntil("marmalade revealed") { $0.contains("and marmalade") }
        #expect(!after.contains("swordfish"))
        try t.press("C-c")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func ctrlZStopsWithTheTerminalRestoredAndFgResumes() throws {
        let t = try Tmux()
        try t.startPlay()
        try t.press("C-z")
        try t.waitUntil("the job stopped") { $0.contains("Stopped") }
        #expect(try t.format("#{alternate_on}") == "0")
        #expect(try t.format("#{cursor_flag}") == "1")
        try t.type("fg")
        try t.press("Enter")
        try t.waitUntil("the player back") { $0.contains("the code is") && $0.contains("reveal") }
        #expect(try t.format("#{alternate_on}") == "1")
        try t.type("r")
        try t.waitUntil("every word revealed") { $0.contains("the code is swordfish and marmalade") }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func theMessageCanComeThroughAPipe() throws {
        let t = try Tmux()
        try t.type("cat \(t.messageFile.path) | \(spoilerBinary().path) play; echo \"exit=$?\"")
        try t.press("Enter")
        try t.waitUntil("the first frame") { $0.contains("the code is") && $0.contains("reveal") }
        try t.press("Tab")
        try t.press("Enter")
        try t.waitUntil("swordfish revealed") { $0.contains("the code is swordfish and") }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func wideCharactersLineUpWithTheTerminal() throws {
        let t = try Tmux(message: "日本語 ||秘密の言葉|| 😀 end")
        try t.startPlay(firstWords: "日本語")
        let before = try t.screen()
        #expect(!before.contains("秘") && !before.contains("言葉"))
        #expect(before.split(separator: "\n").first?.hasSuffix(" 😀 end") == true)
        try t.type("r")
        try t.waitUntil("the word revealed, everything in its place") {
            $0.split(separator: "\n").first == "日本語 秘密の言葉 😀 end"
        }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test func aDumbTerminalGetsTheStillFrame() throws {
        let t = try Tmux()
        try t.type("TERM=dumb \(spoilerBinary().path) play \(t.messageFile.path); echo \"exit=$?\"")
        try t.press("Enter")
        let screen = try t.waitUntil("the still frame and the exit status") { $0.contains("exit=0") }
        let line = screen.split(separator: "\n").first { $0.hasPrefix("the code is ") }
        #expect(line != nil)
        #expect(!screen.contains("swordfish") && !screen.contains("marmalade"))
        #expect(try t.format("#{alternate_on}") == "0")
    }

    @Test func revealAllShowsEveryWord() throws {
        let t = try Tmux()
        try t.startPlay("--color never")
        try t.type("r")
        try t.waitUntil("every word revealed") { $0.contains("the code is swordfish and marmalade") }
        try t.type("h")
        try t.waitUntil("every word hidden again") { !$0.contains("swordfish") && !$0.contains("marmalade") }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }

    @Test(arguments: [("INT", "130"), ("TERM", "143"), ("HUP", "129")])
    func aSignalRestoresTheTerminal(signal: String, status: String) throws {
        let t = try Tmux()
        try t.startPlay()
        let pid = try t.playPID()
        let kill = try spawnAndWait("/bin/kill", ["-\(signal)", "\(pid)"])
        #expect(kill.status == 0)
        try t.expectRestored(exitStatus: status)
    }

    @Test func aResizeReflows() throws {
        let t = try Tmux(width: 60, height: 12)
        try t.startPlay()
        try t.type("r")
        try t.waitUntil("revealed") { $0.contains("the code is swordfish and marmalade") }
        try t.run("resize-window", "-x", "16", "-y", "12")
        try t.waitUntil("reflowed to 16 columns") { s in
            let lines = s.split(separator: "\n")
            return lines.count >= 2 && lines[0].hasPrefix("the code is") && lines[1].hasPrefix("swordfish and")
        }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }
}

/// Runs a program and waits for it with waitpid(2), its output in a temporary file.
///
/// Not `Process`: Foundation on Linux waits for the child's inherited descriptors to
/// close, and a tmux client leaves its daemonised server holding them.
func spawnAndWait(_ path: String, _ arguments: [String]) throws -> (status: Int32, out: String) {
    let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("spawn-\(UUID().uuidString)").path
    defer { unlink(outPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    // Start with no blocked signals and default handlers, whatever the test runner has.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    var all = sigset_t()
    sigfillset(&all)
    sigdelset(&all, SIGKILL)
    sigdelset(&all, SIGSTOP)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var pid = pid_t()
    let rc = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (exitStatus, out)
}
