/// The animated scroll back to the top of the reader (`g`, or a click on "↑"): an
/// ease-in-out movement from a row to a row over a fixed time.
///
/// Times are seconds on any clock (the caller's); rows are rows of text from the top of
/// the document. The position is a pure function of the time, so frames at any rate,
/// or none, see the same movement.
///
/// ```swift
/// let a = ScrollAnimation(from: 120, to: 0, start: now)
/// a.row(at: now + 0.75)   // 60: half way at half time
/// a.row(at: now + 1.49)   // 1: the top comes only at the end
/// a.isFinished(at: now + 1.5)  // true, and row(at:) is exactly 0 from then on
/// ```
public struct ScrollAnimation: Sendable, Hashable {
    /// The usual duration in seconds (DESIGN.md §6: about 1.5 s).
    public static let defaultDuration = 1.5

    /// The row at the start.
    public var from: Double
    /// The row at the end.
    public var to: Double
    /// Clock time of the start, in seconds.
    public var start: Double
    /// Seconds from start to end (at least a millisecond).
    public var duration: Double

    /// A scroll from row `from` to row `to` that starts at clock time `start` (seconds) and lasts
    /// `duration` seconds, at least a millisecond (``defaultDuration`` if not given).
    public init(from: Double, to: Double, start: Double, duration: Double = ScrollAnimation.defaultDuration) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = max(duration, 0.001)
    }

    /// The cubic ease-in-out curve: 0 at 0, 1 at 1, slow at both ends, fastest at ½,
    /// symmetric (`easeInOut(1 - t) == 1 - easeInOut(t)`); `t` is clamped to 0…1.
    public static func easeInOut(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        if t < 0.5 { return 4 * t * t * t }
        let u = -2 * t + 2
        return 1 - u * u * u / 2
    }

    /// The fraction of the way covered at clock time `time`, 0 … 1.
    public func progress(at time: Double) -> Double {
        ScrollAnimation.easeInOut((time - start) / duration)
    }

    /// The (fractional) row at clock time `time`: `from` before the start, `to` exactly
    /// from the end on.
    public func position(at time: Double) -> Double {
        if isFinished(at: time) { return to }
        return from + (to - from) * progress(at: time)
    }

    /// The whole row to show at `time`: the position rounded away from `to`, so that
    /// the last row is reached exactly at the end (not half a row early).
    public func row(at time: Double) -> Int {
        let p = position(at: time)
        return Int(to < from ? p.rounded(.up) : p.rounded(.down))
    }

    /// Whether the movement is over at `time`.
    public func isFinished(at time: Double) -> Bool { time >= start + duration }
}
