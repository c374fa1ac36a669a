/// Live particles stored as a structure of arrays: one dense array per attribute, all of
/// length ``count``, element `i` of each describing particle `i`.
///
/// Pixels, seconds and radians; origin at the layout's top-left, y downward. Removal
/// swaps the last particle into the gap, so indices are not stable across a step; a
/// particle's ``id`` is. No per-particle objects, no existentials: a step is a few
/// straight loops over `Float` arrays.
public struct ParticleField: Sendable, Hashable {
    /// Position, pixels.
    public private(set) var x: [Float] = []
    public private(set) var y: [Float] = []
    /// Velocity, pixels per second.
    public private(set) var vx: [Float] = []
    public private(set) var vy: [Float] = []
    /// Acceleration, pixels per second².
    public private(set) var ax: [Float] = []
    public private(set) var ay: [Float] = []
    /// Seconds since birth, and the lifetime the particle was born with.
    public private(set) var age: [Float] = []
    public private(set) var lifetime: [Float] = []
    /// Scale factor applied to the cell's `contentsSize`, and its change per second.
    public private(set) var scale: [Float] = []
    public private(set) var scaleSpeed: [Float] = []
    /// Rotation speed, radians per second (the rotation is `spin × age`).
    public private(set) var spin: [Float] = []
    /// Opacity at birth and its change per second (before `alphaOverLife` and reveal).
    public private(set) var alpha: [Float] = []
    public private(set) var alphaSpeed: [Float] = []
    /// Colour as `0xRRGGBB`.
    public private(set) var color: [UInt32] = []
    /// Index of the word (emitter) that made the particle.
    public private(set) var word: [Int32] = []
    /// Index of the cell in the emitter's `emitterCells`.
    public private(set) var cell: [UInt16] = []
    /// A serial number, unique within a scene, stable while the particle lives.
    public private(set) var id: [UInt32] = []

    /// An empty field.
    public init() {}

    /// Number of live particles.
    public var count: Int { x.count }

    /// Reserves room for `n` particles in every array.
    public mutating func reserveCapacity(_ n: Int) {
        x.reserveCapacity(n); y.reserveCapacity(n); vx.reserveCapacity(n); vy.reserveCapacity(n)
        ax.reserveCapacity(n); ay.reserveCapacity(n); age.reserveCapacity(n); lifetime.reserveCapacity(n)
        scale.reserveCapacity(n); scaleSpeed.reserveCapacity(n); spin.reserveCapacity(n)
        alpha.reserveCapacity(n); alphaSpeed.reserveCapacity(n); color.reserveCapacity(n)
        word.reserveCapacity(n); cell.reserveCapacity(n); id.reserveCapacity(n)
    }

    /// Adds one particle at the end.
    public mutating func append(
        x px: Float, y py: Float, vx pvx: Float, vy pvy: Float, ax pax: Float, ay pay: Float, lifetime plife: Float,
        scale pscale: Float, scaleSpeed pss: Float, spin pspin: Float, alpha palpha: Float, alphaSpeed pas: Float,
        color pcolor: UInt32, word pword: Int32, cell pcell: UInt16, id pid: UInt32
    ) {
        x.append(px); y.append(py); vx.append(pvx); vy.append(pvy); ax.append(pax); ay.append(pay)
        age.append(0); lifetime.append(plife); scale.append(pscale); scaleSpeed.append(pss); spin.append(pspin)
        alpha.append(palpha); alphaSpeed.append(pas); color.append(pcolor); word.append(pword); cell.append(pcell)
        id.append(pid)
    }

    /// Removes particle `i` by moving the last particle into its place. O(1).
    public mutating func swapRemove(at i: Int) {
        let last = count - 1
        precondition(i >= 0 && i <= last, "particle index \(i) out of 0..<\(count)")
        if i != last {
            x[i] = x[last]; y[i] = y[last]; vx[i] = vx[last]; vy[i] = vy[last]; ax[i] = ax[last]; ay[i] = ay[last]
            age[i] = age[last]; lifetime[i] = lifetime[last]; scale[i] = scale[last]; scaleSpeed[i] = scaleSpeed[last]
            spin[i] = spin[last]; alpha[i] = alpha[last]; alphaSpeed[i] = alphaSpeed[last]; color[i] = color[last]
            word[i] = word[last]; cell[i] = cell[last]; id[i] = id[last]
        }
        x.removeLast(); y.removeLast(); vx.removeLast(); vy.removeLast(); ax.removeLast(); ay.removeLast()
        age.removeLast(); lifetime.removeLast(); scale.removeLast(); scaleSpeed.removeLast(); spin.removeLast()
        alpha.removeLast(); alphaSpeed.removeLast(); color.removeLast(); word.removeLast(); cell.removeLast()
        id.removeLast()
    }

    /// Removes every particle whose age has reached its lifetime, by swap-removal.
    ///
    /// - Complexity: O(n).
    public mutating func removeDead() {
        var i = 0
        while i < count {
            if age[i] >= lifetime[i] { swapRemove(at: i) } else { i += 1 }
        }
    }

    /// Moves every particle by `dt` seconds (semi-implicit Euler: velocity first, then
    /// position), ages it and grows or shrinks its scale (never below 0).
    ///
    /// This is the reference loop; ``integrate(by:)`` is the fast one and must give the
    /// same bits (tested).
    public mutating func integrateReference(by dt: Float) {
        for i in 0..<count {
            vx[i] += ax[i] * dt
            vy[i] += ay[i] * dt
            x[i] += vx[i] * dt
            y[i] += vy[i] * dt
            age[i] += dt
            scale[i] = max(0, scale[i] + scaleSpeed[i] * dt)
        }
    }

    /// Moves every particle by `dt` seconds; the same arithmetic as
    /// ``integrateReference(by:)``.
    ///
    /// - Complexity: O(n).
    public mutating func integrate(by dt: Float) {
        integrateReference(by: dt)
    }

    /// Adds `dt × (ax, ay)` to the velocity of particle `i` (a force for one step).
    mutating func accelerate(_ i: Int, ax dax: Float, ay day: Float, dt: Float) {
        vx[i] += dax * dt
        vy[i] += day * dt
    }

    /// Keeps particle `i` inside the box: with `bounce` it is clamped to the edge and its
    /// velocity turned inward; with `wrap` it re-enters at the opposite edge.
    mutating func confine(_ i: Int, minX: Float, minY: Float, maxX: Float, maxY: Float, mode: Confinement) {
        switch mode {
        case .none:
            return
        case .bounce:
            if x[i] < minX {
                x[i] = minX
                vx[i] = abs(vx[i])
            } else if x[i] > maxX {
                x[i] = maxX
                vx[i] = -abs(vx[i])
            }
            if y[i] < minY {
                y[i] = minY
                vy[i] = abs(vy[i])
            } else if y[i] > maxY {
                y[i] = maxY
                vy[i] = -abs(vy[i])
            }
        case .wrap:
            let w = maxX - minX
            let h = maxY - minY
            if w > 0 {
                if x[i] < minX { x[i] += w * (((minX - x[i]) / w).rounded(.down) + 1) }
                if x[i] > maxX { x[i] -= w * (((x[i] - maxX) / w).rounded(.down) + 1) }
            }
            if h > 0 {
                if y[i] < minY { y[i] += h * (((minY - y[i]) / h).rounded(.down) + 1) }
                if y[i] > maxY { y[i] -= h * (((y[i] - maxY) / h).rounded(.down) + 1) }
            }
        }
    }
}
