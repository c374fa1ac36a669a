import Glibc
import SpoilerRender

/// The real terminal: raw mode through termios, the alternate screen, a hidden cursor,
/// SGR mouse reports and signals, all undone by ``restore()``.
///
/// Input is read from `/dev/tty` (so a message can come on standard input), output goes
/// to standard output, which must be a terminal. ``start(mouse:)`` sets up in this order:
/// signal handlers (SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGTSTP, SIGCONT through a
/// self-pipe), raw mode, the
/// alternate screen, the hidden cursor, mouse reporting, focus reporting; ``restore()`` undoes exactly
/// what was done, in reverse (termbox's `tb_deinit`), and is safe to call more than once
/// and from `deinit`. The caller restores on every exit path: after a normal end, on an
/// error (`defer`), and before re-raising a terminating signal (``reraise(_:)``).
///
/// A terminating signal (SIGINT, SIGTERM, SIGHUP) reaches the caller as
/// ``DeviceEvent/terminate(signal:)`` only while it waits in ``waitForEvents(timeout:)``.
/// One that comes while the caller is busy elsewhere (a long computation between two waits)
/// is not kept for the next wait: the signal handler itself writes what ``restore()`` would
/// write (after CAN, which ends an escape sequence a frame may have been cut in, and the end
/// of synchronized output), puts the saved termios back, and ends the process by that
/// signal at once, as ``reraise(_:)`` does. Call the methods from one thread, the one that
/// called ``start(mouse:)``: a terminating signal delivered to another thread is sent on to
/// that one, so that the terminal is never restored while a frame is being written to it.
public final class TTYTerminal: TerminalDevice {
    /// The descriptor keys and mouse reports are read from: standard input when it is a terminal,
    /// else `/dev/tty`, which the initialiser opens and `deinit` closes.
    public let inputFD: Int32
    /// The descriptor frames are written to, as given to ``init(outputFD:)``.
    public let outputFD: Int32
    private let ownsInput: Bool
    private var savedTermios: termios?
    private var signals: SignalPipe?
    private var enteredAlternateScreen = false
    private var hidCursor = false
    private var enabledMouse = false
    private var isRaw = false
    private var enabledFocusEvents = false
    private var wantsMouse = true
    private var readBuffer = [UInt8](repeating: 0, count: 4096)

