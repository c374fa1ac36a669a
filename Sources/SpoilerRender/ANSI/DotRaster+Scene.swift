import SpoilerCore
public import SpoilerEffect

extension DotRaster {
    /// Plots every particle of `scene` that shows now (one in `thinning`, by serial
    /// number), with the opacity ``SpoilerScene/visibleParticles(into:)`` gives it.
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
    public mutating func plotParticles(of scene: SpoilerScene, thinning: UInt32 = 1) {
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
                                                        litCells.withUnsafeMutableBufferPointer { litCells in
                                                            for i in 0..<n {
                                                                if thinning > 1 && ids[i] % thinning != 0 { continue }
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
                                                                            life > 0 ? min(max(age / life, 0), 1) : 1
                                                                        let f = fraction * Float(count - 1)
                                                                        let j = min(Int(f), count - 2)
                                                                        a +=
                                                                            flatKeys[start + j]
                                                                            + (flatKeys[start + j + 1]
                                                                                - flatKeys[start + j]) * (f - Float(j))
                                                                    }
                                                                }
                                                                a = min(max(a, 0), 1)
                                                                if anyActive, a > 0 {
                                                                    let w = Int(words[i])
                                                                    if w < active.count, let state = active[w] {
                                                                        var d = Double(a)
                                                                        let p = SpoilerPoint(
                                                                            x: Double(xs[i]), y: Double(ys[i]))
                                                                        d *= 1 - state.textVisibility(at: p, time: t)
                                                                        if t - Double(age)
                                                                            < (state.hideStart ?? .infinity)
                                                                        {
                                                                            d *=
                                                                                1
                                                                                - min(
                                                                                    max(
                                                                                        (t - state.start)
                                                                                            / RevealTiming.push, 0), 1)
                                                                        }
                                                                        a = Float(d)
                                                                    }
                                                                }
                                                                let level = Int(a * levelsF + 0.5)
                                                                guard a > 0, level > 0 else { continue }
                                                                let dotX = xs[i] * scaleX
                                                                let dotY = ys[i] * scaleY
                                                                guard dotX >= 0, dotY >= 0, dotX < dotColumns,
                                                                    dotY < dotRows
                                                                else { continue }
                                                                let ix = Int(dotX)
                                                                let iy = Int(dotY)
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
                                                                if masks[cell] == 0 {
                                                                    litCells[lit] = Int32(cell)
                                                                    lit += 1
                                                                }
                                                                masks[cell] |= bit
                                                                let l = UInt8(min(level, Int(maxLevel)))
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
        litCount = lit
    }
}
