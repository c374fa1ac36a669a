import Glibc

/// The system's monotonic clock (`CLOCK_MONOTONIC`).
public final class SystemClock: TerminalClock {
    /// The system clock; ``now()`` gives seconds since an arbitrary fixed point (usually boot).
    public init() {}

    public func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}

/// A clock that moves only when told to (NIO's `EmbeddedEventLoop` clock): starts at 0.
///
/// Not thread-safe; for tests that drive a player from one thread.
public final class ManualClock: TerminalClock {
    /// The time the clock shows, in seconds; it changes only through `advance(by:)` and
    /// `advance(to:)`, and never goes back.
    public private(set) var time: Double

    /// A clock showing `start` seconds (0 if not given) until it is advanced.
    public init(start: Double = 0) { time = start }

    public func now() -> Double { time }

    /// Moves the clock forward by `seconds` (never backward).
    public func advance(by seconds: Double) {
        if seconds > 0 { time += seconds }
    }

    /// Moves the clock to `seconds` if that is later than now.
    public func advance(to seconds: Double) {
        if seconds > time { time = seconds }
    }
}
