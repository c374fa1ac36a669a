/// How many frames a second something is drawn or sampled at: the live player, an ANSI or
/// asciicast recording, an SVG loop, a JSON timeline.
///
/// Every public API that takes a frame rate takes this one type, and the rate is checked
/// once, here: it is a whole number of frames a second in ``range`` (1 to 1000). A literal
/// works wherever a rate is asked for:
///
/// ```swift
/// let recording = ANSIAnimation.frames(layout: layout, scene: scene, options: options, fps: 30, duration: 2)
/// let rate = FrameRate(validating: userInput) ?? .standard   // a number from a user
/// rate.time(ofFrame: 3)                                     // 0.1 s at 30 fps
/// ```
///
/// Times and durations stay `Double` seconds everywhere; frame `k` of a rate is at
/// `k / framesPerSecond` seconds from the start.
public struct FrameRate: Sendable, Hashable, Comparable, Codable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// The rates there can be, in frames a second.
    public static let range: ClosedRange<Int> = 1...1000

    /// 30 frames a second, the default of the command line and of ``standard``.
    public static let standard = FrameRate(30)

    /// Frames a second, within ``range``.
    public let framesPerSecond: Int

    /// A rate of `framesPerSecond` frames a second.
    ///
    /// A rate outside ``range`` is a programmer error and stops the program; for a number
    /// a user gave, use ``init(validating:)`` or ``init(clamping:)``.
    ///
    /// - Parameter framesPerSecond: Frames a second, 1 to 1000.
    public init(_ framesPerSecond: Int) {
        precondition(
            FrameRate.range.contains(framesPerSecond),
            "FrameRate(\(framesPerSecond)): a frame rate is 1 to 1000 frames a second")
        self.framesPerSecond = framesPerSecond
    }

    /// A rate of `framesPerSecond` frames a second, or nil when it is outside ``range``.
    ///
    /// - Parameter framesPerSecond: Frames a second, from a user or a file.
    public init?(validating framesPerSecond: Int) {
        guard FrameRate.range.contains(framesPerSecond) else { return nil }
        self.framesPerSecond = framesPerSecond
    }

    /// The rate nearest `framesPerSecond` within ``range``; a value that is not finite gives
    /// ``standard``.
    ///
    /// - Parameter framesPerSecond: Frames a second, rounded to the nearest whole number.
    public init(clamping framesPerSecond: Double) {
        guard framesPerSecond.isFinite else {
            self = .standard
            return
        }
        let whole = framesPerSecond.rounded()
        let low = Double(FrameRate.range.lowerBound)
        let high = Double(FrameRate.range.upperBound)
        self.framesPerSecond = Int(min(max(whole, low), high))
    }

    /// A rate written as a literal (`fps: 30`); it must be within ``range``.
    ///
    /// - Parameter value: Frames a second, 1 to 1000.
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// Seconds from one frame to the next: `1 / framesPerSecond`.
    public var frameDuration: Double { 1 / Double(framesPerSecond) }

    /// The time of frame `index` in seconds from the start: `index / framesPerSecond`.
    ///
    /// - Parameter index: The frame's number, 0 for the first.
    /// - Returns: Seconds from the start.
    public func time(ofFrame index: Int) -> Double {
        Double(index) / Double(framesPerSecond)
    }

    /// The number of frames in `seconds` (negative or not finite counts as 0), rounded by `rule`.
    ///
    /// - Parameters:
    ///   - seconds: A duration in seconds.
    ///   - rule: How a fraction of a frame is rounded; to the nearest by default.
    /// - Returns: `seconds × framesPerSecond`, rounded, at least 0.
    public func frames(in seconds: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrEven) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int((seconds * Double(framesPerSecond)).rounded(rule))
    }

    /// Whether `lhs` is the slower rate.
    public static func < (lhs: FrameRate, rhs: FrameRate) -> Bool {
        lhs.framesPerSecond < rhs.framesPerSecond
    }

    /// The rate as it is spoken: `30 fps`.
    public var description: String { "\(framesPerSecond) fps" }

    /// Reads a rate written as a number of frames a second; one outside ``range`` is an
    /// error.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a rate outside ``range``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let value = try container.decode(Int.self)
        guard let rate = FrameRate(validating: value) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "a frame rate is 1 to 1000 frames a second, not \(value)")
        }
        self = rate
    }

    /// Writes the rate as its number of frames a second.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(framesPerSecond)
    }
}
