/// Live particles stored as a structure of arrays: one dense array per attribute, all of
/// length ``count``, element `i` of each describing particle `i`.
///
/// Pixels, seconds and radians; origin at the layout's top-left, y downward. Removal
/// swaps the last particle into the gap, so indices are not stable across a step; a
/// particle's ``id`` is. What is the same for every particle of a cell (acceleration,
/// scale and alpha speeds, shape) stays in the cell, not in the field, so a step reads
/// and writes as little memory as it can.
public struct ParticleField: Sendable, Hashable {
    /// Position, pixels.
    public private(set) var x: [Float] = []
    /// Position, y coordinate, pixels (the x coordinate is in ``x``).
    public private(set) var y: [Float] = []
    /// Velocity, pixels per second.
    public private(set) var vx: [Float] = []
    /// Velocity, y component, pixels per second (the x component is in ``vx``).
    public private(set) var vy: [Float] = []
    /// Seconds since birth, and the lifetime the particle was born with.
    public private(set) var age: [Float] = []
    /// The lifetime the particle was born with, seconds; it dies when ``age`` reaches it.
    public private(set) var lifetime: [Float] = []
    /// Scale at birth (the scale now is `scale + cell.scaleSpeed × age`, at least 0).
    public private(set) var scale: [Float] = []
    /// Rotation speed, radians per second (the rotation is `spin × age`).
    public private(set) var spin: [Float] = []
    /// Opacity at birth (before the cell's `alphaSpeed`, `alphaOverLife` and the reveal).
    public private(set) var alpha: [Float] = []
    /// Colour as `0xRRGGBB`.
    public private(set) var color: [UInt32] = []
    /// Index of the word (emitter) that made the particle.
    public private(set) var word: [Int32] = []
    /// Index of the cell in the emitter's `emitterCells`.
    public private(set) var cell: [UInt16] = []
    /// A serial number, unique within a scene, stable while the particle lives.
    public private(set) var id: [UInt32] = []

    /// Indices of particles found dead by the last step, ascending (scratch).
    private var dead: [Int32] = []
    /// One more than the largest word and cell index ever appended (for the kernel's
    /// table look-ups).
    private var wordLimit = 0
    private var cellLimit = 0

    /// An empty field.
    public init() {}

    /// Number of live particles.
    public var count: Int { x.count }

    /// The fewest particles by which ``append(x:y:vx:vy:lifetime:scale:spin:alpha:color:word:cell:id:)``
    /// grows full arrays.
    public static let growthStep = 1024

    /// The particles every array has room for. Arrays reserved alike may still differ:
    /// the allocator can hand one a larger block than asked for.
    private var capacity: Int {
        min(
            x.capacity, y.capacity, vx.capacity, vy.capacity, age.capacity, lifetime.capacity, scale.capacity,
            spin.capacity, alpha.capacity, color.capacity, word.capacity, cell.capacity, id.capacity)
    }

    /// Reserves room for `n` particles in every array.
    public mutating func reserveCapacity(_ n: Int) {
        x.reserveCapacity(n); y.reserveCapacity(n); vx.reserveCapacity(n); vy.reserveCapacity(n)
        age.reserveCapacity(n); lifetime.reserveCapacity(n); scale.reserveCapacity(n); spin.reserveCapacity(n)
        alpha.reserveCapacity(n); color.reserveCapacity(n); word.reserveCapacity(n); cell.reserveCapacity(n)
        id.reserveCapacity(n)
    }

    /// Adds one particle of age 0 at the end.
    ///
    /// When the arrays are full they grow by an eighth (at least ``growthStep``
    /// particles), not twofold as an array does by itself: a scene's field grows to its
    /// steady count once and then stays near it, so doubling would leave up to half of
    /// the field's memory unused. Amortised O(1), as a geometric growth is.
    public mutating func append(
        x px: Float, y py: Float, vx pvx: Float, vy pvy: Float, lifetime plife: Float, scale pscale: Float,
        spin pspin: Float, alpha palpha: Float, color pcolor: UInt32, word pword: Int32, cell pcell: UInt16,
        id pid: UInt32
    ) {
        if count >= capacity { reserveCapacity(count + max(count / 8, Self.growthStep)) }
        x.append(px); y.append(py); vx.append(pvx); vy.append(pvy); age.append(0); lifetime.append(plife)
        scale.append(pscale); spin.append(pspin); alpha.append(palpha); color.append(pcolor); word.append(pword)
        cell.append(pcell); id.append(pid)
        precondition(pword >= 0, "word index \(pword) is negative")
        wordLimit = max(wordLimit, Int(pword) + 1)
        cellLimit = max(cellLimit, Int(pcell) + 1)
    }

