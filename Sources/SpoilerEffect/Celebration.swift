public import SpoilerCore

/// Confetti over a whole view, separate from the dust that covers each hidden word:
/// what a player shows when the last hidden word of a message is revealed.
///
/// The preset's emitter is placed on the view's rectangle as ``SpoilerScene`` places a
/// word's (for ``Preset/confetti``, a line along the top edge as wide as the view),
/// moved down by ``topInset(of:)`` so that a piece is whole the first time it shows.
/// It births for ``emissionSeconds`` at the preset's birth rate for every
/// ``widthPerBirthRate`` pixels of the view's width, up to ``maxBirthWidth`` (a wider
/// view gets that many pieces, spread over its whole width); each piece then falls through the
/// whole view, spinning and shrinking as its cell says, until its lifetime ends, it
/// shrinks to nothing, or it has left the view for good (past an edge, moving away from
/// it). Then the celebration ``isFinished`` and stepping it costs nothing. With reduced
/// motion there is no confetti: the celebration is finished from the start.
///
/// Like the scene it is a value, stepped in fixed steps with one seeded generator: the
/// same view, preset, start, seed and calls give the same bits on every run and machine.
///
/// ```swift
/// let view = SpoilerRect(x: 0, y: 0, width: 320, height: 240)
/// var party = Celebration(view: view, start: 1.5, seed: 7)
/// party.advance(to: 2)                        // 0.5 s after the start
/// let pieces = party.visibleParticles()       // positions, sizes, rotations, colours
/// ```
///
/// Units: pixels in the caller's coordinates (the view's rectangle), seconds on the
/// caller's clock (``start`` and ``advance(to:)`` use the same one), radians.
public struct Celebration: Sendable {
    /// The area the confetti falls over.
    public let view: SpoilerRect
    /// The look (``Preset/confetti`` by default).
    public let preset: Preset
    /// The time at which the celebration starts (the reveal of the last hidden word).
    public let start: Double
    /// The seed of the celebration's random numbers.
    public let seed: UInt64
    /// How the celebration runs (its step rate and reduced motion are used).
    public let options: SceneOptions
    /// The emitter, placed on the view.
    public let emitter: Emitter
    /// The live pieces (their `word` is always 0).
    public private(set) var particles = ParticleField()
    /// Steps taken since ``start``.
    public private(set) var tick = 0

    /// Seconds the emitter births for, from ``start``.
    public static let emissionSeconds = 1.5
    /// The view's width, in pixels, for which the emitter births at the preset's rate
    /// (a view twice as wide gets twice as many pieces).
    public static let widthPerBirthRate = 64.0
    /// The widest view whose width adds pieces, in pixels: a 4K screen's width, or a
    /// 512-column terminal at 8 pixels a cell. A message laid out on one long line can be
    /// hundreds of thousands of pixels wide; its confetti is that of a view this wide,
    /// spread over the whole line, so that the pieces, and a render's memory and time,
    /// stay bounded.
    public static let maxBirthWidth = 4096.0
    /// The height of a picture's stage when a renderer is asked for a celebration and
    /// given no stage size: enough for a piece to be seen falling for about 1.5 s.
    public static let defaultStageHeight = 320

    private var rng: SplitMix64
    private let motion: CellMotion
    private let boxes = ConfinementBoxes(mode: .none, count: 1)
    private let spawnCells: [SpawnCell]
    private let site: SpawnSite
    private var birthDebt: [Double]
    private var nextID: UInt32 = 0
    private let emissionTicks: Int