    /// Opens the controlling terminal for input; output goes to `outputFD`.
    /// - Throws: ``TerminalError/notATerminal`` if `outputFD` is not a terminal, or the
    ///   error of opening `/dev/tty`.
    public init(outputFD: Int32 = 1) throws(TerminalError) {
        guard isatty(outputFD) == 1 else { throw .notATerminal }
        self.outputFD = outputFD
        if isatty(0) == 1 {
            inputFD = 0
            ownsInput = false
        } else {
            inputFD = try systemCall("open /dev/tty") { open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY) }
            ownsInput = true
        }
    }

    /// Enters raw mode, the alternate screen, hides the cursor and (with `mouse`) turns
    /// on mouse reports; installs the signal handlers.
    public func start(mouse: Bool = true) throws(TerminalError) {
        do {
            signals = try SignalPipe(signals: [SIGWINCH, SIGTSTP, SIGCONT], terminating: [SIGINT, SIGTERM, SIGHUP])
            wantsMouse = mouse
            try enterModes()
        } catch {
            restore()
            throw error
        }
    }

    /// Raw mode, the alternate screen, the hidden cursor, the mouse (in that order).
    private func enterModes() throws(TerminalError) {
        try changingModes { () throws(TerminalError) in try enterModesNow() }
    }

    /// The steps of ``enterModes()``, each recorded as it is done.
    private func enterModesNow() throws(TerminalError) {
        var t = termios()
        try systemCall("tcgetattr") { tcgetattr(inputFD, &t) }
        if savedTermios == nil { savedTermios = t }
        var raw = savedTermios!
        cfmakeraw(&raw)
        // Output processing stays off (cfmakeraw clears OPOST): frames use no newlines.
        try systemCall("tcsetattr") { tcsetattr(inputFD, TCSANOW, &raw) }
        isRaw = true
        try write(TerminalModes.enterAlternateScreen)
        enteredAlternateScreen = true
        try write(TerminalModes.hideCursor)
        hidCursor = true
        if wantsMouse {
            try write(TerminalModes.enableMouse)
            enabledMouse = true
        }
        try write(TerminalModes.enableFocusEvents)
        enabledFocusEvents = true
    }

    /// Undoes ``enterModes()`` in reverse order, as far as it got; best effort.
    private func leaveModes() {
        changingModes {
            let out = bytesLeavingModes
            if !out.isEmpty { try? write(out) }
            enabledFocusEvents = false
            enabledMouse = false
            hidCursor = false
            enteredAlternateScreen = false
            if isRaw, var t = savedTermios {
                _ = try? systemCall("tcsetattr") { tcsetattr(inputFD, TCSADRAIN, &t) }
            }
            isRaw = false
        }
    }

    /// The bytes that undo the modes entered so far, in reverse order: focus reports, mouse
    /// reports, the pen (reset), the cursor, the alternate screen; empty when none is on.
    ///
    /// What ``leaveModes()`` writes, and what the signal handler writes in its place when a
    /// terminating signal comes while the caller is busy (after ``emergencyPrefix``).
    private var bytesLeavingModes: [UInt8] {
        guard enabledFocusEvents || enabledMouse || hidCursor || enteredAlternateScreen else { return [] }
        var out: [UInt8] = []
        if enabledFocusEvents { out += TerminalModes.disableFocusEvents }
        if enabledMouse { out += TerminalModes.disableMouse }
        out += TerminalModes.resetAttributes
        if hidCursor { out += TerminalModes.showCursor }
        if enteredAlternateScreen { out += TerminalModes.leaveAlternateScreen }
        return out
    }

    /// What the signal handler writes before ``bytesLeavingModes``: CAN (0x18), which ends
    /// any control sequence a frame write cut short by the signal was in (XTerm Control
    /// Sequences: "CAN and SUB … the sequence is … terminated and not executed"), then
    /// `CSI ? 2026 l`, which ends the synchronized output that frames are written in (so that
    /// the terminal shows what follows at once; a terminal not in that mode ignores it).
    private static let emergencyPrefix: [UInt8] = [0x18] + ANSI.endSynchronized

    /// Runs `body`, a change of the terminal's modes, with the terminating signals held
    /// back, then hands the signal handler what undoes the modes on by then: a signal that
    /// comes during the change is handled after it, with the two in step.
    private func changingModes<E: Error>(_ body: () throws(E) -> Void) throws(E) {
        guard let signals else { return try body() }
        try signals.holdingTerminatingSignals { () throws(E) in
            defer {
                let bytes = bytesLeavingModes
                signals.prepareEmergencyRestore(
                    bytes: bytes.isEmpty ? [] : Self.emergencyPrefix + bytes, to: outputFD,
                    termios: isRaw ? savedTermios : nil, of: inputFD)
            }
            try body()
        }
    }

    /// Undoes ``start(mouse:)`` in reverse order, as far as it got.
    ///
    /// Best effort: errors are ignored, because this runs on the way out.
    public func restore() {
        leaveModes()
        savedTermios = nil
        signals?.uninstall()
        signals = nil
    }

    /// Stops the process as Ctrl-Z does in a shell, with the terminal restored while it
    /// is stopped, and sets the terminal up again when the shell continues it (`fg`).
    ///
    /// The caller redraws everything afterwards.
    public func suspend() throws(TerminalError) {
        leaveModes()
        // The whole process group, as the terminal's Ctrl-Z would (vim does the same):
        // a shell sees its job stopped only when all of it is.
        signals?.withDefaultAction(of: SIGTSTP) { _ = kill(0, SIGTSTP) }
        try enterModes()
    }

    /// Sets the terminal up again after the process was stopped and continued by
    /// someone else (SIGSTOP, then SIGCONT): the shell may have reset the tty meanwhile.
    private func resumed() throws(TerminalError) {
        leaveModes()
        try enterModes()
    }

    /// Ends the process the way `signo` would have, after the terminal is restored: the
    /// default action is put back and the signal raised again, so the parent sees the
    /// real cause (a shell prints nothing for SIGINT and reports 128 + signo); if the
    /// process is still alive after that, it exits with 128 + signo.
    public func reraise(_ signo: Int32) -> Never {
        restore()
        endProcess(by: signo)
    }

    deinit {
        restore()
        if ownsInput { close(inputFD) }
    }

    public func size() throws(TerminalError) -> TerminalSize {
        var ws = winsize()
        try systemCall("ioctl TIOCGWINSZ") { ioctl(outputFD, UInt(TIOCGWINSZ), &ws) }
        if ws.ws_col == 0 || ws.ws_row == 0 { return TerminalSize(columns: 80, rows: 24) }
        return TerminalSize(columns: Int(ws.ws_col), rows: Int(ws.ws_row))
    }

    public func write(_ bytes: [UInt8]) throws(TerminalError) {
        try FileOutput.writeAll(bytes, to: outputFD)
    }

    public func waitForEvents(timeout: Double?) throws(TerminalError) -> [DeviceEvent] {
        var fds = [
            pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals?.readFD ?? -1, events: Int16(POLLIN), revents: 0),
        ]
        // Whole milliseconds, rounded up so that a wait never ends before its deadline.
        let milliseconds = timeout.map { Int32(min(max(0, ($0 * 1000).rounded(.up)), 86_400_000)) } ?? -1
        func wait() -> (ready: Int32, errno: Int32) {
            let ready = fds.withUnsafeMutableBufferPointer { buffer in
                poll(buffer.baseAddress, 2, milliseconds)
            }
            return (ready, errno)
        }
        // Only during the wait does a terminating signal go through the pipe; at any other
        // time its handler restores the terminal and ends the process (SignalPipe).
        let (waited, signalled) = signals?.waiting(wait) ?? (wait(), false)
        if waited.ready < 0 {
            if waited.errno == EINTR && !signalled { return [] }
            if waited.errno != EINTR { throw .system(call: "poll", errno: waited.errno) }
        }
        var events: [DeviceEvent] = []
        if fds[1].revents & Int16(POLLIN) != 0 || signalled, let signals {
            var resized = false
            var resumed = false
            for signo in signals.drain() {
                switch signo {
                case SIGWINCH: resized = true
                case SIGCONT: resumed = true
                case SIGTSTP: events.append(.suspend)
                default: events.append(.terminate(signal: signo))
                }
            }
            if resumed {
                try self.resumed()
                events.append(.resumed)
            }
            if resized { events.append(.resized) }
        }
        if fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let n = readBuffer.withUnsafeMutableBytes { raw in Glibc.read(inputFD, raw.baseAddress, raw.count) }
            if n > 0 {
                events.append(.input(Array(readBuffer[0..<n])))
            } else if n == 0 || (errno != EINTR && errno != EAGAIN) {
                events.append(.endOfInput)
            }
        }
        return events
    }
}
