public import SpoilerCore

/// The effect for one laid-out message.
///
/// A scene holds one emitter per hidden word, the live particles, and the reveal state
/// of every word. It is a value; the simulation advances only when told to, in fixed
/// steps, with one seeded generator: the same words, preset, options, seed and calls
/// give the same bits on every run and machine.
///
/// ```swift
/// var scene = Scene(words: [SceneWord(rect: Rect(x: 24, y: 0, width: 48, height: 16),
///                                     graphemes: 6, group: 0)], preset: .dust)
/// scene.step(by: 1.0 / 30)
/// scene.reveal(word: 0, origin: Point(x: 30, y: 8))
/// scene.step(by: 0.5)
/// let shown = scene.textVisibility(word: 0, at: Point(x: 30, y: 8))   // 1
/// ```
///
/// Units: pixels (origin at the layout's top-left, y downward), seconds, radians.
/// ``time`` starts at 0 once the cloud has been pre-warmed (see
/// ``SceneOptions/prewarm``).
public struct SpoilerScene: Sendable {
    /// The hidden words, in layout order.
    public let words: [SceneWord]
    /// The look.
    public let preset: Preset
    /// How the scene runs.
    public let options: SceneOptions
    /// The seed of the scene's random numbers.
    public let seed: UInt64
    /// One emitter per word, shaped and sized like it.
    public private(set) var emitters: [Emitter]
    /// The live particles.
    public private(set) var particles = ParticleField()
    /// The reveal of each word, if one was asked for (it may lie in the future).
    public private(set) var reveals: [RevealState?]
    /// Steps taken since time 0 (negative while pre-warming).
    public private(set) var tick: Int

    private var rng: SplitMix64
    private let motion: CellMotion
    private let spawnCells: [SpawnCell]
    private let sites: [SpawnSite]
    /// How many words have a reveal (scheduled, running or done); 0 skips reveal work.
    private var activeReveals = 0
    private var boxesAreSet = false
    private var boxes: ConfinementBoxes
    private var birthDebt: [Double]
    private var nextID: UInt32 = 0
    private var pendingTicks: Double = 0
    private let cellCount: Int

    /// Seconds since time 0: `tick ÷ tickRate`.
    public var time: Double { Double(tick) / options.tickRate }

    /// Seconds per step.
    public var stepSeconds: Double { 1 / options.tickRate }

    /// A scene over `words`, pre-warmed so that time 0 shows a settled cloud.
    ///
    /// - Parameters:
    ///   - words: the hidden words' rectangles, lengths and groups.
    ///   - preset: the look (``Preset/dust`` for Telegram's invisible ink).
    ///   - options: density, reveal scope, reduced motion, step rate.
    ///   - seed: the random seed; with reduced motion the pattern's seed is fixed (1).
    /// - Complexity: O(prewarm × tickRate × particles).
    public init(words: [SceneWord], preset: Preset, options: SceneOptions = SceneOptions(), seed: UInt64 = 1) {
        precondition(options.tickRate > 0 && options.tickRate.isFinite, "tickRate \(options.tickRate) must be positive")
        self.words = words
        self.preset = preset
        self.options = options
        self.seed = seed
        self.reveals = Array(repeating: nil, count: words.count)
        cellCount = preset.emitter.emitterCells.count
        birthDebt = Array(repeating: 0, count: words.count * cellCount)
        emitters = words.map { SpoilerScene.emitter(for: $0, preset: preset, density: options.density) }
        motion = CellMotion(cells: preset.emitter.emitterCells)
        spawnCells = preset.emitter.emitterCells.map { SpawnCell($0, color: options.particleColor) }
        sites = emitters.map(SpawnSite.init)
        boxes = ConfinementBoxes(mode: preset.confinement, count: words.count)
        if options.reducedMotion {
            rng = SplitMix64(seed: 1)
            tick = 0
            makeStillPattern()
            return
        }
        rng = SplitMix64(seed: seed ^ (UInt64(preset.emitter.seed) &* 0x9E37_79B9_7F4A_7C15))
        let longest =
            preset.emitter.emitterCells.map { ($0.lifetime + $0.lifetimeRange) * preset.emitter.lifetime }.max() ?? 0
        let prewarm = min(max(options.prewarm ?? longest, 0), options.prewarm == nil ? 10 : 3600)
        tick = -Int((prewarm * options.tickRate).rounded())
        while tick < 0 { advanceOneTick() }
    }

