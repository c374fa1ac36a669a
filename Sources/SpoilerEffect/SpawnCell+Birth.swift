import SpoilerCore

extension SpawnCell {
    /// Appends one particle of this cell born at `p`, from the uniform numbers `u3`…`u11`
    /// (lifetime, speed, direction, scale, spin, alpha, red, green, blue); false, and
    /// nothing appended, when the lifetime comes out zero, negative or not finite.
    ///
    /// The one place where a cell's numbers become a particle, for the scene's word
    /// emitters and the celebration alike.
    func appendParticle(
        to particles: inout ParticleField, at p: SpoilerPoint, naturalDirection: Double, lifetimeFactor: Double,
        word: Int32, cell c: UInt16, id: UInt32, _ u3: Double, _ u4: Double, _ u5: Double, _ u6: Double,
        _ u7: Double, _ u8: Double, _ u9: Double, _ u10: Double, _ u11: Double
    ) -> Bool {
        let life = (lifetime + lifetimeRange * (2 * u3 - 1)) * lifetimeFactor
        guard life > 0, life.isFinite else { return false }
        let speed = velocity + velocityRange * (2 * u4 - 1)
        let angle = naturalDirection + longitude + (u5 - 0.5) * emissionRange
        let (s, co) = EffectMath.sinCos(angle)
        let scale = max(0, self.scale + scaleRange * (2 * u6 - 1))
        let spin = self.spin + spinRange * (2 * u7 - 1)
        let alpha = EffectMath.clamp(self.alpha + alphaRange * (2 * u8 - 1), 0, 1)
        let rgb = fixedColor ?? color(u9, u10, u11)
        particles.append(
            x: Float(p.x), y: Float(p.y), vx: Float(speed * co), vy: Float(speed * s), lifetime: Float(life),
            scale: Float(scale), spin: Float(spin), alpha: Float(alpha), color: rgb, word: word, cell: c, id: id)
        return true
    }
}
