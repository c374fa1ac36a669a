import SpoilerCore

extension SpoilerScene {
    /// Fills `out` with the particles that show now (opacity above zero).
    ///
    /// - Complexity: O(particles).
    public func visibleParticles(into out: inout VisibleParticles) {
        out.removeAll()
        let t = time
        let cells = preset.emitter.emitterCells
        for i in 0..<particles.count {
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
            guard a > 0 else { continue }
            let shape = c < cells.count ? cells[c].contents : .dot
            let base = c < cells.count ? cells[c].contentsSize : 1
            out.word.append(particles.word[i])
            out.x.append(particles.x[i])
            out.y.append(particles.y[i])
            out.size.append(Float(base * scale))
            out.alpha.append(Float(a))
            out.color.append(particles.color[i])
            out.rotation.append(particles.spin[i] * particles.age[i])
            out.shape.append(shape)
            out.id.append(particles.id[i])
            out.age.append(particles.age[i])
        }
    }

    /// The particles that show now.
    public func visibleParticles() -> VisibleParticles {
        var out = VisibleParticles()
        visibleParticles(into: &out)
        return out
    }
}