    /// The emitter a preset gives a word: the template's shape, mode, multipliers and
    /// cells, placed on the word's rectangle shrunk by the preset's inset, with a birth
    /// rate multiplier of `birthRate × graphemes × density ÷ 20`.
    public static func emitter(for word: SceneWord, preset: Preset, density: Double) -> Emitter {
        var e = preset.emitter
        let r = word.rect.insetBy(preset.inset)
        switch e.emitterShape {
        case .point:
            e.emitterPosition = r.center
            e.emitterSize = SpoilerSize(width: 0, height: 0)
        case .line:
            e.emitterPosition = SpoilerPoint(x: r.x + r.width / 2, y: r.y)
            e.emitterSize = SpoilerSize(width: r.width, height: 0)
        case .rectangle:
            e.emitterPosition = r.center
            e.emitterSize = SpoilerSize(width: r.width, height: r.height)
        case .circle:
            e.emitterPosition = r.center
            e.emitterSize = SpoilerSize(width: min(r.width, r.height) / 2, height: 0)
        }
        e.birthRate = preset.emitter.birthRate * Double(max(word.graphemes, 0)) * max(density, 0) / 20
        return e
    }

    // MARK: Time

    /// Advances the simulation by `seconds` (≥ 0) in whole fixed steps; a remainder
    /// smaller than one step is carried to the next call.
    public mutating func step(by seconds: Double) {
        guard seconds > 0, seconds.isFinite else { return }
        pendingTicks += seconds * options.tickRate
        let n = Int((pendingTicks + 1e-9).rounded(.down))
        pendingTicks = max(0, pendingTicks - Double(n))
        for _ in 0..<n { advanceOneTick() }
    }

    /// Advances the simulation to the step nearest `seconds` (no-op if already past it).
    public mutating func advance(to seconds: Double) {
        guard seconds.isFinite else { return }
        let target = Int((seconds * options.tickRate).rounded())
        while tick < target { advanceOneTick() }
        pendingTicks = 0
    }

    // MARK: Reveal and hide

    /// The words one reveal of `word` uncovers: the word's fragments (scope `word`), every
    /// word of its spoiler entity (scope `spoiler`, ``SceneWord/entity``), or every word
    /// (scope `message`). Empty for an index out of range.
    ///
    /// - Complexity: O(words).
    public func revealTargets(of word: Int) -> [Int] {
        guard words.indices.contains(word) else { return [] }
        switch options.revealScope {
        case .message: return Array(words.indices)
        case .spoiler:
            if let e = words[word].entity { return words.indices.filter { words[$0].entity == e } }
            let g = words[word].group
            return words.indices.filter { words[$0].group == g }
        case .word:
            let g = words[word].group
            return words.indices.filter { words[$0].group == g }
        }
    }

    /// Reveals `word`, and what the scope adds, with a circle from `origin`.
    ///
    /// `origin` defaults to the word's centre, `time` (the click) to now; a later time
    /// schedules the reveal. An index out of range does nothing.
    public mutating func reveal(word: Int, origin: SpoilerPoint? = nil, at time: Double? = nil) {
        guard words.indices.contains(word) else { return }
        applyReveal(to: revealTargets(of: word), origin: origin ?? words[word].rect.center, at: time ?? self.time)
    }

    /// Reveals every word with one circle from `origin` (default: the centre of the
    /// first word), at `time` (default: now).
    public mutating func revealAll(origin: SpoilerPoint? = nil, at time: Double? = nil) {
        guard let first = words.first else { return }
        applyReveal(to: Array(words.indices), origin: origin ?? first.rect.center, at: time ?? self.time)
    }

    /// Reveals exactly `targets` (scene word indices; those out of range are skipped),
    /// whatever the scope, with one circle from `origin` at `time` (default: now).
    ///
    /// The circle grows until it covers the farthest corner of the targets. For restoring
    /// reveals after a reflow (with a time in the past, so that they are already done).
    public mutating func reveal(words targets: [Int], origin: SpoilerPoint, at time: Double? = nil) {
        applyReveal(to: targets.filter { words.indices.contains($0) }, origin: origin, at: time ?? self.time)
    }