    /// Removes particle `i` by moving the last particle into its place.
    ///
    /// O(1).
    public mutating func swapRemove(at i: Int) {
        let last = count - 1
        precondition(i >= 0 && i <= last, "particle index \(i) out of 0..<\(count)")
        if i != last {
            x[i] = x[last]; y[i] = y[last]; vx[i] = vx[last]; vy[i] = vy[last]; age[i] = age[last]
            lifetime[i] = lifetime[last]; scale[i] = scale[last]; spin[i] = spin[last]; alpha[i] = alpha[last]
            color[i] = color[last]; word[i] = word[last]; cell[i] = cell[last]; id[i] = id[last]
        }
        x.removeLast(); y.removeLast(); vx.removeLast(); vy.removeLast(); age.removeLast(); lifetime.removeLast()
        scale.removeLast(); spin.removeLast(); alpha.removeLast(); color.removeLast(); word.removeLast()
        cell.removeLast(); id.removeLast()
    }

    /// Adds `dt × (ax, ay)` to the velocity of particle `i` (a force for one step).
    public mutating func accelerate(_ i: Int, ax: Float, ay: Float, dt: Float) {
        vx[i] += ax * dt
        vy[i] += ay * dt
    }

    /// Advances every particle by `dt` seconds and removes those whose age reaches their
    /// lifetime (by swap-removal, highest index first).
    ///
    /// Per particle: velocity += cell acceleration × dt, position += velocity × dt
    /// (semi-implicit Euler), age += dt; then the particle is kept inside its word's box
    /// (see ``ConfinementBoxes``). This is the fast loop; ``stepReference(by:motion:boxes:)``
    /// is the plain one it must match bit for bit (tested).
    ///
    /// - Complexity: O(n).
    public mutating func step(by dt: Float, motion: CellMotion, boxes: ConfinementBoxes) {
        dead.removeAll(keepingCapacity: true)
        let n = count
        if n > 0 {
            precondition(word.count == n && cell.count == n, "particle arrays of unequal length")
            precondition(boxes.maxWord >= wordLimit, "\(boxes.maxWord) confinement boxes for \(wordLimit) words")
            precondition(
                motion.ax.count == motion.ay.count && motion.ax.count >= cellLimit,
                "\(motion.ax.count) cell motions for \(cellLimit) cells")
            ParticleKernel.run(
                n: n, dt: dt, x: &x, y: &y, vx: &vx, vy: &vy, age: &age, lifetime: lifetime, word: word, cell: cell,
                motion: motion, boxes: boxes, dead: &dead)
        }
        removeDeadFound()
    }

    /// The plain, bounds-checked version of ``step(by:motion:boxes:)``.
    public mutating func stepReference(by dt: Float, motion: CellMotion, boxes: ConfinementBoxes) {
        dead.removeAll(keepingCapacity: true)
        for i in 0..<count {
            let c = Int(cell[i])
            let w = Int(word[i])
            vx[i] += motion.ax[c] * dt
            vy[i] += motion.ay[c] * dt
            var nx = x[i] + vx[i] * dt
            var ny = y[i] + vy[i] * dt
            age[i] += dt
            switch boxes.mode {
            case .none: break
            case .bounce:
                let (lx, ly, hx, hy) = boxes.box(w)
                vx[i] = nx < lx ? abs(vx[i]) : (nx > hx ? -abs(vx[i]) : vx[i])
                vy[i] = ny < ly ? abs(vy[i]) : (ny > hy ? -abs(vy[i]) : vy[i])
                nx = min(max(nx, lx), hx)
                ny = min(max(ny, ly), hy)
            case .wrap:
                let (lx, ly, hx, hy) = boxes.box(w)
                nx = ConfinementBoxes.wrap(nx, lx, hx)
                ny = ConfinementBoxes.wrap(ny, ly, hy)
            }
            x[i] = nx
            y[i] = ny
            if age[i] >= lifetime[i] { dead.append(Int32(i)) }
        }
        let found = dead
        dead.removeAll(keepingCapacity: true)
        for i in found.reversed() { swapRemove(at: Int(i)) }
    }

