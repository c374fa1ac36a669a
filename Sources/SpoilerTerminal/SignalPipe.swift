import Glibc

/// The write end of the self-pipe the signal handler writes to.
///
/// The one piece of global
/// state in the package: a signal handler can reach nothing else. -1 when not installed.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// The signal handler: writes the signal number to the self-pipe and nothing else
/// (async-signal-safe: write(2) only, errno saved and restored; termbox does the same).
private func forwardSignal(_ signo: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = Glibc.write(signalPipeWriteFD, &byte, 1)
    errno = saved
}

/// Delivers signals as bytes on a pipe, so that the event loop can wait for them with
/// poll(2) beside the terminal (the self-pipe trick).
///
/// Installing replaces the handlers of the given signals; ``uninstall()`` puts the old
/// ones back and closes the pipe. Only one may be installed at a time.
final class SignalPipe {
    let readFD: Int32
    let writeFD: Int32
    private var previous: [(Int32, sigaction)] = []
    private var installed = false

    init(signals: [Int32]) throws(TerminalError) {
        var fds: [Int32] = [0, 0]
        try systemCall("pipe") { pipe(&fds) }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        precondition(signalPipeWriteFD == -1, "a signal pipe is already installed")
        signalPipeWriteFD = writeFD
        installed = true
        for signo in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = forwardSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            do {
                try systemCall("sigaction") { sigaction(signo, &action, &old) }
            } catch {
                uninstall()
                throw error
            }
            previous.append((signo, old))
        }
        // A parent may have left these signals blocked; they must get through.
        var set = sigset_t()
        sigemptyset(&set)
        for signo in signals { sigaddset(&set, signo) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Runs `body` with `signo` at its default action (and unblocked), then forwards it
    /// to the pipe again: for stopping the process with SIGTSTP.
    func withDefaultAction(of signo: Int32, _ body: () -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        var forwarding = sigaction()
        sigaction(signo, &action, &forwarding)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signo)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        body()
        sigaction(signo, &forwarding, nil)
    }

    /// The signals delivered since the last call, in order.
    func drain() -> [Int32] {
        var out: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(readFD, $0.baseAddress, $0.count) }
            if n > 0 {
                out.append(contentsOf: buffer[0..<n].map { Int32($0) })
                continue
            }
            if n < 0 && errno == EINTR { continue }
            return out
        }
    }

    /// Restores the previous handlers and closes the pipe.
    ///
    /// Safe to call more than once.
    func uninstall() {
        guard installed else { return }
        installed = false
        for (signo, old) in previous.reversed() {
            var old = old
            sigaction(signo, &old, nil)
        }
        previous.removeAll()
        signalPipeWriteFD = -1
        close(readFD)
        close(writeFD)
    }

    deinit { uninstall() }
}
