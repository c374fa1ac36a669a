import Glibc
import Synchronization

// Everything a signal handler reads is global: it can reach nothing else. Each of these is
// initialised with a constant, so the compiler lays it out in the binary and no access runs
// a lazy initialiser (swift_once takes a lock, which a handler must not). They are the only
// global state in the package.

/// The write end of the self-pipe the signal handlers write to; -1 when not installed.
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

/// The thread that installed the signal pipe, the one that runs the event loop; 0 when not
/// installed.
///
/// A terminating signal delivered to another thread (a worker indexing a document) is sent
/// on to this one, so that only the thread that draws on the terminal ever restores it: no
/// frame can be written after the restoring bytes, and the emergency data is never read by
/// one thread while another changes or frees it.
nonisolated(unsafe) private var signalLoopThread: pthread_t = 0

/// What the handler of a terminating signal restores on its own while the event loop is busy
/// (``EmergencyRestore``), allocated when the pipe is installed; nil when not installed.
///
/// Only the loop thread reads or changes it (its handler included), and it changes only while
/// that thread holds the terminating signals back, so the handler never sees it half set.
nonisolated(unsafe) private var emergencyRestore: UnsafeMutablePointer<EmergencyRestore>? = nil

/// What the handler of a terminating signal needs to restore the terminal by itself: the
/// bytes that leave the terminal's modes and the termios to put back, in memory allocated
/// beforehand, so that the handler allocates nothing, takes no lock and calls only
/// async-signal-safe functions (``restoreTerminalAndDie(of:_:)``).
private struct EmergencyRestore: ~Copyable {
    /// Whether the loop is waiting in poll(2), where the self-pipe wakes it: the handler then
    /// only writes to the pipe, and the loop ends the process the graceful way.
    let isWaiting = Atomic<Bool>(false)
    /// Whether a terminating signal was written to the pipe while the loop waited: poll(2) may
    /// have returned for something else just before, and the loop must read the pipe anyway.
    let wroteWhileWaiting = Atomic<Bool>(false)
    /// The room for the bytes, `capacity` of them, of which the first `count` are written.
    var bytes: UnsafeMutablePointer<UInt8>
    /// How many bytes of ``bytes`` there is room for.
    var capacity: Int
    /// How many bytes of ``bytes`` the handler writes (0: none).
    var count = 0
    /// The descriptor the bytes are written to (the terminal's output).
    var outputFD: Int32 = -1
    /// Whether the handler puts ``savedTermios`` back (only while raw mode is on).
    var restoresTermios = false
    /// The descriptor whose termios is put back (the terminal's input).
    var termiosFD: Int32 = -1
    /// The termios the terminal had before raw mode.
    var savedTermios = termios()

    /// Room for `capacity` bytes, none of them to be written yet.
    init(capacity: Int) {
        bytes = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    deinit { bytes.deallocate() }
}

/// The handler of the signals that only go through the pipe (SIGWINCH, SIGTSTP, SIGCONT):
/// writes the signal number to the self-pipe and nothing else (async-signal-safe: write(2)
/// only, errno saved and restored; termbox does the same).
private func forwardSignal(_ signo: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    _ = Glibc.write(signalPipeWriteFD, &byte, 1)
    errno = saved
}

/// The handler of the terminating signals (SIGINT, SIGTERM, SIGHUP).
///
/// On another thread than the loop's, it sends the signal on to the loop's thread
/// (pthread_kill(3), async-signal-safe), whose handler then decides. On the loop's thread,
/// while the loop waits in poll(2), it writes the signal number to the self-pipe, as
/// ``forwardSignal(_:)`` does, and the loop restores the terminal and re-raises the signal
/// (``TTYTerminal/reraise(_:)``). While the loop is busy (End computing for a second in a
/// large document) nothing would read the pipe until the work ends, so the handler restores
/// the terminal itself and ends the process by the same signal
/// (``restoreTerminalAndDie(of:_:)``). errno is saved and restored.
private func endOrForward(_ signo: Int32) {
    let saved = errno
    let loop = signalLoopThread
    if loop != 0 && pthread_equal(pthread_self(), loop) == 0 {
        _ = pthread_kill(loop, signo)
    } else if let restore = emergencyRestore, !restore.pointee.isWaiting.load(ordering: .sequentiallyConsistent) {
        restoreTerminalAndDie(of: signo, restore)
    } else {
        emergencyRestore?.pointee.wroteWhileWaiting.store(true, ordering: .sequentiallyConsistent)
        var byte = UInt8(truncatingIfNeeded: signo)
        _ = Glibc.write(signalPipeWriteFD, &byte, 1)
    }
    errno = saved
}

/// Writes the emergency bytes and puts the saved termios back, then ends the process by
/// `signo` at its default action, so that the parent sees the real cause, as
/// ``TTYTerminal/reraise(_:)`` does; exits with 128 + `signo` should the process survive it.
///
/// Async-signal-safe: write(2), poll(2), tcsetattr(3), signal(2), pthread_sigmask(3),
/// raise(3) and _exit(2) only. The termios is set at once (TCSANOW): waiting for output to
/// drain (TCSADRAIN) could block on a terminal that no longer reads, and the bytes hold no
/// newline that output processing would change.
private func restoreTerminalAndDie(of signo: Int32, _ restore: UnsafeMutablePointer<EmergencyRestore>) -> Never {
    let fd = restore.pointee.outputFD
    let base = restore.pointee.bytes
    let count = restore.pointee.count
    var offset = 0
    var attempts = 0
    while offset < count && attempts < 64 {
        attempts += 1
        let n = Glibc.write(fd, base + offset, count - offset)
        if n > 0 {
            offset += n
        } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
            // A non-blocking descriptor that is full: wait a little for room, not forever.
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, 50)
        } else if !(n < 0 && errno == EINTR) {
            break  // The terminal is gone (EIO after a hang-up): nothing more to restore on it.
        }
    }
    if restore.pointee.restoresTermios {
        _ = tcsetattr(restore.pointee.termiosFD, TCSANOW, &restore.pointee.savedTermios)
    }
    endProcess(by: signo)
}

