@testable import SpoilerEffect
import Testing

@Suite struct EffectMathTests {
    @Test(arguments: [
        (0.0, 0.0, 1.0), (Double.pi / 6, 0.5, 0.866_025_403_784_438_6), (Double.pi / 2, 1, 0),
        (Double.pi, 0, -1), (-Double.pi / 4, -0.707_106_781_186_547_5, 0.707_106_781_186_547_6),
        (3 * Double.pi / 2, -1, 0), (10.0, -0.544_021_110_889_369_8, -0.839_071_529_076_452_5),
        (-7.0, -0.656_986_598_718_789, 0.753_902_254_343_304_3),
    ])
    func sinCos(x: Double, sin: Double, cos: Double) {
        let r = EffectMath.sinCos(x)
        #expect(abs(r.sin - sin) < 1e-12)
        #expect(abs(r.cos - cos) < 1e-12)
    }

    @Test func easeInOut() {
        #expect(EffectMath.easeInOut(0) == 0)
        #expect(EffectMath.easeInOut(1) == 1)
        #expect(EffectMath.easeInOut(0.5) == 0.5)
        #expect(EffectMath.easeInOut(0.1) < 0.1)
        #expect(EffectMath.easeInOut(0.9) > 0.9)
        #expect(EffectMath.easeInOut(-3) == 0 && EffectMath.easeInOut(7) == 1)
    }

    @Test func alphaOverLifeInterpolates() {
        var cell = EmitterCell()
        cell.alphaOverLife = [0, 0, 1, 0, -1]
        #expect(cell.alphaOverLife(at: 0) == 0)
        #expect(cell.alphaOverLife(at: 0.5) == 1)
        #expect(cell.alphaOverLife(at: 0.375) == 0.5)
        #expect(cell.alphaOverLife(at: 1) == -1)
    }
}

@Suite struct ColorChannelTests {
    /// A cell without colour ranges skips the per-channel arithmetic; that is only right
    /// if the arithmetic gives every byte back.
    @Test func everyByteSurvivesTheChannelArithmetic() {
        for b in 0...255 {
            let v: Double = Double(b) / 255
            let spread: Double = 0 * (2 * 0.3 - 1)
            let clamped: Double = min(max(v + spread, 0), 1)
            let back = UInt32((clamped * 255).rounded())
            #expect(back == UInt32(b))
        }
    }
}
