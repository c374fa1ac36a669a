import Glibc

/// Buffered writing to standard output and standard error.
///
/// A reader that goes away (`spoiler parse | head -1`) ends the program quietly with
/// status 0: SIGPIPE is ignored at start-up and EPIPE from write(2) exits.
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

    /// Queues a string for standard output.
    static func write(_ s: String) { write(s.utf8) }

    /// Queues a line (a newline appended) for standard output.
    static func writeLine(_ s: String) {
        write(s.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes out everything queued for standard output.
    static func flush() {
        if buffer.isEmpty { return }
        writeAll(fd: 1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `s` to standard error at once.
    static func writeError(_ s: String) {
        writeAll(fd: 2, Array(s.utf8))
    }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR; EPIPE exits quietly.
    static func writeAll(fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    if errno == EPIPE { _exit(0) }
                    return
                }
                off += n
            }
        }
    }
}
