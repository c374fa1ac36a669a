public import SpoilerCore

/// A particle emitter, with the fields and defaults of Core Animation's `CAEmitterLayer`.
///
/// Units: pixels (origin at the layout's top-left, y downward), seconds. The emitter's
/// `birthRate` and `lifetime` multiply those of every cell, as in Core Animation.
public struct Emitter: Sendable, Hashable {
    /// Where particles are born.
    ///
    /// Default `point`.
    public var emitterShape: EmitterShape = .point
    /// Which part of the shape emits.
    ///
    /// Default `surface` (Core Animation's `volume`).
    public var emitterMode: EmitterMode = .surface
    /// Centre of the shape in pixels.
    ///
    /// Default (0, 0).
    public var emitterPosition = SpoilerPoint(x: 0, y: 0)
    /// Size of the shape in pixels (see ``EmitterShape``).
    ///
    /// Default 0 × 0.
    public var emitterSize = SpoilerSize(width: 0, height: 0)
    /// Multiplies every cell's birth rate.
    ///
    /// Default 1.
    public var birthRate: Double = 1
    /// Multiplies every cell's lifetime.
    ///
    /// Default 1.
    public var lifetime: Double = 1
    /// Mixed into the scene's seed for this emitter's random numbers.
    ///
    /// Default 0.
    public var seed: UInt32 = 0
    /// The kinds of particle this emitter makes.
    public var emitterCells: [EmitterCell] = []

    /// An emitter with Core Animation's defaults and no cells.
    public init() {}

    /// The rectangle the shape occupies (a line has height 0; a circle is its bounding box).
    public var bounds: SpoilerRect {
        let p = emitterPosition
        switch emitterShape {
        case .point: return SpoilerRect(x: p.x, y: p.y, width: 0, height: 0)
        case .line: return SpoilerRect(x: p.x - emitterSize.width / 2, y: p.y, width: emitterSize.width, height: 0)
        case .rectangle:
            return SpoilerRect(
                x: p.x - emitterSize.width / 2, y: p.y - emitterSize.height / 2, width: emitterSize.width,
                height: emitterSize.height)
        case .circle:
            let r = emitterSize.width
            return SpoilerRect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r)
        }
    }

    /// The emitter's geometry, without its cells.
    var geometry: EmitterGeometry {
        EmitterGeometry(shape: emitterShape, mode: emitterMode, position: emitterPosition, size: emitterSize)
    }

    /// The shape's natural direction in radians, to which a cell's longitude is added.
    var naturalDirection: Double { emitterShape == .line ? -EffectMath.halfPi : 0 }
}

/// An emitter's shape and placement: a plain value with no references, so that the
/// birth loop copies it for free.
struct EmitterGeometry: Sendable, Hashable {
    var shape: EmitterShape
    var mode: EmitterMode
    var position: SpoilerPoint
    var size: SpoilerSize

    /// A birth point for a particle, from two uniform numbers `u`, `v` in [0, 1) and a
    /// third `w` for choosing among vertices.
    func birthPoint(_ u: Double, _ v: Double, _ w: Double) -> SpoilerPoint {
        let p = position
        let w2 = size.width / 2
        let h2 = size.height / 2
        switch (shape, mode) {
        case (.point, _):
            return p
        case (.line, .points):
            return SpoilerPoint(x: w < 0.5 ? p.x - w2 : p.x + w2, y: p.y)
        case (.line, _):
            return SpoilerPoint(x: p.x - w2 + u * size.width, y: p.y)
        case (.rectangle, .points):
            let corner = Int(w * 4)
            return SpoilerPoint(x: corner & 1 == 0 ? p.x - w2 : p.x + w2, y: corner < 2 ? p.y - h2 : p.y + h2)
        case (.rectangle, .outline):
            let perimeter = 2 * (size.width + size.height)
            var d = u * perimeter
            if d < size.width { return SpoilerPoint(x: p.x - w2 + d, y: p.y - h2) }
            d -= size.width
            if d < size.height { return SpoilerPoint(x: p.x + w2, y: p.y - h2 + d) }
            d -= size.height
            if d < size.width { return SpoilerPoint(x: p.x + w2 - d, y: p.y + h2) }
            d -= size.width
            return SpoilerPoint(x: p.x - w2, y: p.y + h2 - d)
        case (.rectangle, .surface):
            return SpoilerPoint(x: p.x - w2 + u * size.width, y: p.y - h2 + v * size.height)
        case (.circle, .points):
            return p
        case (.circle, .outline):
            let (s, c) = EffectMath.sinCos(u * EffectMath.twoPi)
            return SpoilerPoint(x: p.x + size.width * c, y: p.y + size.width * s)
        case (.circle, .surface):
            let (s, c) = EffectMath.sinCos(u * EffectMath.twoPi)
            let r = size.width * v.squareRoot()
            return SpoilerPoint(x: p.x + r * c, y: p.y + r * s)
        }
    }
}

/// A cell's numbers for the birth loop, flattened (no strings or arrays to retain).
package struct SpawnCell: Sendable {
    var birthRate, lifetime, lifetimeRange, velocity, velocityRange, longitude, emissionRange: Double
    var scale, scaleRange, spin, spinRange, alpha, alphaRange: Double
    var red, green, blue, redRange, greenRange, blueRange: Double
    /// The colour as `0xRRGGBB` when no channel has a range: what the per-channel
    /// arithmetic gives then (`(b / 255 × 255).rounded()` is `b` for every byte).
    package var fixedColor: UInt32?

    package init(_ c: EmitterCell, color: RGBColor?) {
        birthRate = max(c.birthRate, 0)
        lifetime = c.lifetime
        lifetimeRange = c.lifetimeRange
        velocity = c.velocity
        velocityRange = c.velocityRange
        longitude = c.emissionLongitude
        emissionRange = c.emissionRange
        scale = c.scale
        scaleRange = c.scaleRange
        spin = c.spin
        spinRange = c.spinRange
        alpha = c.alpha
        alphaRange = c.alphaRange
        let base = color ?? c.color
        red = Double(base.red) / 255
        green = Double(base.green) / 255
        blue = Double(base.blue) / 255
        redRange = c.redRange
        greenRange = c.greenRange
        blueRange = c.blueRange
        if c.redRange == 0 && c.greenRange == 0 && c.blueRange == 0 {
            fixedColor = UInt32(base.red) << 16 | UInt32(base.green) << 8 | UInt32(base.blue)
        }
    }

    /// A particle's colour as `0xRRGGBB`, each channel its base plus its range times
    /// `2u - 1` for that channel's uniform number `u`, clamped and rounded to a byte.
    @inline(__always)
    package func color(_ uRed: Double, _ uGreen: Double, _ uBlue: Double) -> UInt32 {
        SpawnCell.channel(red, redRange, uRed) << 16 | SpawnCell.channel(green, greenRange, uGreen) << 8
            | SpawnCell.channel(blue, blueRange, uBlue)
    }

    @inline(__always)
    static func channel(_ v: Double, _ range: Double, _ u: Double) -> UInt32 {
        UInt32((EffectMath.clamp(v + range * (2 * u - 1), 0, 1) * 255).rounded())
    }
}
