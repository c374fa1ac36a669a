/// What a renderer draws of the particles at one instant: the particles whose opacity
/// is above zero, in storage order, as parallel arrays.
///
/// Pixels (origin at the layout's top-left, y downward), radians; `size` is the
/// particle's diameter (`contentsSize × scale`), `alpha` 0…1 with the reveal applied,
/// `color` is `0xRRGGBB`.
public struct VisibleParticles: Sendable, Hashable {
    /// Index of the word the particle belongs to.
    public var word: [Int32] = []
    /// Centre, pixels.
    public var x: [Float] = []
    /// Centre, y coordinate, pixels, y downward (the x coordinate is in ``x``).
    public var y: [Float] = []
    /// Diameter, pixels.
    public var size: [Float] = []
    /// Opacity 0…1.
    public var alpha: [Float] = []
    /// `0xRRGGBB`.
    public var color: [UInt32] = []
    /// Rotation, radians.
    public var rotation: [Float] = []
    /// The shape to draw.
    public var shape: [ParticleShape] = []
    /// The particle's serial number (stable across frames while it lives).
    public var id: [UInt32] = []
    /// Seconds since the particle's birth.
    public var age: [Float] = []

    /// An empty set.
    public init() {}

    /// Number of particles.
    public var count: Int { x.count }

    /// Empties every array, keeping their storage.
    public mutating func removeAll() {
        word.removeAll(keepingCapacity: true)
        x.removeAll(keepingCapacity: true)
        y.removeAll(keepingCapacity: true)
        size.removeAll(keepingCapacity: true)
        alpha.removeAll(keepingCapacity: true)
        color.removeAll(keepingCapacity: true)
        rotation.removeAll(keepingCapacity: true)
        shape.removeAll(keepingCapacity: true)
        id.removeAll(keepingCapacity: true)
        age.removeAll(keepingCapacity: true)
    }
}