/// Ends the process the way `signo` would have: its default action put back, the signal
/// unblocked on this thread (a handler runs with it blocked) and raised again, so that the
/// parent sees the real cause; exits with 128 + `signo` should the process survive it.
/// Async-signal-safe (signal(2), pthread_sigmask(3), raise(3), _exit(2)): the terminating
/// signals' handler and ``TTYTerminal/reraise(_:)`` both end so.
func endProcess(by signo: Int32) -> Never {
    signal(signo, SIG_DFL)
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signo)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
    raise(signo)
    _exit(128 + signo)
}

/// Delivers signals as bytes on a pipe, so that the event loop can wait for them with
/// poll(2) beside the terminal (the self-pipe trick), and ends the process at once on a
/// terminating signal that comes while the loop is busy.
///
/// Installing replaces the handlers of the given signals; ``uninstall()`` puts the old
/// ones back and closes the pipe. Only one may be installed at a time, by the thread that
/// runs the event loop, which calls every method.
///
/// A terminating signal that comes while the loop waits in ``waiting(_:)`` goes through the
/// pipe, and the loop ends the process gracefully. One that comes while the loop does
/// anything else has the handler write the bytes and put back the termios given to
/// ``prepareEmergencyRestore(bytes:to:termios:of:)`` and end the process by that signal, at its
/// default action: a reader busy for a second (or a minute) on a terminal that was closed
/// would otherwise go on computing, and a `kill` would wait for the work to end.
final class SignalPipe {
    /// The read end of the pipe, for poll(2) and ``drain()``.
    let readFD: Int32
    /// The write end of the pipe, which the handlers write to.
    let writeFD: Int32
    private var previous: [(Int32, sigaction)] = []
    private var installed = false
    /// The terminating signals, held back while the emergency data changes.
    private var terminating = sigset_t()

