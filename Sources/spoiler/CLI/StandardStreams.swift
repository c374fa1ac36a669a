import Glibc
import SpoilerTerminal

/// Buffered writing to standard output and standard error.
///
/// A reader that goes away (`spoiler parse | head -1`) ends the program quietly with
/// status 0: SIGPIPE is ignored at start-up and EPIPE from write(2) exits. Any other
/// write failure ends it with status 1 and a message naming the output (``flush()``).
enum StandardStreams {
    nonisolated(unsafe) private static var buffer: [UInt8] = {
        var b = [UInt8]()
        b.reserveCapacity(1 << 16)
        return b
    }()

    /// Ignores SIGPIPE so that a closed pipe shows up as EPIPE, handled in ``flush()``.
    static func setUp() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Queues bytes for standard output; flushed when the buffer fills and at exit.
    static func write(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes `bytes` to standard output after everything queued, at once when they fill a
    /// buffer's worth (a line filter's gathered output lines), so that they are not copied
    /// into the queue first; a failure ends the program as ``flush()`` says.
    static func writeGathered(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count >= 1 << 16 else {
            write(bytes)
            return
        }
        flush()
        do {
            try FileOutput.writeAll(UnsafeRawBufferPointer(bytes), to: 1)
        } catch {
            if case .system(_, let code) = error, code == EPIPE { _exit(0) }
            failed(error)
        }
    }

    /// Queues a string for standard output.
    static func write(_ s: String) { write(s.utf8) }

    /// Writes out everything queued for standard output.
    ///
    /// A failed write (ENOSPC, EIO, …) is reported as `error: <stdout>
    /// (PATH): cannot write: REASON` and ends the program with status 1, since the output is lost; a
    /// closed pipe (EPIPE) ends it quietly with status 0.
    static func flush() {
        if buffer.isEmpty { return }
        do {
            try FileOutput.writeAll(buffer, to: 1)
        } catch {
            if case .system(_, let code) = error, code == EPIPE { _exit(0) }
            failed(error)
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Reports a failed write to standard output and exits with status 1.
    private static func failed(_ error: TerminalError) -> Never {
        var reason = error.description
        if case .system(_, let code) = error { reason = String(cString: strerror(code)) }
        writeError("error: \(outputName): cannot write: \(reason)\n")
        _exit(1)
    }

    /// `<stdout>`, with the file or device it is when that has a name (`<stdout> (/dev/full)`).
    static var outputName: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/fd/1", &buffer, buffer.count - 1)
        guard n > 0, buffer[0] == CChar(UInt8(ascii: "/")) else { return "<stdout>" }
        return "<stdout> (\(String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)))"
    }

    /// Writes `s` to standard error at once; a failure there has nowhere to be reported
    /// and is ignored.
    static func writeError(_ s: String) {
        try? FileOutput.writeAll(Array(s.utf8), to: 2)
    }
}
