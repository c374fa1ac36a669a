import Glibc

/// Writing whole buffers to file descriptors and files, so that no output is lost silently.
///
/// Every write in the command line and the player goes through `writeAll(_:to:)`: it
/// retries short writes and EINTR, waits with poll(2) while a non-blocking descriptor
/// answers EAGAIN (instead of spinning), and throws every other failure (ENOSPC, EIO,
/// EPIPE, …) with its errno, for the caller to report with the path.
public enum FileOutput {
    /// Writes all of `bytes` to `fd`.
    ///
    /// - Throws: ``TerminalError/system(call:errno:)`` for `write` (or `poll`) with the
    ///   errno of the first failure other than EINTR and EAGAIN; the bytes before it were
    ///   written.
    public static func writeAll(_ bytes: [UInt8], to fd: Int32) throws(TerminalError) {
        var failure: TerminalError?
        bytes.withUnsafeBytes { raw in
            do throws(TerminalError) {
                try writeAll(raw, to: fd)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// Writes all of `raw` to `fd`; the `[UInt8]` form calls this one.
    public static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32) throws(TerminalError) {
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(fd, base + offset, raw.count - offset)
            if n >= 0 {
                offset += n
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                try waitUntilWritable(fd)
            default:
                throw .system(call: "write", errno: code)
            }
        }
    }

    /// Blocks until `fd` can take more bytes (or reports an error or hang-up, which the
    /// next write(2) then reports).
    private static func waitUntilWritable(_ fd: Int32) throws(TerminalError) {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while poll(&p, 1, -1) < 0 {
            if errno != EINTR { throw .system(call: "poll", errno: errno) }
        }
    }

    /// Replaces the file at `path` with `bytes`, never leaving a half-written file in place
    /// of the old one.
    ///
    /// A regular file (or a path that does not exist yet) is written to a temporary file
    /// beside it, synced, and renamed over it; a symbolic link is followed, so the file it
    /// names is the one replaced. Anything else (a terminal, `/dev/full`, a pipe,
    /// `/dev/stdout`) is opened and written in place, since it cannot be renamed over. The
    /// new file gets mode 0666 less the umask, or the mode of the file it replaces.
    ///
    /// - Throws: ``TerminalError/system(call:errno:)`` naming the call that failed
    ///   (`open`, `write`, `fsync`, `rename`, …); the temporary file is removed then and the
    ///   old file, if any, is left as it was.
    public static func replaceFile(atPath path: String, with bytes: [UInt8]) throws(TerminalError) {
        try replaceFile(atPath: path) { (write) throws(TerminalError) in try write(bytes) }
    }

    /// Replaces the file at `path` with what `body` writes a piece at a time, as
    /// ``replaceFile(atPath:with:)`` does with a whole buffer: the file appears (renamed
    /// over the old one) only when `body` has written everything without failing.
    ///
    /// - Parameter body: Called once with the function that writes the next piece; an
    ///   error it throws (its own, or a failed write) leaves the old file as it was.
    public static func replaceFile(
        atPath path: String,
        writing body: (_ write: ([UInt8]) throws(TerminalError) -> Void) throws(TerminalError) -> Void
    ) throws(TerminalError) {
        var target = path
        var st = stat()
        var mode: mode_t?
        if lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK {
            if let resolved = realpath(path, nil) {
                target = String(cString: resolved)
                free(resolved)
            }
        }
        if stat(target, &st) == 0 {
            guard (st.st_mode & S_IFMT) == S_IFREG else {
                try writeInPlace(target, body)
                return
            }
            mode = st.st_mode & 0o7777
        }
        let slash = target.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(target[...$0]) } ?? ""
        let base = slash.map { String(target[target.index(after: $0)...]) } ?? target
        var template = Array("\(directory).\(base).tmp-XXXXXX".utf8CString)
        let fd = try systemCall("mkstemp") { template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) } }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        do throws(TerminalError) {
            // umask(2) can only be read by setting it; a program writes its output file
            // once, at the end, when no other thread creates files.
            let umaskValue = umask(0)
            umask(umaskValue)
            try systemCall("fchmod") { fchmod(fd, mode ?? (0o666 & ~umaskValue)) }
            try body { (bytes) throws(TerminalError) in try writeAll(bytes, to: fd) }
            try systemCall("fsync") { fsync(fd) }
        } catch {
            close(fd)
            throw error
        }
        // close(2) can report a delayed write error (NFS); EINTR still closes the descriptor.
        if close(fd) != 0 && errno != EINTR { throw .system(call: "close", errno: errno) }
        try systemCall("rename") { rename(temporary, target) }
        renamed = true
    }

    /// Opens `path` for writing (no temporary file: it is a device or a pipe) and writes
    /// what `body` gives.
    private static func writeInPlace(
        _ path: String, _ body: (_ write: ([UInt8]) throws(TerminalError) -> Void) throws(TerminalError) -> Void
    ) throws(TerminalError) {
        let fd = try systemCall("open") { open(path, O_WRONLY | O_CLOEXEC) }
        defer { close(fd) }
        try body { (bytes) throws(TerminalError) in try writeAll(bytes, to: fd) }
    }
}