    /// Installs handlers that write `signals` to the pipe, and `terminating` to the pipe
    /// while the loop waits and otherwise restore the terminal and end the process.
    ///
    /// Until ``prepareEmergencyRestore(bytes:to:termios:of:)`` is called, a terminating signal
    /// while the loop is busy ends the process with nothing restored.
    ///
    /// - Parameters:
    ///   - signals: the signals only forwarded to the pipe (SIGWINCH, SIGTSTP, SIGCONT).
    ///   - terminating: the signals that end the process (SIGINT, SIGTERM, SIGHUP).
    /// - Throws: the error of pipe(2) or sigaction(2); nothing stays installed then.
    init(signals: [Int32], terminating terminatingSignals: [Int32]) throws(TerminalError) {
        var fds: [Int32] = [0, 0]
        try systemCall("pipe") { pipe(&fds) }
        readFD = fds[0]
        writeFD = fds[1]
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        sigemptyset(&terminating)
        for signo in terminatingSignals { sigaddset(&terminating, signo) }
        precondition(signalPipeWriteFD == -1, "a signal pipe is already installed")
        installed = true
        let failure: TerminalError? = holdingTerminatingSignals {
            signalPipeWriteFD = writeFD
            signalLoopThread = pthread_self()
            let restore = UnsafeMutablePointer<EmergencyRestore>.allocate(capacity: 1)
            restore.initialize(to: EmergencyRestore(capacity: 64))
            emergencyRestore = restore
            // The terminating signals' handler runs with all of them blocked, so that a
            // second one cannot break into its restoring.
            var empty = sigset_t()
            sigemptyset(&empty)
            let handlers: [(@convention(c) (Int32) -> Void, [Int32], sigset_t)] = [
                (forwardSignal, signals, empty), (endOrForward, terminatingSignals, terminating),
            ]
            for (handler, group, mask) in handlers {
                for signo in group {
                    var action = sigaction()
                    action.__sigaction_handler.sa_handler = handler
                    action.sa_mask = mask
                    action.sa_flags = SA_RESTART
                    var old = sigaction()
                    do throws(TerminalError) {
                        try systemCall("sigaction") { sigaction(signo, &action, &old) }
                    } catch {
                        return error
                    }
                    previous.append((signo, old))
                }
            }
            return nil
        }
        if let failure {
            uninstall()
            throw failure
        }
        // A parent may have left these signals blocked; they must get through.
        var set = terminating
        for signo in signals { sigaddset(&set, signo) }
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Runs `body` with the terminating signals blocked on this thread, then unblocks them
    /// (as they were before): one that comes meanwhile is handled once `body` has returned.
    ///
    /// For changes of the terminal's modes together with the emergency data that undoes them,
    /// so that a signal finds the two in step.
    func holdingTerminatingSignals<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &terminating, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return try body()
    }

    /// Sets what the handler of a terminating signal does to the terminal while the loop is
    /// busy: write `bytes` to `outputFD`, then put `termios` back on `termiosFD`.
    ///
    /// The bytes are copied into memory the handler reads as it is (allocated here when it
    /// needs more room, with the terminating signals held back).
    ///
    /// - Parameters:
    ///   - bytes: what to write (empty: nothing).
    ///   - outputFD: the terminal's output.
    ///   - termios: the termios to put back; nil: leave the termios as it is.
    ///   - termiosFD: the descriptor to put it back on (the terminal's input).
    func prepareEmergencyRestore(bytes: [UInt8], to outputFD: Int32, termios: termios?, of termiosFD: Int32) {
        holdingTerminatingSignals {
            guard let restore = emergencyRestore else { return }
            if bytes.count > restore.pointee.capacity {
                restore.pointee.bytes.deallocate()
                restore.pointee.bytes = .allocate(capacity: bytes.count)
                restore.pointee.capacity = bytes.count
            }
            bytes.withUnsafeBufferPointer { source in
                if let from = source.baseAddress { restore.pointee.bytes.update(from: from, count: source.count) }
            }
            restore.pointee.count = bytes.count
            restore.pointee.outputFD = outputFD
            restore.pointee.restoresTermios = termios != nil
            restore.pointee.savedTermios = termios ?? Glibc.termios()
            restore.pointee.termiosFD = termiosFD
        }
    }

    /// Runs `body`, the event loop's wait in poll(2) on ``readFD`` and the terminal, as the
    /// time when a terminating signal goes through the pipe; at any other time it restores
    /// the terminal and ends the process at once.
    ///
    /// - Returns: what `body` returns, and whether a terminating signal was written to the
    ///   pipe meanwhile: the caller then reads the pipe even if poll(2) had returned for
    ///   something else before the byte was in it.
    func waiting<R>(_ body: () -> R) -> (result: R, signalled: Bool) {
        guard let restore = emergencyRestore else { return (body(), false) }
        restore.pointee.isWaiting.store(true, ordering: .sequentiallyConsistent)
        let result = body()
        restore.pointee.isWaiting.store(false, ordering: .sequentiallyConsistent)
        let signalled = restore.pointee.wroteWhileWaiting.exchange(false, ordering: .sequentiallyConsistent)
        return (result, signalled)
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

    /// Restores the previous handlers, frees the emergency data and closes the pipe.
    ///
    /// Safe to call more than once. A terminating signal that comes meanwhile is held back
    /// until the previous handlers are in place, and then has their effect.
    func uninstall() {
        guard installed else { return }
        installed = false
        holdingTerminatingSignals {
            for (signo, old) in previous.reversed() {
                var old = old
                sigaction(signo, &old, nil)
            }
            previous.removeAll()
            signalPipeWriteFD = -1
            signalLoopThread = 0
            if let restore = emergencyRestore {
                emergencyRestore = nil
                restore.deinitialize(count: 1)
                restore.deallocate()
            }
        }
        close(readFD)
        close(writeFD)
    }

    deinit { uninstall() }
}