    private mutating func applyReveal(to targets: [Int], origin: SpoilerPoint, at start: Double) {
        guard !targets.isEmpty else { return }
        var farthest = 0.0
        for w in targets {
            let r = words[w].rect
            for cx in [r.minX, r.maxX] {
                for cy in [r.minY, r.maxY] {
                    let dx = cx - origin.x
                    let dy = cy - origin.y
                    farthest = max(farthest, (dx * dx + dy * dy).squareRoot())
                }
            }
        }
        let state = RevealState(
            origin: origin, start: start, finalRadius: max(farthest, 1) / RevealTiming.solid, hideStart: nil,
            isInstant: options.reducedMotion)
        for w in targets { reveals[w] = state }
        activeReveals = reveals.reduce(0) { $0 + ($1 == nil ? 0 : 1) }
    }

    /// Hides `word`, and what the scope adds, again at `time` (default: now).
    ///
    /// The circle shrinks back over 0.4 s and the dust returns. Nothing happens if the
    /// word is not revealed.
    public mutating func hide(word: Int, at time: Double? = nil) {
        guard words.indices.contains(word) else { return }
        for w in revealTargets(of: word) { hide(index: w, at: time ?? self.time) }
    }

    /// Hides every revealed word at `time` (default: now).
    public mutating func hideAll(at time: Double? = nil) {
        for w in words.indices { hide(index: w, at: time ?? self.time) }
    }

    private mutating func hide(index w: Int, at t: Double) {
        guard var state = reveals[w] else { return }
        if t <= state.start {
            reveals[w] = nil
            activeReveals -= 1
            return
        }
        if let h = state.hideStart, h <= t { return }
        state.hideStart = t
        reveals[w] = state
    }

    /// The reveal circle's radius in pixels for `word` now, or nil while the word is
    /// hidden (0 during the 0.1 s after the click).
    public func revealRadius(word: Int) -> Double? {
        guard words.indices.contains(word) else { return nil }
        return reveals[word]?.radius(at: time)
    }

    /// How much of `word`'s text shows at `point` now, 0 (hidden) … 1 (shown).
    public func textVisibility(word: Int, at point: SpoilerPoint) -> Double {
        guard words.indices.contains(word), let state = reveals[word] else { return 0 }
        return state.textVisibility(at: point, time: time)
    }

    /// Whether no part of `word`'s text shows now (a renderer must then leave the
    /// word's text out entirely).
    public func isHidden(word: Int) -> Bool {
        guard let r = revealRadius(word: word) else { return true }
        return r <= 0
    }

    /// Whether `word` is entirely shown now (the circle covers all of it).
    public func isFullyRevealed(word: Int) -> Bool {
        guard words.indices.contains(word), let state = reveals[word], let r = state.radius(at: time) else {
            return false
        }
        let rect = words[word].rect
        var farthest = 0.0
        for cx in [rect.minX, rect.maxX] {
            for cy in [rect.minY, rect.maxY] {
                let dx = cx - state.origin.x
                let dy = cy - state.origin.y
                farthest = max(farthest, (dx * dx + dy * dy).squareRoot())
            }
        }
        return farthest <= RevealTiming.solid * r
    }

    /// The index of the word whose rectangle contains `point`, if any (for clicks).
    public func word(at point: SpoilerPoint) -> Int? {
        words.indices.first { words[$0].rect.contains(point) }
    }

    // MARK: Simulation

    private mutating func advanceOneTick() {
        defer { tick += 1 }
        if options.reducedMotion { return }
        let dt = Float(stepSeconds)
        let t = time
        applyRevealForces(time: t, dt: dt)
        updateBoxes(time: t)
        particles.step(by: dt, motion: motion, boxes: boxes)
        birth(time: t + stepSeconds, dt: stepSeconds)
    }

    /// Words being revealed fly freely; the others keep their particles in their
    /// rectangle (with the preset's confinement).
    private mutating func updateBoxes(time t: Double) {
        guard preset.confinement != .none, activeReveals > 0 || !boxesAreSet else { return }
        boxesAreSet = true
        for w in words.indices {
            // Hiding keeps the returning dust in the word again.
            let free = reveals[w].map { $0.isActive(at: t) && !$0.isHiding(at: t) } ?? false
            if free {
                boxes.free(w)
            } else {
                let r = words[w].rect
                boxes.set(w, minX: Float(r.minX), minY: Float(r.minY), maxX: Float(r.maxX), maxY: Float(r.maxY))
            }
        }
    }

