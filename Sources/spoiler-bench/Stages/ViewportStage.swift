import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// Only what is on the screen (issues 10 and 17): the player's first frame of a
/// 30,000-word spoiler, and the reader's first frame and peak memory on a 100 MB document.
///
/// Keys: `play_first_frame_ms` (parse, lay out lazily and draw the first frame of the
/// 620 KB message, in-process; target ≤ 200), `play_first_frame_whole_ms` (the same with
/// the whole message laid out, the reference), `read_first_frame_ms` (`spoiler read` of a
/// 100 MB text document in a pseudo-terminal, from the start of the process to the first
/// frame; target < 150), `read_peak_rss_mb` (that process's peak RSS, sampled from
/// /proc while it shows its first screen; target < 64), and `read_end_at_once_ms` and
/// `read_end_after_1s_ms` (End pressed at the first frame, or a second later, until the
/// end shows; medians of three); `read_html_end_at_once_ms`, the same for a 100 MB
/// Telegram HTML document dense in tags read with `--from html`; and for a 300 MB
/// Telegram Desktop export read with `--from export`, `read_export_first_frame_ms`,
/// `read_export_peak_rss_mb` and `read_export_end_at_once_ms`, and the same for a 300 MB
/// whole-account export (`read_account_first_frame_ms`, `read_account_peak_rss_mb`,
/// `read_account_end_at_once_ms`); the 100 MB text document read with `--from markdown`
/// (`read_markdown_first_frame_ms`, `read_markdown_peak_rss_mb`,
/// `read_markdown_end_at_once_ms`), and a 100 MB Markdown document that is one fenced code
/// block (`read_markdown_code_first_frame_ms`, `read_markdown_code_peak_rss_mb`,
/// `read_markdown_code_end_at_once_ms`); and
/// `spoiler play` of an 8 MB message on one line in a
/// pseudo-terminal, End at its first frame: `play_end_at_once_ms` and `play_end_peak_rss_mb`.
enum ViewportStage {
    static let stage = BenchStage(
        name: "viewport", summary: "play's first frame of 620 KB; read of 100 MB: first frame and peak RSS",
        run: run)

    /// `||word0 word1 … word29999||`.
    static let message: [UInt8] = Array(
        ("||" + (0..<30_000).map { "word\($0)" }.joined(separator: " ") + "||").utf8)

    static let size = TerminalSize(columns: 80, rows: 24)

    static func run(_ bench: inout BenchRun) {
        let lazy = bench.measure(runs: 5) { firstFrame(whole: false) }
        bench.report(
            "play first frame (620 KB, 30,000 words)", lazy * 1000, unit: "ms", key: "play_first_frame_ms",
            note: "target ≤ 200")
        let whole = bench.measure(runs: 3) { firstFrame(whole: true) }
        bench.report(
            "play first frame, whole layout (reference)", whole * 1000, unit: "ms", key: "play_first_frame_whole_ms")
        playEnd(&bench)
        guard let path = document(megabytes: 100) else {
            bench.report("read first frame (100 MB)", nil, unit: "ms", key: "read_first_frame_ms", note: "no file")
            return
        }
        var times: [Double] = []
        var peak = 0.0
        for _ in 0..<3 {
            guard let (seconds, rss, _) = readInTerminal(path) else { continue }
            times.append(seconds)
            peak = max(peak, rss)
        }
        times.sort()
        let median = times.isEmpty ? nil : times[times.count / 2] * 1000
        bench.report(
            "read first frame (100 MB text, in a pty)", median, unit: "ms", key: "read_first_frame_ms",
            note: "target < 150")
        bench.report(
            "read peak RSS (100 MB text)", times.isEmpty ? nil : peak, unit: "MB", key: "read_peak_rss_mb",
            note: "target < 64")
        // End, pressed at the first frame and a second later: the index of the chunks is
        // built on a worker from the start, so the second is at once.
        for (delay, key) in [(0.0, "read_end_at_once_ms"), (1.0, "read_end_after_1s_ms")] {
            var ends: [Double] = []
            for _ in 0..<3 {
                if let end = readInTerminal(path, endAfter: delay)?.2 { ends.append(end) }
            }
            ends.sort()
            bench.report(
                "read End \(delay == 0 ? "at the first frame" : "after 1 s") (100 MB text)",
                ends.isEmpty ? nil : ends[ends.count / 2] * 1000, unit: "ms", key: key,
                note: "until the end shows")
        }
        if let html = htmlDocument(megabytes: 100) {
            var htmlEnds: [Double] = []
            for _ in 0..<3 {
                if let end = readInTerminal(html, from: "html", endAfter: 0)?.2 { htmlEnds.append(end) }
            }
            bench.report(
                "read End at the first frame (100 MB HTML, a tag every 14 bytes)",
                middleMilliseconds(htmlEnds), unit: "ms",
                key: "read_html_end_at_once_ms", note: "until the end shows")
        }
        for account in [false, true] {
            readExport(&bench, account: account)
        }
        readWithEnd(&bench, path, from: "markdown", name: "100 MB text read as Markdown", key: "markdown")
        readMarkdownCode(&bench)
    }

