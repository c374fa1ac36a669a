import SpoilerCore
public import SpoilerEffect

extension DotRaster {
    /// Plots the particles of `scene` that show now, with the opacity
    /// ``SpoilerScene/visibleParticles(into:)`` gives them: one in `thinning`, chosen
    /// fairly, and never leaving a cell with particles in it empty.
    ///
    /// Thinning: a particle is drawn when a hash of its serial number is a multiple of
    /// `thinning` (``isDrawn(id:thinning:)``), so every word keeps about one particle in
    /// `thinning` of its own, in proportion to its graphemes as the effect makes them
    /// (serial numbers are dealt out across the words' emitters in turn, so a plain
    /// `id % thinning` would keep all of some words' particles and none of others'). Each
    /// particle is drawn for all of its life or not at all, so thinning adds no flicker.
    /// A cell that the kept particles leave without a dot then takes the first other
    /// particle in it that shows: thinning keeps dust from saturating a cell, but never
    /// empties one that has dust.
    ///
    /// Clipping: when the preset keeps particles in their word (``Confinement/bounce``,
    /// ``Confinement/wrap``), a word's particles light only the cells of its rectangle,
    /// so a particle on the rectangle's bottom or right edge lights the last row or
    /// column of the word, not the cell past it, and particles pushed out by a reveal
    /// leave no dust beside the word. Other presets (confetti) are drawn wherever their
    /// particles fly in the grid.
    ///
    /// It also sets ``twinkleTime`` to the scene's time (nil under reduced motion).
    ///
    /// This is the frame builder's hot loop (20,000 particles in well under a
    /// millisecond): it reads the scene's particle arrays in place instead of building a
    /// ``VisibleParticles`` copy, computes the opacity with the cell's constants hoisted out
    /// of the loop, and takes the slow path (the reveal circle) only for particles of
    /// words being revealed. A test holds it to `visibleParticles` for random scenes with
    /// reveals and hides; ``plot(x:y:alpha:color:)`` is the safe reference for the dots.
    ///
    /// The opacity of a particle of cell `c` at age `a` with lifetime `l`:
    /// `alpha + alphaSpeed(c) × a + alphaOverLife(c)(a / l)`, clamped to 0…1; while its word's
    /// reveal is active, times `1 − textVisibility` at its position and, for particles born
    /// before a hide, times the push fade `1 − (t − start) / 0.8`.
    ///
    /// - Complexity: O(particles + words).
    public mutating func plotParticles(of scene: SpoilerScene, thinning: UInt32 = 1) {
        plotParticles(of: scene, thinning: thinning, fourWide: true)
    }

