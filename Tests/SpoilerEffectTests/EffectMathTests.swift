import SpoilerCore
import SpoilerEffect
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
    /// A cell without colour ranges skips the per-channel arithmetic (``SpawnCell/fixedColor``);
    /// that is only right if the arithmetic gives every byte of every channel back.
    @Test func theFixedColourIsWhatTheArithmeticGives() {
        for b in 0...255 {
            var cell = EmitterCell()
            cell.color = RGBColor(red: UInt8(b), green: UInt8(255 - b), blue: UInt8(b / 2))
            let spawn = SpawnCell(cell, color: nil)
            let expected = UInt32(b) << 16 | UInt32(255 - b) << 8 | UInt32(b / 2)
            #expect(spawn.fixedColor == expected, "byte \(b)")
            for u in [0.0, 0.25, 0.5, 0.999] {
                #expect(spawn.color(u, u, u) == expected, "byte \(b), u \(u)")
            }
        }
    }

    /// With ranges, the middle draw gives the base colour and the extremes stay in bytes,
    /// clamped: a red of 250 with a range of 0.2 reaches 255, not 301.
    @Test func rangesSpreadAroundTheBaseAndClamp() {
        var cell = EmitterCell()
        cell.color = RGBColor(red: 250, green: 128, blue: 5)
        cell.redRange = 0.2
        cell.greenRange = 0.2
        cell.blueRange = 0.2
        let spawn = SpawnCell(cell, color: nil)
        #expect(spawn.fixedColor == nil)
        #expect(spawn.color(0.5, 0.5, 0.5) == 250 << 16 | 128 << 8 | 5)
        #expect(spawn.color(1, 1, 1) == 255 << 16 | 179 << 8 | 56)
        #expect(spawn.color(0, 0, 0) == 199 << 16 | 77 << 8 | 0)
    }
}