    /// A celebration over `view` that starts at `start`.
    ///
    /// - Parameters:
    ///   - view: the whole view, in the caller's pixels.
    ///   - preset: the look; its emitter shape is placed on `view` (confetti: a line along
    ///     the top edge).
    ///   - start: the time of the last reveal, on the caller's clock.
    ///   - seed: the random seed.
    ///   - options: the step rate (``SceneOptions/tickRate``) and reduced motion (then
    ///     no confetti at all); the density is not used.
    public init(
        view: SpoilerRect, preset: Preset = .confetti, start: Double, seed: UInt64 = 1,
        options: SceneOptions = SceneOptions()
    ) {
        precondition(options.tickRate > 0 && options.tickRate.isFinite, "tickRate \(options.tickRate) must be positive")
        self.view = view
        self.preset = preset
        self.start = start
        self.seed = seed
        self.options = options
        let inset = Celebration.topInset(of: preset)
        var e = SpoilerScene.emitter(
            for: SceneWord(rect: view, graphemes: 1, group: 0),
            preset: Preset(name: preset.name, emitter: preset.emitter),
            density: 20)
        if e.emitterShape == .line { e.emitterPosition.y += min(inset, max(view.height, 0)) }
        e.birthRate =
            preset.emitter.birthRate * min(max(view.width, 0), Celebration.maxBirthWidth)
            / Celebration.widthPerBirthRate
        emitter = e
        site = SpawnSite(e)
        motion = CellMotion(cells: preset.emitter.emitterCells)
        spawnCells = preset.emitter.emitterCells.map { SpawnCell($0, color: nil) }
        birthDebt = Array(repeating: 0, count: spawnCells.count)
        rng = SplitMix64(seed: seed ^ 0xC0FF_EE00_5EED_F00D ^ (UInt64(preset.emitter.seed) &* 0x9E37_79B9_7F4A_7C15))
        emissionTicks = options.reducedMotion ? 0 : Int((Celebration.emissionSeconds * options.tickRate).rounded())
    }

    /// How far below the top edge a line emitter sits: three quarters of the largest
    /// piece across, which is more than the half-diagonal of a square (the widest shape
    /// for its size), so a piece born there is whole inside the view.
    public static func topInset(of preset: Preset) -> Double {
        preset.emitter.emitterCells.map { 0.75 * $0.contentsSize * max($0.scale + $0.scaleRange, 0) }.max() ?? 0
    }

    /// The time the celebration has been advanced to, on the caller's clock.
    public var time: Double { start + Double(tick) / options.tickRate }

    /// Whether the emitter has stopped and every piece is gone (always true with
    /// reduced motion): from then on nothing changes and stepping is free.
    public var isFinished: Bool { tick >= emissionTicks && particles.count == 0 }

    /// The latest time at which a piece can still show: the end of the emission plus
    /// the longest lifetime.
    public var latestEnd: Double {
        let cells = preset.emitter.emitterCells
        let longest = (cells.map { $0.lifetime + $0.lifetimeRange }.max() ?? 0) * preset.emitter.lifetime
        return start + Double(emissionTicks) / options.tickRate + max(longest, 0)
    }

    /// Advances to the step nearest `time` on the caller's clock (nothing before
    /// ``start`` or when already past it).
    ///
    /// - Complexity: O(steps × pieces) while it runs, O(1) once finished.
    public mutating func advance(to time: Double) {
        guard time.isFinite else { return }
        let target = Int(((time - start) * options.tickRate).rounded())
        while tick < target {
            if isFinished {
                tick = target
                return
            }
            advanceOneTick()
        }
    }

    // MARK: Reading pieces

    /// Fills `out` with the pieces that show now: size `contentsSize × scale` with the
    /// cell's scale speed applied, rotation `spin × age`, opacity with the cell's alpha
    /// speed and alpha over life; `word` is 0 for every piece.
    ///
    /// - Complexity: O(pieces).
    public func visibleParticles(into out: inout VisibleParticles) {
        out.removeAll()
        let cells = preset.emitter.emitterCells
        for i in 0..<particles.count {
            let c = Int(particles.cell[i])
            guard c < cells.count else { continue }
            let cell = cells[c]
            let age = Double(particles.age[i])
            let life = Double(particles.lifetime[i])
            let scale = max(0, Double(particles.scale[i]) + cell.scaleSpeed * age)
            var a = Double(particles.alpha[i]) + cell.alphaSpeed * age
            if !cell.alphaOverLife.isEmpty { a += cell.alphaOverLife(at: life > 0 ? age / life : 1) }
            a = EffectMath.clamp(a, 0, 1)
            guard a > 0, scale > 0 else { continue }
            out.append(
                VisibleParticle(
                    word: 0, x: particles.x[i], y: particles.y[i], size: Float(cell.contentsSize * scale),
                    alpha: Float(a), color: particles.color[i], rotation: particles.spin[i] * particles.age[i],
                    shape: cell.contents, id: particles.id[i], age: particles.age[i]))
        }
    }

