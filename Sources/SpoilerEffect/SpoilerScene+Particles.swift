import SpoilerCore

extension SpoilerScene {
    /// Fills `out` with the particles that show now (opacity above zero).
    ///
    /// - Complexity: O(particles).
    public func visibleParticles(into out: inout VisibleParticles) {
        out.removeAll()
        for i in 0..<particles.count {
            guard let p = visibleParticle(at: i) else { continue }
            out.append(p)
        }
    }

    /// The particles that show now.
    public func visibleParticles() -> VisibleParticles {
        var out = VisibleParticles()
        visibleParticles(into: &out)
        return out
    }

    /// How particle `i` of ``particles`` (storage order) shows now, or nil when its
    /// opacity is zero: element `k` of ``visibleParticles()`` is this for the `k`-th
    /// index that is not nil.
    ///
    /// A renderer that draws each particle once can read them this way instead of
    /// copying the visible ones into a ``VisibleParticles`` first, so that a still frame
    /// holds the scene and nothing of its size besides.
    ///
    /// ```swift
    /// for i in 0..<scene.particles.count {
    ///     guard let p = scene.visibleParticle(at: i) else { continue }
    ///     draw(p.x, p.y, p.size, p.alpha)
    /// }
    /// ```
    ///
    /// - Parameter i: an index in `0 ..< particles.count`.
    /// - Returns: the particle as drawn (pixels, radians, opacity 0…1), or nil.
    /// - Complexity: O(1).
    public func visibleParticle(at i: Int) -> VisibleParticle? {
        let cells = preset.emitter.emitterCells
        let t = time
        let w = Int(particles.word[i])
        let c = Int(particles.cell[i])
        let age = Double(particles.age[i])
        let life = Double(particles.lifetime[i])
        var a = Double(particles.alpha[i])
        var scale = Double(particles.scale[i])
        if !options.reducedMotion, c < cells.count {
            a += cells[c].alphaSpeed * age
            scale = max(0, scale + cells[c].scaleSpeed * age)
            if !cells[c].alphaOverLife.isEmpty { a += cells[c].alphaOverLife(at: life > 0 ? age / life : 1) }
        }
        a = EffectMath.clamp(a, 0, 1)
        if a > 0, w < reveals.count, let state = reveals[w], state.isActive(at: t) {
            let p = SpoilerPoint(x: Double(particles.x[i]), y: Double(particles.y[i]))
            a *= 1 - state.textVisibility(at: p, time: t)
            let born = t - age
            if born < (state.hideStart ?? .infinity) {
                a *= 1 - EffectMath.clamp((t - state.start) / RevealTiming.push, 0, 1)
            }
        }
        guard a > 0 else { return nil }
        let shape = c < cells.count ? cells[c].contents : .dot
        let base = c < cells.count ? cells[c].contentsSize : 1
        return VisibleParticle(
            word: particles.word[i], x: particles.x[i], y: particles.y[i], size: Float(base * scale), alpha: Float(a),
            color: particles.color[i], rotation: particles.spin[i] * particles.age[i], shape: shape,
            id: particles.id[i], age: particles.age[i])
    }
}
