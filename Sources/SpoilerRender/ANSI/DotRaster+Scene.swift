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
        twinkleTime = scene.options.reducedMotion ? nil : scene.time
        let field = scene.particles
        let n = field.count
        guard n > 0, columns > 0, rows > 0 else { return }
        let t = scene.time
        let cells = scene.preset.emitter.emitterCells
        let still = scene.options.reducedMotion
        // Per cell: alpha speed and the alpha-over-life keys.
        let alphaSpeed = cells.map { still ? 0 : Float($0.alphaSpeed) }
        // The alpha-over-life keys of every cell in one array (no nested arrays in the loop).
        var keyStart: [Int] = []
        var keyCount: [Int] = []
        var flatKeys: [Float] = []
        for cell in cells {
            keyStart.append(flatKeys.count)
            keyCount.append(still ? 0 : cell.alphaOverLife.count)
            if !still { flatKeys += cell.alphaOverLife.map { Float($0) } }
        }
        flatKeys.append(0)
        // Per word: the active reveal, if any.
        let active: [RevealState?] = scene.reveals.map { r in r.flatMap { $0.isActive(at: t) ? $0 : nil } }
        let anyActive = active.contains { $0 != nil }
        let levelsF = Float(levels)
        let maxLevel = UInt8(min(levels, 255))
        let perColumn = glyphs.dotsPerColumn
        let perRow = glyphs.dotsPerRow
        let scaleX = Float(Double(perColumn) / cellWidth)
        let scaleY = Float(Double(perRow) / cellHeight)
        let dotColumns = Float(columns * perColumn)
        let dotRows = Float(rows * perRow)
        let braille = glyphs == .braille
        let columnsCount = columns
        let clip = scene.preset.confinement != .none
        let bounds = clip ? wordDotBounds(of: scene) : WordDotBounds()
        let wordCount = bounds.count
        let passes = thinning > 1 ? 2 : 1
        var lit = litCount
        field.x.withUnsafeBufferPointer { xs in
            field.y.withUnsafeBufferPointer { ys in
                field.age.withUnsafeBufferPointer { ages in
                    field.lifetime.withUnsafeBufferPointer { lifetimes in
                        field.alpha.withUnsafeBufferPointer { alphas in
                            field.color.withUnsafeBufferPointer { colorsIn in
                                field.cell.withUnsafeBufferPointer { cellIndex in
                                    field.word.withUnsafeBufferPointer { words in
                                        field.id.withUnsafeBufferPointer { ids in
                                            masks.withUnsafeMutableBufferPointer { masks in
                                                brightness.withUnsafeMutableBufferPointer { brightness in
                                                    colors.withUnsafeMutableBufferPointer { colors in
                                                        light.withUnsafeMutableBufferPointer { light in
                                                            litCells.withUnsafeMutableBufferPointer { litCells in
                                                                for pass in 0..<passes {
                                                                    for i in 0..<n {
                                                                        if passes > 1
                                                                            && DotRaster.isDrawn(
                                                                                id: ids[i], thinning: thinning)
                                                                                != (pass == 0)
                                                                        {
                                                                            continue
                                                                        }
                                                                        // Where: the dot, inside the grid and, when
                                                                        // clipping, inside the word's cells.
                                                                        let dotX = xs[i] * scaleX
                                                                        let dotY = ys[i] * scaleY
                                                                        var ix: Int
                                                                        var iy: Int
                                                                        if clip {
                                                                            let w = Int(words[i])
                                                                            guard w < wordCount,
                                                                                dotX >= bounds.lowX[w],
                                                                                dotX <= bounds.highX[w],
                                                                                dotY >= bounds.lowY[w],
                                                                                dotY <= bounds.highY[w]
                                                                            else { continue }
                                                                            ix = Int(dotX)
                                                                            iy = Int(dotY)
                                                                            if ix >= bounds.endX[w] { ix -= 1 }
                                                                            if iy >= bounds.endY[w] { iy -= 1 }
                                                                        } else {
                                                                            guard dotX >= 0, dotY >= 0,
                                                                                dotX < dotColumns, dotY < dotRows
                                                                            else { continue }
                                                                            ix = Int(dotX)
                                                                            iy = Int(dotY)
                                                                        }
                                                                        let bit: UInt8
                                                                        let cell: Int
                                                                        if braille {
                                                                            let column = ix >> 1
                                                                            let row = iy >> 2
                                                                            cell = row * columnsCount + column
                                                                            let dx = ix & 1
                                                                            let dy = iy & 3
                                                                            bit =
                                                                                dy == 3
                                                                                ? (0x40 << UInt8(dx))
                                                                                : (1 << UInt8(dx * 3 + dy))
                                                                        } else {
                                                                            let row = iy >> 1
                                                                            cell = row * columnsCount + ix
                                                                            bit = 1 << UInt8(iy & 1)
                                                                        }
                                                                        // The second pass only fills empty cells.
                                                                        if pass == 1 && masks[cell] != 0 { continue }
                                                                        // How bright.
                                                                        let c = Int(cellIndex[i])
                                                                        let age = ages[i]
                                                                        var a = alphas[i]
                                                                        if c < alphaSpeed.count {
                                                                            a += alphaSpeed[c] * age
                                                                            let count = keyCount[c]
                                                                            let start = keyStart[c]
                                                                            if count == 1 {
                                                                                a += flatKeys[start]
                                                                            } else if count > 1 {
                                                                                let life = lifetimes[i]
                                                                                let fraction =
                                                                                    life > 0
                                                                                    ? min(max(age / life, 0), 1) : 1
                                                                                let f = fraction * Float(count - 1)
                                                                                let j = min(Int(f), count - 2)
                                                                                a +=
                                                                                    flatKeys[start + j]
                                                                                    + (flatKeys[start + j + 1]
                                                                                        - flatKeys[start + j])
                                                                                    * (f - Float(j))
                                                                            }
                                                                        }
                                                                        a = min(max(a, 0), 1)
                                                                        if anyActive, a > 0 {
                                                                            let w = Int(words[i])
                                                                            if w < active.count, let state = active[w] {
                                                                                a = DotRaster.revealed(
                                                                                    a, x: xs[i], y: ys[i], age: age,
                                                                                    state: state, time: t)
                                                                            }
                                                                        }
                                                                        let level = Int(a * levelsF + 0.5)
                                                                        guard a > 0, level > 0 else { continue }
                                                                        if masks[cell] == 0 {
                                                                            litCells[lit] = Int32(cell)
                                                                            lit += 1
                                                                        }
                                                                        masks[cell] |= bit
                                                                        let l = UInt8(min(level, Int(maxLevel)))
                                                                        light[cell] =
                                                                            min(light[cell], 0xFF00)
                                                                            + UInt16(a * 16 + 0.5)
                                                                        if l > brightness[cell] {
                                                                            brightness[cell] = l
                                                                            colors[cell] = colorsIn[i]
                                                                        }
                                                                    }
                                                                }
                                                            }
                                                        }
                                                    }
                                                }
                                            }
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
    func wordDotBounds(of scene: SpoilerScene) -> WordDotBounds {
        var b = WordDotBounds()
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
                b.append(
                    x: c0 * perColumn, endX: c1 * perColumn, y: r0 * perRow, endY: r1 * perRow)
            } else {
                b.appendEmpty()
            }
        }
        return b
    }
}

/// Each word's cells in dot coordinates: a particle at dot (x, y) is inside when
/// `lowX ≤ x ≤ highX` and `lowY ≤ y ≤ highY`, and lights dot
/// (min(⌊x⌋, endX − 1), min(⌊y⌋, endY − 1)).
struct WordDotBounds {
    var lowX: [Float] = []
    var highX: [Float] = []
    var lowY: [Float] = []
    var highY: [Float] = []
    var endX: [Int] = []
    var endY: [Int] = []

    var count: Int { lowX.count }

    mutating func append(x: Int, endX ex: Int, y: Int, endY ey: Int) {
        lowX.append(Float(x))
        highX.append(Float(ex))
        lowY.append(Float(y))
        highY.append(Float(ey))
        endX.append(ex)
        endY.append(ey)
    }

    /// A word with no cells in the grid: nothing is inside.
    mutating func appendEmpty() {
        lowX.append(1)
        highX.append(0)
        lowY.append(1)
        highY.append(0)
        endX.append(0)
        endY.append(0)
    }
}