    /// ``plotParticles(of:thinning:)``, with the four-wide loop where it applies or, with
    /// `fourWide` false, the scalar loop only (the reference a test holds the other to).
    mutating func plotParticles(of scene: SpoilerScene, thinning: UInt32, fourWide: Bool) {
        twinkleTime = scene.options.reducedMotion ? nil : scene.time
        let field = scene.particles
        let n = field.count
        guard n > 0, columns > 0, rows > 0 else { return }
        let t = scene.time
        let still = scene.options.reducedMotion
        // Per emitter cell: alpha speed and where its alpha-over-life keys are in one
        // flat array (no nested arrays in the loop).
        var opacities: [CellOpacity] = []
        var flatKeys: [Float] = []
        for cell in scene.preset.emitter.emitterCells {
            opacities.append(
                CellOpacity(
                    speed: still ? 0 : Float(cell.alphaSpeed), keyStart: Int32(flatKeys.count),
                    keyCount: Int32(still ? 0 : cell.alphaOverLife.count)))
            if !still { flatKeys += cell.alphaOverLife.map { Float($0) } }
        }
        flatKeys.append(0)
        // Per word: the active reveal, if any.
        let active: [RevealState?] = scene.reveals.map { r in r.flatMap { $0.isActive(at: t) ? $0 : nil } }
        let anyActive = active.contains { $0 != nil }
        let perColumn = glyphs.dotsPerColumn
        let perRow = glyphs.dotsPerRow
        let clip = scene.preset.confinement != .none
        let constants = PlotConstants(
            levels: Float(levels), maxLevel: Int(min(levels, 255)), scaleX: Float(Double(perColumn) / cellWidth),
            scaleY: Float(Double(perRow) / cellHeight), dotColumns: Float(columns * perColumn),
            dotRows: Float(rows * perRow), braille: glyphs == .braille, columns: columns, clip: clip,
            thinning: thinning, anyActive: anyActive, time: t)
        let bounds = clip ? wordDotBounds(of: scene) : []
        var lit = litCount
        let allowsFourWide = fourWide
        field.x.withUnsafeBufferPointer { xs in
            field.y.withUnsafeBufferPointer { ys in
                field.age.withUnsafeBufferPointer { ages in
                    field.lifetime.withUnsafeBufferPointer { lifetimes in
                        field.alpha.withUnsafeBufferPointer { alphas in
                            field.color.withUnsafeBufferPointer { colorsIn in
                                field.cell.withUnsafeBufferPointer { cellIndex in
                                    field.word.withUnsafeBufferPointer { words in
                                        field.id.withUnsafeBufferPointer { ids in
                                            let particles = ParticleBuffers(
                                                x: xs, y: ys, age: ages, lifetime: lifetimes, alpha: alphas,
                                                color: colorsIn, cell: cellIndex, word: words, id: ids)
                                            lit = plot(
                                                particles, count: n, constants: constants, bounds: bounds,
                                                opacities: opacities, flatKeys: flatKeys, active: active,
                                                fourWide: allowsFourWide,
                                                lit: lit)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        litCount = lit
    }

    /// The loop of ``plotParticles(of:thinning:)`` over `count` particles; returns the new
    /// ``litCount`` (starting from `lit`).
    private mutating func plot(
        _ particles: ParticleBuffers, count n: Int, constants k: PlotConstants, bounds: [WordDotBounds],
        opacities: [CellOpacity], flatKeys: [Float], active: [RevealState?], fourWide: Bool, lit start: Int
    ) -> Int {
        var lit = start
        masks.withUnsafeMutableBufferPointer { masks in
            brightness.withUnsafeMutableBufferPointer { brightness in
                colors.withUnsafeMutableBufferPointer { colors in
                    light.withUnsafeMutableBufferPointer { light in
                        litCells.withUnsafeMutableBufferPointer { litCells in
                            bounds.withUnsafeBufferPointer { bounds in
                                opacities.withUnsafeBufferPointer { opacities in
                                    flatKeys.withUnsafeBufferPointer { flatKeys in
                                        let raster = RasterBuffers(
                                            masks: masks, brightness: brightness, colors: colors, light: light,
                                            litCells: litCells)
                                        let vector =
                                            !fourWide
                                            ? nil
                                            : DotRaster.fourWide(
                                                constants: k, opacities: opacities, flatKeys: flatKeys)
                                        for pass in 0..<(k.thinning > 1 ? 2 : 1) {
                                            var done = 0
                                            if let vector {
                                                (done, lit) = DotRaster.plotFourWide(
                                                    particles, count: n, pass: pass, constants: k, bounds: bounds,
                                                    opacity: vector, into: raster, lit: lit)
                                            }
                                            lit = DotRaster.plot(
                                                particles, range: done..<n, pass: pass, constants: k,
                                                bounds: bounds, opacities: opacities, flatKeys: flatKeys,
                                                active: active, into: raster, lit: lit)
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return lit
    }

    /// The hot loop itself, over buffers: pass `pass` (0: the particles ``isDrawn(id:thinning:)``
    /// keeps, or all without thinning; 1: the others, into empty cells) over the particles
    /// in `range`, each one's dot, opacity and cell. The reference for
    /// ``plotFourWide(_:count:pass:constants:bounds:opacity:into:lit:)``.
    static func plot(
        _ p: ParticleBuffers, range: Range<Int>, pass: Int, constants k: PlotConstants,
        bounds: UnsafeBufferPointer<WordDotBounds>, opacities: UnsafeBufferPointer<CellOpacity>,
        flatKeys: UnsafeBufferPointer<Float>, active: [RevealState?], into r: RasterBuffers, lit start: Int
    ) -> Int {
        var lit = start
        let wordCount = bounds.count
        let cellCount = opacities.count
        let passes = k.thinning > 1 ? 2 : 1
        do {
            for i in range {
                if passes > 1 && DotRaster.isDrawn(id: p.id[i], thinning: k.thinning) != (pass == 0) { continue }
                // Where: the dot, inside the grid and, when clipping, inside the word's cells.
                let dotX = p.x[i] * k.scaleX
                let dotY = p.y[i] * k.scaleY
                var ix: Int
                var iy: Int
                if k.clip {
                    let w = Int(p.word[i])
                    guard UInt(bitPattern: w) < UInt(wordCount) else { continue }
                    let b = bounds[w]
                    guard dotX >= b.lowX, dotX <= b.highX, dotY >= b.lowY, dotY <= b.highY else { continue }
                    ix = Int(dotX)
                    iy = Int(dotY)
                    if ix >= Int(b.endX) { ix &-= 1 }
                    if iy >= Int(b.endY) { iy &-= 1 }
                } else {
                    guard dotX >= 0, dotY >= 0, dotX < k.dotColumns, dotY < k.dotRows else { continue }
                    ix = Int(dotX)
                    iy = Int(dotY)
                }
                let bit: UInt8
                let cell: Int
                if k.braille {
                    cell = (iy &>> 2) &* k.columns &+ (ix &>> 1)
                    let dx = ix & 1
                    let dy = iy & 3
                    bit = dy == 3 ? (0x40 << UInt8(dx)) : (1 << UInt8(dx &* 3 &+ dy))
                } else {
                    cell = (iy &>> 1) &* k.columns &+ ix
                    bit = 1 << UInt8(iy & 1)
                }
                // The second pass only fills empty cells.
                if pass == 1 && r.masks[cell] != 0 { continue }
                // How bright.
                let c = Int(p.cell[i])
                let age = p.age[i]
                var a = p.alpha[i]
                if c < cellCount {
                    let o = opacities[c]
                    a += o.speed * age
                    let count = Int(o.keyCount)
                    let first = Int(o.keyStart)
                    if count == 1 {
                        a += flatKeys[first]
                    } else if count > 1 {
                        let life = p.lifetime[i]
                        let fraction = life > 0 ? min(max(age / life, 0), 1) : 1
                        let f = fraction * Float(count &- 1)
                        let j = min(Int(f), count &- 2)
                        let key = flatKeys[first &+ j]
                        a += key + (flatKeys[first &+ j &+ 1] - key) * (f - Float(j))
                    }
                }
                a = min(max(a, 0), 1)
                if k.anyActive, a > 0 {
                    let w = Int(p.word[i])
                    if w >= 0, w < active.count, let state = active[w] {
                        a = DotRaster.revealed(a, x: p.x[i], y: p.y[i], age: age, state: state, time: k.time)
                    }
                }
                let level = Int(a * k.levels + 0.5)
                guard a > 0, level > 0 else { continue }
                if r.masks[cell] == 0 {
                    r.litCells[lit] = Int32(truncatingIfNeeded: cell)
                    lit &+= 1
                }
                r.masks[cell] |= bit
                let l = UInt8(truncatingIfNeeded: min(level, k.maxLevel))
                r.light[cell] = min(r.light[cell], 0xFF00) &+ UInt16(a * 16 + 0.5)
                if l > r.brightness[cell] {
                    r.brightness[cell] = l
                    r.colors[cell] = p.color[i]
                }
            }
        }
        return lit
    }

    /// Whether the particle with serial number `id` is one of the one in `thinning` that
    /// ``plotParticles(of:thinning:)`` draws first.
    ///
    /// A 32-bit finaliser (MurmurHash3's `fmix32`, a bijection that mixes every bit into
    /// every other) of the serial number, modulo `thinning`: consecutive serial numbers,
    /// and serial numbers a fixed stride apart, fall in every residue alike.
    @inlinable
    public static func isDrawn(id: UInt32, thinning: UInt32) -> Bool {
        guard thinning > 1 else { return true }
        return mix(id) % thinning == 0
    }

    /// The opacity `a` of a particle at (`x`, `y`) of age `age` while its word's reveal
    /// `state` is active: faded where the reveal shows the text and, for particles born
    /// before a hide, by the push.
    static func revealed(_ a: Float, x: Float, y: Float, age: Float, state: RevealState, time t: Double) -> Float {
        var d = Double(a)
        d *= 1 - state.textVisibility(at: SpoilerPoint(x: Double(x), y: Double(y)), time: t)
        if t - Double(age) < (state.hideStart ?? .infinity) {
            d *= 1 - min(max((t - state.start) / RevealTiming.push, 0), 1)
        }
        return Float(d)
    }

    /// Each scene word's cells in dot coordinates, within the grid.
    func wordDotBounds(of scene: SpoilerScene) -> [WordDotBounds] {
        var b: [WordDotBounds] = []
        b.reserveCapacity(scene.words.count)
        let perColumn = glyphs.dotsPerColumn
        let perRow = glyphs.dotsPerRow
        for word in scene.words {
            let r = word.rect
            // The cells the rectangle covers (a rectangle on cell edges covers exactly its
            // cells; the slack keeps rounding from adding a cell).
            func span(_ low: Double, _ high: Double, _ size: Double, _ count: Int) -> (Int, Int) {
                let first = Int((low / size + 1e-6).rounded(.down))
                let end = max(first + 1, Int((high / size - 1e-6).rounded(.up)))
                return (min(max(first, 0), count), min(max(end, 0), count))
            }
            let (c0, c1) = span(r.minX, r.maxX, cellWidth, columns)
            let (r0, r1) = span(r.minY, r.maxY, cellHeight, rows)
            if c1 > c0 && r1 > r0 && r.minX.isFinite && r.minY.isFinite {
                b.append(WordDotBounds(x: c0 * perColumn, endX: c1 * perColumn, y: r0 * perRow, endY: r1 * perRow))
            } else {
                b.append(.empty)
            }
        }
        return b
    }
}

/// One word's cells in dot coordinates: a particle at dot (x, y) is inside when
/// `lowX ≤ x ≤ highX` and `lowY ≤ y ≤ highY`, and lights dot
/// (min(⌊x⌋, endX − 1), min(⌊y⌋, endY − 1)).
struct WordDotBounds {
    var lowX: Float
    var highX: Float
    var lowY: Float
    var highY: Float
    var endX: Int32
    var endY: Int32

    init(x: Int, endX ex: Int, y: Int, endY ey: Int) {
        lowX = Float(x)
        highX = Float(ex)
        lowY = Float(y)
        highY = Float(ey)
        endX = Int32(clamping: ex)
        endY = Int32(clamping: ey)
    }

    private init(lowX: Float, highX: Float, lowY: Float, highY: Float) {
        self.lowX = lowX
        self.highX = highX
        self.lowY = lowY
        self.highY = highY
        endX = 0
        endY = 0
    }

    /// A word with no cells in the grid: nothing is inside.
    static let empty = WordDotBounds(lowX: 1, highX: 0, lowY: 1, highY: 0)
}

/// The opacity constants of one emitter cell: its alpha speed, and where its
/// alpha-over-life keys start in the flat key array and how many there are.
struct CellOpacity {
    var speed: Float
    var keyStart: Int32
    var keyCount: Int32
}

/// What the raster's loop needs of the grid and the scene, worked out once per frame.
struct PlotConstants {
    var levels: Float
    var maxLevel: Int
    var scaleX: Float
    var scaleY: Float
    var dotColumns: Float
    var dotRows: Float
    var braille: Bool
    var columns: Int
    var clip: Bool
    var thinning: UInt32
    var anyActive: Bool
    var time: Double
}

/// A particle field's arrays, for the raster's loop (valid inside the closures that made them).
struct ParticleBuffers {
    var x: UnsafeBufferPointer<Float>
    var y: UnsafeBufferPointer<Float>
    var age: UnsafeBufferPointer<Float>
    var lifetime: UnsafeBufferPointer<Float>
    var alpha: UnsafeBufferPointer<Float>
    var color: UnsafeBufferPointer<UInt32>
    var cell: UnsafeBufferPointer<UInt16>
    var word: UnsafeBufferPointer<Int32>
    var id: UnsafeBufferPointer<UInt32>
}

/// The raster's arrays, for its loop (valid inside the closures that made them).
struct RasterBuffers {
    var masks: UnsafeMutableBufferPointer<UInt8>
    var brightness: UnsafeMutableBufferPointer<UInt8>
    var colors: UnsafeMutableBufferPointer<UInt32>
    var light: UnsafeMutableBufferPointer<UInt16>
    var litCells: UnsafeMutableBufferPointer<Int32>
}
