/// Sine, cosine and easing written with `+` and `*` only, so that the simulation gives
/// the same bits on every machine (libm's `sin` may differ between C libraries, and pure
/// modules do not import Glibc).
package enum EffectMath {
    static let twoPi = 6.283_185_307_179_586
    static let halfPi = 1.570_796_326_794_896_6

    /// `(sin x, cos x)` for `x` in radians, accurate to about 1e-15 for |x| < 1e6.
    package static func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
        guard x.isFinite else { return (0, 1) }
        // Reduce to r in [-π/4, π/4] with x = k·π/2 + r (two-part π/2 for accuracy).
        let k = (x / halfPi).rounded()
        let r = (x - k * 1.570_796_326_734_125_6) - k * 6.077_100_506_506_192e-11
        let r2 = r * r
        // Taylor series, enough terms for |r| ≤ π/4.
        let s =
            r
            * (1 + r2
                * (-1.0 / 6 + r2
                    * (1.0 / 120 + r2
                        * (-1.0 / 5040 + r2 * (1.0 / 362_880 + r2 * (-1.0 / 39_916_800 + r2 / 6_227_020_800))))))
        let c =
            1 + r2
            * (-0.5 + r2
                * (1.0 / 24 + r2
                    * (-1.0 / 720 + r2
                        * (1.0 / 40320 + r2 * (-1.0 / 3_628_800 + r2 * (1.0 / 479_001_600 - r2 / 87_178_291_200))))))
        switch Int(k.truncatingRemainder(dividingBy: 4)) {
        case 0: return (s, c)
        case 1, -3: return (c, -s)
        case 2, -2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// Cubic ease-in-out of `p` in [0, 1] (values outside are clamped): slow, fast, slow.
    package static func easeInOut(_ p: Double) -> Double {
        let p = min(max(p, 0), 1)
        if p < 0.5 { return 4 * p * p * p }
        let q = -2 * p + 2
        return 1 - q * q * q / 2
    }

    /// `value` clamped to [`lo`, `hi`].
    @inline(__always)
    static func clamp(_ value: Double, _ lo: Double, _ hi: Double) -> Double { min(max(value, lo), hi) }
}
