import Glibc

/// A progress line on standard error for long batch runs (DESIGN.md §7): messages done, bytes
/// read and, for a regular file, the percentage, redrawn at most four times a second.
///
/// Shown only when standard error is a terminal, the run has lasted a second, and
/// `SPOILER_PROGRESS` is not `0`; `SPOILER_PROGRESS=1` shows it from the start whatever
/// standard error is (for tests and for logs). The line is
/// erased before anything else is written to standard error and at the end.
struct Progress {
    private let enabled: Bool
    private let forced: Bool
    private let totalBytes: Int?
    private var messages = 0
    private var bytes = 0
    private var shown = false
    private var calls = 0
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(input: InputSource) {
        let setting = getenv("SPOILER_PROGRESS").map { String(cString: $0) }
        forced = setting == "1"
        enabled = forced || (setting != "0" && isatty(2) != 0)
        var st = stat()
        if fstat(input.fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_size > 0 {
            totalBytes = Int(st.st_size)
        } else {
            totalBytes = nil
        }
        start = clock.now
        lastDraw = start
    }

    /// Counts work done; redraws the line when it is due.
    ///
    /// Inlined down to the check of ``enabled``: a line filter ticks once a line, and
    /// with the line not shown (the usual case) that check is all the tick costs.
    @inline(__always)
    mutating func tick(messages m: Int, bytes b: Int) {
        guard enabled else { return }
        count(messages: m, bytes: b)
    }

    /// ``tick(messages:bytes:)`` when the line may be shown.
    @inline(never)
    private mutating func count(messages m: Int, bytes b: Int) {
        messages += m
        bytes += b
        calls += 1
        if calls % 256 != 0 && b == 0 { return }
        let now = clock.now
        guard forced || now - start >= .seconds(1) else { return }
        guard !shown || now - lastDraw >= .milliseconds(250) else { return }
        lastDraw = now
        var line = "\r\u{1B}[Kspoiler: \(messages) messages, \(megabytes(bytes)) MB"
        if let totalBytes {
            line += " of \(megabytes(totalBytes)) MB (\(min(100, bytes * 100 / totalBytes))%)"
        }
        StandardStreams.writeError(line)
        shown = true
    }

    /// Erases the line, if it was drawn.
    mutating func clear() {
        guard shown else { return }
        StandardStreams.writeError("\r\u{1B}[K")
        shown = false
    }

    private func megabytes(_ n: Int) -> String {
        let tenths = n / 100_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}