    /// `spoiler read --from markdown` of a 100 MB Markdown document that is one fenced code
    /// block, End at the first frame, three times: `read_markdown_code_first_frame_ms`,
    /// `read_markdown_code_peak_rss_mb`, `read_markdown_code_end_at_once_ms`.
    static func readMarkdownCode(_ bench: inout BenchRun) {
        readWithEnd(
            &bench, codeDocument(megabytes: 100), from: "markdown", name: "100 MB Markdown, one fenced code block",
            key: "markdown_code")
    }

    /// A Markdown document of about `megabytes` MB in the temporary folder (made once): a
    /// heading, then one fenced code block of log lines (with `||` in them, which code
    /// shows as it is), then a paragraph with a spoiler.
    static func codeDocument(megabytes: Int) -> String? {
        let path = "/tmp/spoiler-bench-read-\(megabytes)mb-code.md"
        if isMade(path, megabytes: megabytes) { return path }
        guard let file = fopen(path, "w") else { return nil }
        defer { fclose(file) }
        var written = fwrite("# A log\n\n```text\n", 1, 17, file)
        var line = 0
        while written < megabytes << 20 {
            let bytes = Array("2026-12-04 12:00:\(line % 60) worker \(line % 17): ||token \(line)|| sent\n".utf8)
            written += fwrite(bytes, 1, bytes.count, file)
            line += 1
        }
        let end = Array("```\n\nThe end ||of the log||.\n".utf8)
        fwrite(end, 1, end.count, file)
        return path
    }

    /// The median of `seconds`, in milliseconds; nil for none.
    static func middleMilliseconds(_ seconds: [Double]) -> Double? {
        seconds.isEmpty ? nil : seconds.sorted()[seconds.count / 2] * 1000
    }

    /// `spoiler read --from export` of a 300 MB export (`account`: a whole account's), End
    /// at the first frame, three times: `read_export_first_frame_ms`,
    /// `read_export_peak_rss_mb`, `read_export_end_at_once_ms` (`read_account_…`).
    static func readExport(_ bench: inout BenchRun, account: Bool) {
        let (key, name) = account ? ("account", "300 MB whole-account export") : ("export", "300 MB export")
        readWithEnd(
            &bench, exportDocument(megabytes: 300, account: account), from: "export", name: name, key: key,
            frameNote: account ? "" : ", in a pty")
    }

    /// `spoiler read --from FROM` of the file at `path`, End at the first frame, three times:
    /// `read_KEY_first_frame_ms` (the middle one), `read_KEY_peak_rss_mb` (the highest) and
    /// `read_KEY_end_at_once_ms` (the middle one); `name` says what the file is.
    static func readWithEnd(
        _ bench: inout BenchRun, _ path: String?, from: String, name: String, key: String, frameNote: String = ""
    ) {
        guard let path else {
            bench.report(
                "read \(name) first frame", nil, unit: "ms", key: "read_\(key)_first_frame_ms", note: "no file")
            return
        }
        var frames: [Double] = []
        var ends: [Double] = []
        var peak = 0.0
        for _ in 0..<3 {
            guard let (seconds, rss, end) = readInTerminal(path, from: from, endAfter: 0) else { continue }
            frames.append(seconds)
            peak = max(peak, rss)
            if let end { ends.append(end) }
        }
        bench.report(
            "read first frame (\(name)\(frameNote))", middleMilliseconds(frames), unit: "ms",
            key: "read_\(key)_first_frame_ms", note: "target < 150")
        bench.report(
            "read peak RSS (\(name))", frames.isEmpty ? nil : peak, unit: "MB", key: "read_\(key)_peak_rss_mb",
            note: "target < 64")
        bench.report(
            "read End at the first frame (\(name))", middleMilliseconds(ends), unit: "ms",
            key: "read_\(key)_end_at_once_ms", note: "until the end shows")
    }

