/// The opacity constants of a preset with one emitter cell, for the four-wide loop: its
/// alpha speed and alpha-over-life keys, with each segment's rise worked out once
/// (`keys[m + 1] − keys[m]`, the same subtraction the scalar loop makes).
struct FourWideOpacity {
    var speed: Float
    var keyCount: Int
    var keys: SIMD8<Float>
    var rises: SIMD8<Float>
}

extension DotRaster {
    /// The constants of ``plotFourWide(_:count:pass:constants:bounds:opacity:into:lit:)``,
    /// or nil when a frame needs the scalar loop: no clipping (confetti), a reveal in
    /// progress, more than one emitter cell, more than nine alpha keys, or a grid too
    /// large for the exact float-to-integer step (2²² dots or more on a side).
    static func fourWide(
        constants k: PlotConstants, opacities: UnsafeBufferPointer<CellOpacity>, flatKeys: UnsafeBufferPointer<Float>
    ) -> FourWideOpacity? {
        guard k.clip, !k.anyActive, opacities.count == 1, k.dotColumns < 4_194_304, k.dotRows < 4_194_304 else {
            return nil
        }
        let o = opacities[0]
        let count = Int(o.keyCount)
        let first = Int(o.keyStart)
        guard count <= 9, first >= 0, first + count <= flatKeys.count else { return nil }
        var keys = SIMD8<Float>()
        var rises = SIMD8<Float>()
        if count == 1 { keys[0] = flatKeys[first] }
        if count >= 2 {
            for m in 0..<(count - 1) {
                keys[m] = flatKeys[first + m]
                rises[m] = flatKeys[first + m + 1] - flatKeys[first + m]
            }
        }
        return FourWideOpacity(speed: o.speed, keyCount: count, keys: keys, rises: rises)
    }

