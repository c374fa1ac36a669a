public import SpoilerCore

/// One kind of particle, with the fields and defaults of Core Animation's `CAEmitterCell`.
///
/// Units: pixels, seconds, radians; y grows downward, so an angle of π/2 points down.
/// A "range" is the half-width of a uniform distribution around the mean (`velocity`
/// 200 with `velocityRange` 50 gives 150…250), except `emissionRange`, which is the
/// full width of the cone of directions (2π: every direction), as in Core Animation.
///
/// ```swift
/// var cell = EmitterCell()
/// cell.birthRate = 20
/// cell.lifetime = 1
/// cell.velocityRange = 20
/// cell.emissionRange = 2 * .pi
/// ```
public struct EmitterCell: Sendable, Hashable {
    /// A name, for people reading a preset.
    ///
    /// Default nil.
    public var name: String?
    /// Particles created per second (multiplied by the emitter's `birthRate`).
    ///
    /// Default 0.
    public var birthRate: Double = 0
    /// Mean lifetime in seconds (multiplied by the emitter's `lifetime`).
    ///
    /// Default 0.
    public var lifetime: Double = 0
    /// Lifetime spread in seconds, either side of the mean.
    ///
    /// Default 0.
    public var lifetimeRange: Double = 0
    /// Mean initial speed in pixels per second.
    ///
    /// Default 0.
    public var velocity: Double = 0
    /// Speed spread in pixels per second, either side of the mean.
    ///
    /// Default 0.
    public var velocityRange: Double = 0
    /// Direction of emission in radians, relative to the shape's natural direction.
    ///
    /// The natural direction is +x for point, rectangle and circle, and up (−y) for a line,
    /// so that π emits downward as in Core Animation confetti recipes. Default 0.
    public var emissionLongitude: Double = 0
    /// Full width in radians of the cone of directions around `emissionLongitude`.
    ///
    /// Directions are uniform across it. Default 0.
    public var emissionRange: Double = 0
    /// Acceleration along x in pixels per second².
    ///
    /// Default 0.
    public var xAcceleration: Double = 0
    /// Acceleration along y (downward) in pixels per second².
    ///
    /// Default 0.
    public var yAcceleration: Double = 0
    /// Mean rotation speed in radians per second.
    ///
    /// Default 0.
    public var spin: Double = 0
    /// Rotation speed spread in radians per second, either side of the mean.
    ///
    /// Default 0.
    public var spinRange: Double = 0
    /// Mean scale factor applied to `contentsSize`.
    ///
    /// Default 1.
    public var scale: Double = 1
    /// Scale spread either side of the mean.
    ///
    /// Default 0.
    public var scaleRange: Double = 0
    /// Change of scale per second.
    ///
    /// Default 0.
    public var scaleSpeed: Double = 0
    /// Mean opacity, 0…1 (the alpha of Core Animation's `color`).
    ///
    /// Default 1.
    public var alpha: Double = 1
    /// Opacity spread either side of the mean.
    ///
    /// Default 0.
    public var alphaRange: Double = 0
    /// Change of opacity per second.
    ///
    /// Default 0.
    public var alphaSpeed: Double = 0
    /// Mean colour.
    ///
    /// Default opaque white.
    public var color = RGBColor(red: 255, green: 255, blue: 255)
    /// Spread of each channel either side of the mean, as a fraction of full scale (0…1).
    ///
    /// Default 0.
    public var redRange: Double = 0
    /// Spread of the green channel either side of the mean, as a fraction of full scale (0…1).
    public var greenRange: Double = 0
    /// Spread of the blue channel either side of the mean, as a fraction of full scale (0…1).
    public var blueRange: Double = 0
    /// The particle's shape, standing in for the `contents` image.
    ///
    /// Default `dot`.
    public var contents: ParticleShape = .dot
    /// The shape's size in pixels at scale 1 (the pixel size of a `contents` image).
    ///
    /// Default 1.
    public var contentsSize: Double = 1
    /// Opacity added over the particle's life, as key values spaced evenly from birth to death.
    ///
    /// This is Core Animation's private `valueOverLife` behaviour on `color.alpha`, which
    /// Telegram's invisible ink uses. Empty (the default) adds nothing.
    public var alphaOverLife: [Double] = []

    /// A cell with Core Animation's defaults (it emits nothing until `birthRate` and
    /// `lifetime` are set).
    public init() {}

    /// The opacity added by ``alphaOverLife`` at `fraction` (0 at birth, 1 at death),
    /// interpolated linearly between key values.
    public func alphaOverLife(at fraction: Double) -> Double {
        let keys = alphaOverLife
        guard keys.count > 1 else { return keys.first ?? 0 }
        let f = min(max(fraction, 0), 1) * Double(keys.count - 1)
        let i = min(Int(f), keys.count - 2)
        let t = f - Double(i)
        return keys[i] + (keys[i + 1] - keys[i]) * t
    }
}
