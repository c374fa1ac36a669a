/// Where an emitter creates particles, as `CAEmitterLayer.emitterShape`.
///
/// Geometry follows Core Animation, in pixels with y downward: `position` is the centre
/// of the shape; `line` runs from `position.x - size.width/2` to `position.x +
/// size.width/2` at `position.y`; `rectangle` spans `size` around `position`; `circle`
/// has radius `size.width` (as Apple documents it).
public enum EmitterShape: String, Sendable, Hashable, CaseIterable {
    /// A single point at `position` (Core Animation's default).
    case point
    /// A horizontal line of length `size.width` centred on `position`.
    case line
    /// A rectangle of `size` centred on `position`.
    case rectangle
    /// A circle of radius `size.width` centred on `position`.
    case circle
}

/// Which part of the shape emits, as `CAEmitterLayer.emitterMode`.
///
/// Core Animation's default is `volume`, which in two dimensions is the same as
/// `surface`; the JSON loader accepts `"volume"` as a synonym.
public enum EmitterMode: String, Sendable, Hashable, CaseIterable {
    /// The shape's vertices: the ends of a line, the corners of a rectangle, the centre of
    /// a circle or the point.
    case points
    /// The shape's outline: a line, a rectangle's perimeter, a circle's circumference.
    case outline
    /// The shape's area (for a line, the line itself).
    case surface
}

/// What a particle looks like, standing in for `CAEmitterCell.contents` (an image in
/// Core Animation): a shape drawn `size × scale` pixels across.
public enum ParticleShape: String, Sendable, Hashable, CaseIterable {
    /// A filled circle.
    case dot
    /// A filled square, rotated by the particle's spin.
    case square
    /// A filled regular hexagon, rotated by the particle's spin.
    case polygon
    /// A filled five-pointed star, rotated by the particle's spin.
    case star
}

/// What keeps a word's particles near its rectangle.
public enum Confinement: String, Sendable, Hashable, CaseIterable {
    /// Particles fly freely.
    case none
    /// Particles bounce off the emitter rectangle's edges (the invisible-ink look: the
    /// dust of a word stays inside the word, like Telegram's `masksToBounds`).
    case bounce
    /// Particles leaving one edge come back at the opposite one (snow that keeps falling).
    case wrap
}
