/// The size of a terminal in cells.
public struct TerminalSize: Sendable, Hashable {
    /// The width in cells.
    public var columns: Int
    /// The height in cells.
    public var rows: Int
    /// A size of `columns` × `rows` cells.
    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// Something that happened at the terminal while the player waited.
public enum DeviceEvent: Sendable, Hashable {
    /// Bytes typed (keys, mouse reports), as read.
    case input([UInt8])
    /// The window changed size (SIGWINCH).
    case resized
    /// A signal asked the program to end (SIGINT, SIGTERM, SIGHUP): restore and exit.
    case terminate(signal: Int32)
    /// The terminal went away (end of input).
    case endOfInput
    /// Someone asked the program to stop (SIGTSTP): call ``TerminalDevice/suspend()``.
    case suspend
    /// The program was continued after a stop (SIGCONT); the terminal is set up again
    /// and must be redrawn.
    case resumed
}

/// The terminal as the player sees it: a size, a place to write frames, and a wait for
/// input, signals or a deadline.
///
/// ``TTYTerminal`` is the real one; ``ScriptedTerminal`` plays a script against a
/// ``ManualClock`` for tests (NIO's `EmbeddedEventLoop`, ratatui's `TestBackend`).
public protocol TerminalDevice: AnyObject {
    /// The current size in cells.
    func size() throws(TerminalError) -> TerminalSize
    /// Writes all of `bytes`.
    func write(_ bytes: [UInt8]) throws(TerminalError)
    /// Waits until input arrives, a signal is delivered, or `timeout` seconds pass
    /// (nil: no limit), and returns what happened (empty after a timeout).
    func waitForEvents(timeout: Double?) throws(TerminalError) -> [DeviceEvent]
    /// Stops the program as a shell's Ctrl-Z does, the terminal restored meanwhile, and
    /// returns once it continues, with the terminal set up again (the caller redraws).
    func suspend() throws(TerminalError)
}

/// Monotonic time in seconds for the player.
public protocol TerminalClock: AnyObject {
    /// Seconds since an arbitrary fixed start; never decreases.
    func now() -> Double
}
