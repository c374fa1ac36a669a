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

    /// Particle `i`: element `i` of every array.
    ///
    /// - Parameter i: an index in `0 ..< count`.
    /// - Returns: the particle's values, as ``SpoilerScene/visibleParticle(at:)`` gives them.
    public subscript(i: Int) -> VisibleParticle {
        VisibleParticle(
            word: word[i], x: x[i], y: y[i], size: size[i], alpha: alpha[i], color: color[i], rotation: rotation[i],
            shape: shape[i], id: id[i], age: age[i])
    }

    /// Appends one particle at the end of every array.
    ///
    /// - Parameter p: the particle; ``count`` grows by one.
    public mutating func append(_ p: VisibleParticle) {
        word.append(p.word)
        x.append(p.x)
        y.append(p.y)
        size.append(p.size)
        alpha.append(p.alpha)
        color.append(p.color)
        rotation.append(p.rotation)
        shape.append(p.shape)
        id.append(p.id)
        age.append(p.age)
    }

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

/// One particle as a renderer draws it: an element of ``VisibleParticles``, read one at a
/// time (``SpoilerScene/visibleParticle(at:)``), in the same units.
public struct VisibleParticle: Sendable, Hashable {
    /// Index of the word the particle belongs to.
    public var word: Int32
    /// Centre, pixels.
    public var x: Float
    /// Centre, y coordinate, pixels, y downward.
    public var y: Float
    /// Diameter, pixels.
    public var size: Float
    /// Opacity 0…1 (above 0).
    public var alpha: Float
    /// `0xRRGGBB`.
    public var color: UInt32
    /// Rotation, radians.
    public var rotation: Float
    /// The shape to draw.
    public var shape: ParticleShape
    /// The particle's serial number (stable across frames while it lives).
    public var id: UInt32
    /// Seconds since the particle's birth.
    public var age: Float

    /// A particle with these values.
    ///
    /// - Parameters:
    ///   - word: the index of its word.
    ///   - x: the centre's x coordinate, pixels.
    ///   - y: the centre's y coordinate, pixels, y downward.
    ///   - size: the diameter, pixels.
    ///   - alpha: the opacity, 0…1.
    ///   - color: `0xRRGGBB`.
    ///   - rotation: radians.
    ///   - shape: the shape to draw.
    ///   - id: the particle's serial number.
    ///   - age: seconds since its birth.
    public init(
        word: Int32, x: Float, y: Float, size: Float, alpha: Float, color: UInt32, rotation: Float,
        shape: ParticleShape, id: UInt32, age: Float
    ) {
        self.word = word
        self.x = x
        self.y = y
        self.size = size
        self.alpha = alpha
        self.color = color
        self.rotation = rotation
        self.shape = shape
        self.id = id
        self.age = age
    }
}