    private mutating func removeDeadFound() {
        guard !dead.isEmpty else { return }
        // Highest first, each replaced by the last particle: every index above the one
        // removed is alive, so the particle swapped in is alive. The same moves as
        // `swapRemove(at:)` one by one, done array by array.
        ParticleKernel.compact(&x, dead: dead)
        ParticleKernel.compact(&y, dead: dead)
        ParticleKernel.compact(&vx, dead: dead)
        ParticleKernel.compact(&vy, dead: dead)
        ParticleKernel.compact(&age, dead: dead)
        ParticleKernel.compact(&lifetime, dead: dead)
        ParticleKernel.compact(&scale, dead: dead)
        ParticleKernel.compact(&spin, dead: dead)
        ParticleKernel.compact(&alpha, dead: dead)
        ParticleKernel.compact(&color, dead: dead)
        ParticleKernel.compact(&word, dead: dead)
        ParticleKernel.compact(&cell, dead: dead)
        ParticleKernel.compact(&id, dead: dead)
        dead.removeAll(keepingCapacity: true)
    }
}

/// What every particle of a cell shares during a step: its acceleration, indexed by the
/// particle's `cell`.
public struct CellMotion: Sendable, Hashable {
    /// Acceleration in pixels per second², one per cell.
    public var ax: [Float]
    /// Acceleration along y in pixels per second², one per cell (along x it is ``ax``).
    public var ay: [Float]

    /// Whether every acceleration is zero (then a step need not read cell indices).
    public var isStill: Bool { ax.allSatisfy { $0 == 0 } && ay.allSatisfy { $0 == 0 } }

    /// The accelerations of `cells`.
    public init(cells: [EmitterCell]) {
        ax = cells.map { Float($0.xAcceleration) }
        ay = cells.map { Float($0.yAcceleration) }
        if ax.isEmpty {
            ax = [0]
            ay = [0]
        }
    }
}

/// One box per word that keeps its particles in, indexed by the particle's `word`.
///
/// A word whose particles fly freely (a revealed word's) has an infinite box. The edges
/// are stored four to a word (min x, min y, max x, max y), so that a step reads one
/// cache line per particle's box.
public struct ConfinementBoxes: Sendable, Hashable {
    /// How particles are kept in.
    public var mode: Confinement
    /// Box edges in pixels, four per word: min x, min y, max x, max y.
    public private(set) var edges: [Float]
    /// The number of words the boxes cover.
    public var maxWord: Int { edges.count / 4 }

    /// `count` infinite boxes.
    public init(mode: Confinement, count: Int) {
        self.mode = mode
        edges = []
        edges.reserveCapacity(4 * count)
        for _ in 0..<count { edges += [-.infinity, -.infinity, .infinity, .infinity] }
    }

    /// Word `w`'s box.
    public func box(_ w: Int) -> (minX: Float, minY: Float, maxX: Float, maxY: Float) {
        (edges[4 * w], edges[4 * w + 1], edges[4 * w + 2], edges[4 * w + 3])
    }

    /// Sets word `w`'s box.
    public mutating func set(_ w: Int, minX lx: Float, minY ly: Float, maxX hx: Float, maxY hy: Float) {
        edges[4 * w] = lx
        edges[4 * w + 1] = ly
        edges[4 * w + 2] = hx
        edges[4 * w + 3] = hy
    }

    /// Makes word `w`'s box infinite.
    public mutating func free(_ w: Int) {
        set(w, minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
    }

    /// `v` brought into [`lo`, `hi`] by whole periods (unchanged if the box is infinite or
    /// empty).
    @inline(__always)
    static func wrap(_ v: Float, _ lo: Float, _ hi: Float) -> Float {
        let span = hi - lo
        guard span > 0, span.isFinite else { return v }
        if v < lo { return v + span * (((lo - v) / span).rounded(.down) + 1) }
        if v > hi { return v - span * (((v - hi) / span).rounded(.down) + 1) }
        return v
    }
}