    /// ``plot(_:range:pass:constants:bounds:opacities:flatKeys:active:into:lit:)`` four
    /// particles at a time, for the common frame (dust confined to its words, nothing
    /// being revealed): positions, word bounds and opacities are worked out in four-lane
    /// vectors, with the same float operations in the same order, so every dot, level
    /// and light is the scalar loop's; then each lane that shows lights its cell in
    /// particle order, as the scalar loop does. Returns how many particles it did (a
    /// multiple of four; the scalar loop does the rest) and the new lit count.
    ///
    /// Floats become integers without the trapping conversion: for 0 ≤ v < 2²²,
    /// `v + 2²³` rounds v to an integer in the low bits of its pattern, and one is taken
    /// off where that rounded up, which is ⌊v⌋ exactly (positions, levels and light
    /// increments are all in that range in the lanes that are used).
    static func plotFourWide(
        _ p: ParticleBuffers, count n: Int, pass: Int, constants k: PlotConstants,
        bounds: UnsafeBufferPointer<WordDotBounds>, opacity o: FourWideOpacity, into r: RasterBuffers, lit start: Int
    ) -> (done: Int, lit: Int) {
        var lit = start
        let blocks = n / 4
        guard blocks > 0 else { return (0, lit) }
        let wordCount = UInt(bounds.count)
        let zero = SIMD4<Float>(repeating: 0)
        let one = SIMD4<Float>(repeating: 1)
        let half = SIMD4<Float>(repeating: 0.5)
        let sixteen = SIMD4<Float>(repeating: 16)
        let levels = SIMD4<Float>(repeating: k.levels)
        let scaleX = SIMD4<Float>(repeating: k.scaleX)
        let scaleY = SIMD4<Float>(repeating: k.scaleY)
        let speed = SIMD4<Float>(repeating: o.speed)
        let steps = SIMD4<Float>(repeating: Float(o.keyCount &- 1))
        let thinned = k.thinning > 1
        let braille = k.braille
        let columns = k.columns
        let maxLevel = k.maxLevel
        for block in 0..<blocks {
            let i = block &* 4
            let dotX = load(p.x, i) * scaleX
            let dotY = load(p.y, i) * scaleY
            // Each lane's word bounds.
            var lowX = one
            var highX = zero
            var lowY = one
            var highY = zero
            var endX = SIMD4<Int32>()
            var endY = SIMD4<Int32>()
            for lane in 0..<4 {
                let w = Int(p.word[i &+ lane])
                guard UInt(bitPattern: w) < wordCount else { continue }
                let b = bounds[w]
                lowX[lane] = b.lowX
                highX[lane] = b.highX
                lowY[lane] = b.lowY
                highY[lane] = b.highY
                endX[lane] = b.endX
                endY[lane] = b.endY
            }
            let inside = (dotX .>= lowX) .& (dotX .<= highX) .& (dotY .>= lowY) .& (dotY .<= highY)
            guard any(inside) else { continue }
            var ix = floorToInt(dotX)
            var iy = floorToInt(dotY)
            ix &-= SIMD4<Int32>(repeating: 0).replacing(with: 1, where: ix .>= endX)
            iy &-= SIMD4<Int32>(repeating: 0).replacing(with: 1, where: iy .>= endY)
            // How bright: alpha + speed × age + the alpha-over-life key, clamped to 0…1.
            let age = load(p.age, i)
            let alpha = load(p.alpha, i)
            var a = alpha + speed * age
            if o.keyCount == 1 {
                a += SIMD4<Float>(repeating: o.keys[0])
            } else if o.keyCount > 1 {
                let life = load(p.lifetime, i)
                let q = age / life
                // min(max(q, 0), 1), as the standard library's max and min pick.
                var fraction = q.replacing(with: 0, where: q .<= zero)
                fraction.replace(with: 1, where: fraction .> one)
                fraction.replace(with: 1, where: .!(life .> zero))
                let f = fraction * steps
                // The segment j = min(⌊f⌋, count − 2), its key and rise.
                var key = SIMD4<Float>(repeating: o.keys[0])
                var rise = SIMD4<Float>(repeating: o.rises[0])
                var j = zero
                var m = 1
                while m < o.keyCount &- 1 {
                    let mf = Float(m)
                    let reached = f .>= SIMD4<Float>(repeating: mf)
                    key.replace(with: o.keys[m], where: reached)
                    rise.replace(with: o.rises[m], where: reached)
                    j.replace(with: mf, where: reached)
                    m &+= 1
                }
                a += key + rise * (f - j)
            }
            // A particle of another emitter cell keeps its alpha.
            let cells = SIMD4<Int32>(
                Int32(p.cell[i]), Int32(p.cell[i &+ 1]), Int32(p.cell[i &+ 2]), Int32(p.cell[i &+ 3]))
            a.replace(with: alpha, where: cells .!= SIMD4<Int32>(repeating: 0))
            a.replace(with: 0, where: a .<= zero)
            a.replace(with: 1, where: a .> one)
            let level = floorToInt(a * levels + half)
            let increment = floorToInt(a * sixteen + half)
            let shows = inside .& (a .> zero) .& (level .> SIMD4<Int32>(repeating: 0))
            guard any(shows) else { continue }
            for lane in 0..<4 where shows[lane] {
                let particle = i &+ lane
                if thinned && DotRaster.isDrawn(id: p.id[particle], thinning: k.thinning) != (pass == 0) { continue }
                let x = Int(ix[lane])
                let y = Int(iy[lane])
                let bit: UInt8
                let cell: Int
                if braille {
                    cell = (y &>> 2) &* columns &+ (x &>> 1)
                    bit = UInt8(truncatingIfNeeded: DotRaster.brailleBits &>> UInt64(((y & 3) &<< 1 | (x & 1)) &* 8))
                } else {
                    cell = (y &>> 1) &* columns &+ x
                    bit = 1 << UInt8(y & 1)
                }
                if pass == 1 && r.masks[cell] != 0 { continue }
                if r.masks[cell] == 0 {
                    r.litCells[lit] = Int32(truncatingIfNeeded: cell)
                    lit &+= 1
                }
                r.masks[cell] |= bit
                let l = UInt8(truncatingIfNeeded: min(Int(level[lane]), maxLevel))
                r.light[cell] = min(r.light[cell], 0xFF00) &+ UInt16(truncatingIfNeeded: increment[lane])
                if l > r.brightness[cell] {
                    r.brightness[cell] = l
                    r.colors[cell] = p.color[particle]
                }
            }
        }
        return (blocks &* 4, lit)
    }

    /// The braille bit of the dot at (`dx`, `dy`) of a cell in byte `dy × 2 + dx`
    /// (``GlyphSet/bit(dx:dy:)``: 0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80).
    static let brailleBits: UInt64 = 0x8040_2004_1002_0801

    /// Four floats from `buffer` at `index` (which must leave four in it).
    @inline(__always)
    static func load(_ buffer: UnsafeBufferPointer<Float>, _ index: Int) -> SIMD4<Float> {
        UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// ⌊v⌋ of each lane, exact for 0 ≤ v < 2²² (other lanes get an unspecified value).
    @inline(__always)
    static func floorToInt(_ v: SIMD4<Float>) -> SIMD4<Int32> {
        let magic = SIMD4<Float>(repeating: 8_388_608)
        let biased = v + magic
        let rounded = biased - magic
        let n = unsafeBitCast(biased, to: SIMD4<Int32>.self) & SIMD4<Int32>(repeating: 0x7F_FFFF)
        return n &- SIMD4<Int32>(repeating: 0).replacing(with: 1, where: rounded .> v)
    }
}