    /// For 0.8 s after a click, pushes the word's particles away from it.
    private mutating func applyRevealForces(time t: Double, dt: Float) {
        guard activeReveals > 0 else { return }
        var pushing = [RevealState?](repeating: nil, count: words.count)
        var anyPush = false
        for w in words.indices {
            guard let s = reveals[w], s.isActive(at: t), !s.isHiding(at: t), t >= s.start,
                t < s.start + RevealTiming.push
            else { continue }
            pushing[w] = s
            anyPush = true
        }
        guard anyPush else { return }
        for i in 0..<particles.count {
            let w = Int(particles.word[i])
            guard let s = pushing[w] else { continue }
            let dx = Double(particles.x[i]) - s.origin.x
            let dy = Double(particles.y[i]) - s.origin.y
            let d = max((dx * dx + dy * dy).squareRoot(), 0.5)
            // Away from the click, strongest near it (Telegram's attractor with a
            // negative falloff): 4/s² times the distance still inside the circle's
            // final reach, plus a little everywhere.
            let strength = 4 * max(s.finalRadius - d, 0) + 20
            particles.accelerate(i, ax: Float(strength * dx / d), ay: Float(strength * dy / d), dt: dt)
        }
    }

    private mutating func birth(time t: Double, dt: Double) {
        guard cellCount > 0 else { return }
        for w in words.indices {
            let site = sites[w]
            let state = activeReveals > 0 ? reveals[w] : nil
            // While a reveal shows the text, no particle is born where it shows. Once the
            // hide has begun they are born everywhere again: those under the shrinking
            // circle stay faded until it has passed them (`visibleParticles`), so the
            // cloud is back to strength when the text is covered again.
            let hiding = state?.isHiding(at: t) ?? false
            let blocking = !hiding && (state?.isActive(at: t) ?? false) ? state : nil
            for c in 0..<cellCount {
                let k = w * cellCount + c
                var debt = birthDebt[k] + spawnCells[c].birthRate * site.birthRate * dt
                while debt >= 1 {
                    debt -= 1
                    spawn(word: w, cell: c, site: site, blockedBy: blocking, time: t)
                }
                birthDebt[k] = debt
            }
        }
    }

    private mutating func spawn(
        word w: Int, cell c: Int, site: SpawnSite, blockedBy state: RevealState?, time t: Double
    ) {
        let cell = spawnCells[c]
        // Always draw the same count of numbers, in the same order, whatever the cell
        // says, so that one particle's fields never shift another's.
        let u0 = rng.nextUnit(), u1 = rng.nextUnit(), u2 = rng.nextUnit(), u3 = rng.nextUnit()
        let u4 = rng.nextUnit(), u5 = rng.nextUnit(), u6 = rng.nextUnit(), u7 = rng.nextUnit()
        let u8 = rng.nextUnit(), u9 = rng.nextUnit(), u10 = rng.nextUnit(), u11 = rng.nextUnit()
        let p = site.geometry.birthPoint(u0, u1, u2)
        if let state, state.textVisibility(at: p, time: t) > 0 { return }
        guard
            cell.appendParticle(
                to: &particles, at: p, naturalDirection: site.naturalDirection, lifetimeFactor: site.lifetime,
                word: Int32(w), cell: UInt16(c), id: nextID, u3, u4, u5, u6, u7, u8, u9, u10, u11)
        else { return }
        nextID &+= 1
    }

    /// Reduced motion: Telegram's static pattern, one 1 px dot per 4 px² of each word's
    /// rectangle at a place drawn from a fixed seed, at full opacity, never moving.
    private mutating func makeStillPattern() {
        let cell = preset.emitter.emitterCells.first ?? EmitterCell()
        let base = options.particleColor ?? cell.color
        let rgb = UInt32(base.red) << 16 | UInt32(base.green) << 8 | UInt32(base.blue)
        for (w, word) in words.enumerated() {
            let r = word.rect
            let n = Int((r.width * r.height * 0.25).rounded())
            for _ in 0..<n {
                let x = r.x + rng.nextUnit() * r.width
                let y = r.y + rng.nextUnit() * r.height
                particles.append(
                    x: Float(x), y: Float(y), vx: 0, vy: 0, lifetime: .infinity, scale: 1, spin: 0, alpha: 1,
                    color: rgb, word: Int32(w), cell: 0, id: nextID)
                nextID &+= 1
            }
        }
    }
}