    /// The pieces that show now.
    public func visibleParticles() -> VisibleParticles {
        var out = VisibleParticles()
        visibleParticles(into: &out)
        return out
    }

    // MARK: Simulation

    private mutating func advanceOneTick() {
        defer { tick += 1 }
        let dt = 1 / options.tickRate
        if particles.count > 0 {
            particles.step(by: Float(dt), motion: motion, boxes: boxes)
            removeGone()
        }
        if tick < emissionTicks { birth(dt: dt) }
    }

    /// Removes the pieces shrunk to nothing or out of the view for good.
    private mutating func removeGone() {
        let cells = preset.emitter.emitterCells
        let minX = Float(view.minX), maxX = Float(view.maxX), minY = Float(view.minY), maxY = Float(view.maxY)
        var i = particles.count - 1
        while i >= 0 {
            let c = Int(particles.cell[i])
            let cell = c < cells.count ? cells[c] : EmitterCell()
            let scale = particles.scale[i] + Float(cell.scaleSpeed) * particles.age[i]
            let r = 0.75 * Float(cell.contentsSize) * max(scale, 0)
            let x = particles.x[i], y = particles.y[i], vx = particles.vx[i], vy = particles.vy[i]
            let ax = Float(cell.xAcceleration), ay = Float(cell.yAcceleration)
            let gone =
                (scale <= 0 && cell.scaleSpeed <= 0) || (y - r > maxY && vy >= 0 && ay >= 0)
                || (y + r < minY && vy <= 0 && ay <= 0) || (x - r > maxX && vx >= 0 && ax >= 0)
                || (x + r < minX && vx <= 0 && ax <= 0)
            if gone { particles.swapRemove(at: i) }
            i -= 1
        }
    }

    private mutating func birth(dt: Double) {
        for c in spawnCells.indices {
            var debt = birthDebt[c] + spawnCells[c].birthRate * site.birthRate * dt
            while debt >= 1 {
                debt -= 1
                let u0 = rng.nextUnit(), u1 = rng.nextUnit(), u2 = rng.nextUnit(), u3 = rng.nextUnit()
                let u4 = rng.nextUnit(), u5 = rng.nextUnit(), u6 = rng.nextUnit(), u7 = rng.nextUnit()
                let u8 = rng.nextUnit(), u9 = rng.nextUnit(), u10 = rng.nextUnit(), u11 = rng.nextUnit()
                let p = site.geometry.birthPoint(u0, u1, u2)
                if spawnCells[c].appendParticle(
                    to: &particles, at: p, naturalDirection: site.naturalDirection, lifetimeFactor: site.lifetime,
                    word: 0, cell: UInt16(c), id: nextID, u3, u4, u5, u6, u7, u8, u9, u10, u11)
                {
                    nextID &+= 1
                }
            }
            birthDebt[c] = debt
        }
    }
}

extension SpoilerScene {
    /// The time at which the last hidden word is revealed: the latest reveal start, once
    /// every word has a reveal (scheduled or done); nil while a word has none, or for a
    /// scene without words. A celebration starts then.
    public var lastRevealTime: Double? {
        guard !reveals.isEmpty else { return nil }
        var latest = -Double.infinity
        for r in reveals {
            guard let r else { return nil }
            latest = max(latest, r.start)
        }
        return latest
    }
}