    /// Parses the message, makes the view and encodes its first frame.
    static func firstFrame(whole: Bool) -> UInt64 {
        guard let message = try? MessageParser.parse(ViewportStage.message, from: .plain) else { return 0 }
        var frame = ANSIFrameOptions(capability: .trueColor)
        frame.formatting = message.entities
        let options = SpoilerTerminalView.Options(frame: frame)
        let scene: SpoilerTerminalView.SceneMaker = { layout in
            SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, seed: 1)
        }
        var view =
            whole
            ? SpoilerTerminalView(
                size: size, options: options, layout: { LayoutEngine(wrapWidth: $0.columns).layout(message) },
                scene: scene)
            : SpoilerTerminalView(
                size: size, options: options,
                prefixLayout: { size, bytes in
                    let head = message.prefix(cuttingNear: bytes)
                    return (LayoutEngine(wrapWidth: size.columns).layout(head.message), head.isWhole)
                }, scene: scene)
        var out: [UInt8] = []
        view.encodeFrame(at: 0, into: &out)
        return UInt64(out.count)
    }

    /// Whether the file at `path` was made by an earlier run: there, of `megabytes` MB at least.
    static func isMade(_ path: String, megabytes: Int) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && Int(info.st_size) >= megabytes << 20
    }

    /// A text document of about `megabytes` MB in the temporary folder (made once).
    static func document(megabytes: Int) -> String? {
        paragraphs(in: "/tmp/spoiler-bench-read-\(megabytes)mb.txt", megabytes: megabytes, seed: 17) { paragraph, rng in
            let hidden = rng.next() % 12 == 0
            if hidden { paragraph += [0x7C, 0x7C] }
            for _ in 0..<Int(2 + rng.next() % 9) { paragraph.append(UInt8(97 + rng.next() % 26)) }
            if hidden { paragraph += [0x7C, 0x7C] }
        }
    }

    /// A Telegram HTML document of about `megabytes` MB in the temporary folder (made once),
    /// dense in tags: paragraphs of short words, one in three in `<b>`, `<i>` or
    /// `<tg-spoiler>`, some with `&amp;`.
    static func htmlDocument(megabytes: Int) -> String? {
        let tags = [("<b>", "</b>"), ("<i>", "</i>"), ("<tg-spoiler>", "</tg-spoiler>")].map {
            (Array($0.0.utf8), Array($0.1.utf8))
        }
        let reference = Array("&amp;".utf8)
        return paragraphs(in: "/tmp/spoiler-bench-read-\(megabytes)mb.html", megabytes: megabytes, seed: 29) {
            paragraph, rng in
            let tag = rng.next() % 3 == 0 ? tags[Int(rng.next() % 3)] : nil
            if let tag { paragraph += tag.0 }
            for _ in 0..<Int(2 + rng.next() % 5) { paragraph.append(UInt8(97 + rng.next() % 26)) }
            if rng.next() % 20 == 0 { paragraph += reference }
            if let tag { paragraph += tag.1 }
        }
    }

    /// A file at `path` of about `megabytes` MB (made once) of paragraphs of 20 to 139
    /// words, each written by `word`, with a blank line after each.
    static func paragraphs(
        in path: String, megabytes: Int, seed: UInt64, word: (inout [UInt8], inout SplitMix64) -> Void
    ) -> String? {
        if isMade(path, megabytes: megabytes) { return path }
        guard let file = fopen(path, "w") else { return nil }
        defer { fclose(file) }
        var rng = SplitMix64(seed: seed)
        var written = 0
        var paragraph: [UInt8] = []
        while written < megabytes << 20 {
            paragraph.removeAll(keepingCapacity: true)
            for w in 0..<Int(20 + rng.next() % 120) {
                if w > 0 { paragraph.append(0x20) }
                word(&paragraph, &rng)
            }
            paragraph += [0x0A, 0x0A]
            written += fwrite(paragraph, 1, paragraph.count, file)
        }
        return path
    }

    /// A Telegram Desktop export (`result.json`, indented as the app writes it) of about
    /// `megabytes` MB in the temporary folder (made once): messages of a few words, one in
    /// four with a spoiler as a text object, and their `text_entities`.
    ///
    /// With `account`, a whole-account export instead (`result.json` of "Export Telegram
    /// data"): the same messages in chats of 20,000 under `chats.list`.
    static func exportDocument(megabytes: Int, account: Bool = false) -> String? {
        let path = "/tmp/spoiler-bench-read-\(megabytes)mb-\(account ? "account" : "export").json"
        if isMade(path, megabytes: megabytes) { return path }
        guard let file = fopen(path, "w") else { return nil }
        defer { fclose(file) }
        var rng = SplitMix64(seed: 23)
        func chatHead(_ c: Int) -> String {
            #"{\#n "name": "Chat \#(c)",\#n "type": "personal_chat",\#n "id": \#(c),\#n "messages": ["#
        }
        let headText =
            account
            ? #"{\#n "about": "Here is the data you requested.",\#n "chats": {\#n "list": [\#(chatHead(0))"#
            : #"{\#n "name": "Movie night",\#n "type": "private_group",\#n "id": 17,\#n "messages": ["#
        let head = Array(headText.utf8)
        var written = fwrite(head, 1, head.count, file)
        var id = 0
        var out: [UInt8] = []
        func words(_ n: Int) -> String {
            (0..<n).map { _ in
                String((0..<Int(2 + rng.next() % 7)).map { _ in Character(UnicodeScalar(UInt8(97 + rng.next() % 26))) })
            }.joined(separator: " ")
        }
        while written < megabytes << 20 {
            out.removeAll(keepingCapacity: true)
            id += 1
            if account && id % 20_000 == 1 && id > 1 { out += "\n ]\n},\n\(chatHead(id / 20_000))".utf8 }
            let plain = words(Int(3 + rng.next() % 12))
            let comma = id == 1 || (account && id % 20_000 == 1) ? "" : ","
            var message = "\(comma)\n  {\n   \"id\": \(id),\n   \"type\": \"message\",\n"
            message += "   \"date\": \"2026-11-01T19:01:10\",\n   \"date_unixtime\": \"1793559670\",\n"
            message += "   \"from\": \"Ana\",\n   \"from_id\": \"user1001\",\n"
            if rng.next() % 4 == 0 {
                let hidden = words(Int(1 + rng.next() % 4))
                message +=
                    "   \"text\": [\n    \"\(plain) \",\n    {\n     \"type\": \"spoiler\",\n     \"text\": \"\(hidden)\"\n    }\n   ],\n"
                message +=
                    "   \"text_entities\": [\n    {\n     \"type\": \"plain\",\n     \"text\": \"\(plain) \"\n    },\n"
                message += "    {\n     \"type\": \"spoiler\",\n     \"text\": \"\(hidden)\"\n    }\n   ]\n  }"
            } else {
                message += "   \"text\": \"\(plain)\",\n   \"text_entities\": [\n    {\n     \"type\": \"plain\",\n"
                message += "     \"text\": \"\(plain)\"\n    }\n   ]\n  }"
            }
            out += message.utf8
            written += fwrite(out, 1, out.count, file)
        }
        let tail = Array((account ? "\n ]\n}\n ]\n }\n}\n" : "\n ]\n}\n").utf8)
        _ = fwrite(tail, 1, tail.count, file)
        return path
    }

    /// Runs `spoiler read path` in a pseudo-terminal of 80 × 24: the seconds from the
    /// spawn to the first frame (its bar drawn), then `q`; and the process's peak RSS in MB.
    /// A message of about `megabytes` MB on one line in the temporary folder (made once):
    /// `||word0|| word1 … word4 ||word5|| …`, and its last word shown.
    static func longMessage(megabytes: Int) -> (path: String, last: String)? {
        let path = "/tmp/spoiler-bench-play-\(megabytes)mb.txt"
        var words: [String] = []
        var bytes = 0
        while bytes < megabytes << 20 {
            let n = words.count
            words.append(n % 5 == 0 ? "||word\(n)||" : "word\(n)")
            bytes += words[n].utf8.count + 1
        }
        // The last word that is not hidden (a hidden one never shows its text).
        let last = "word\((words.count - 1) - ((words.count - 1) % 5 == 0 ? 1 : 0))"
        if isMade(path, megabytes: megabytes) { return (path, last) }
        guard let file = fopen(path, "w") else { return nil }
        defer { fclose(file) }
        let text = Array(words.joined(separator: " ").utf8)
        guard fwrite(text, 1, text.count, file) == text.count else { return nil }
        return (path, last)
    }

    /// `spoiler play` of a long message in a pseudo-terminal: End at the first frame, then
    /// the time until the last word shows and the peak RSS.
    static func playEnd(_ bench: inout BenchRun) {
        guard let (path, last) = longMessage(megabytes: 8) else { return }
        var ends: [Double] = []
        var peak = 0.0
        for _ in 0..<3 {
            guard
                let (_, rss, end) = runInTerminal(
                    ["play", path], endAfter: 0, firstFrame: Array("word1".utf8), end: Array(last.utf8))
            else { continue }
            peak = max(peak, rss)
            if let end { ends.append(end) }
        }
        ends.sort()
        bench.report(
            "play End at the first frame (8 MB, one line)", ends.isEmpty ? nil : ends[ends.count / 2] * 1000,
            unit: "ms", key: "play_end_at_once_ms", note: "until the last word shows")
        bench.report(
            "play peak RSS (8 MB, one line, End)", ends.isEmpty ? nil : peak, unit: "MB", key: "play_end_peak_rss_mb",
            note: "8 × input + 30 = 94")
    }

    static func readInTerminal(_ path: String, from: String? = nil, endAfter: Double? = nil) -> (
        Double, Double, Double?
    )? {
        runInTerminal(
            ["read"] + (from.map { ["--from", $0] } ?? []) + [path], endAfter: endAfter, firstFrame: Array("%".utf8),
            // The button back to the top shows at the end only.
            end: Array("[↑]".utf8))
    }

    /// Runs `spoiler` with `arguments` in an 80 × 24 pseudo-terminal until `firstFrame`
    /// shows, presses End after `endAfter` seconds (if given) and waits for `end`, then
    /// `q`: the seconds to the first frame, the peak RSS in MB, and the seconds from End.
    static func runInTerminal(
        _ arguments: [String], endAfter: Double?, firstFrame firstMark: [UInt8], end endMark: [UInt8]
    )
        -> (Double, Double, Double?)?
    {
        let here = CommandLine.arguments[0]
        let binary = String(here[..<(here.lastIndex(of: "/") ?? here.startIndex)]) + "/spoiler"
        guard access(binary, X_OK) == 0 else {
            writeError("viewport: \(binary) not found (build the spoiler product in release too)\n")
            return nil
        }
        // posix_openpt, unlockpt and ptsname by hand (Glibc does not export them to Swift):
        // TIOCSPTLCK unlocks the pair, TIOCGPTN names its other end.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { return nil }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else { return nil }
        var ws = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &ws)
        let slave = "/dev/pts/\(number)"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, slave, O_RDWR, 0) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID: a session of its own
        let argv = [binary] + arguments
        let env = ["TERM=xterm-256color", "PATH=/usr/bin:/bin"]
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { for p in cArgs + cEnv { free(p) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        guard posix_spawn(&pid, binary, &actions, &attributes, &cArgs, &cEnv) == 0 else { return nil }
        // The peak resident size is sampled from /proc (VmHWM) while the reader runs: wait4's
        // ru_maxrss would count this process's size too, which a vfork-based posix_spawn
        // child takes through exec (this process holds the play stage's layouts by now).
        var peakKB = 0
        func sample() {
            if let kb = NDJSONStage.highWaterKB(of: pid) { peakKB = max(peakKB, kb) }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        /// Reads the reader's output until `isThere` holds for what came so far; the seconds
        /// from `since`, or nil if the reader stopped or said nothing for 20 s.
        func seconds(since: ContinuousClock.Instant, until isThere: ([UInt8]) -> Bool) -> Double? {
            var seen: [UInt8] = []
            while true {
                var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 20_000) > 0 else { return nil }
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { return nil }
                seen += buffer[0..<n]
                sample()
                if isThere(seen) {
                    let d = (clock.now - since).components
                    return Double(d.seconds) + Double(d.attoseconds) * 1e-18
                }
            }
        }
        let firstFrame = seconds(since: start) { $0.firstRange(of: firstMark) != nil }
        // A moment on the first screen, as a person looks at it (or `endAfter`, then End
        // and the time until the end shows), then q.
        var end: Double?
        if let endAfter, firstFrame != nil {
            let until = clock.now + .milliseconds(Int(endAfter * 1000))
            while clock.now < until {
                var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                if poll(&p, 1, 10) > 0 && read(master, &buffer, buffer.count) <= 0 { break }
                sample()
            }
            let pressed = clock.now
            _ = write(master, "\u{1B}[F", 3)
            end = seconds(since: pressed) { $0.firstRange(of: endMark) != nil }
        }
        for _ in 0..<10 {
            sample()
            usleep(20_000)
        }
        _ = write(master, "q", 1)
        // Drain until the child has gone.
        var status: Int32 = 0
        var usage = rusage()
        while true {
            var p = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            sample()
            if poll(&p, 1, 100) > 0 && read(master, &buffer, buffer.count) <= 0 { break }
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
        }
        if waitpid(pid, &status, WNOHANG) == 0 { _ = wait4(pid, &status, 0, &usage) }
        guard let firstFrame else { return nil }
        return (firstFrame, Double(peakKB) / 1024, end)
    }
}
