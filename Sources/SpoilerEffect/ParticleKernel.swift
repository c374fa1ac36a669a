/// The one place that steps particles through unsafe buffer pointers.
///
/// It does the same arithmetic as ``ParticleField/stepReference(by:motion:boxes:)``
/// without bounds checks, so that a step stays close to a memory copy of the state
/// (DESIGN.md §8). Every pointer covers `n` elements; the caller checks the lengths.
enum ParticleKernel {
    static func run(
        n: Int, dt: Float, x: inout [Float], y: inout [Float], vx: inout [Float], vy: inout [Float],
        age: inout [Float], lifetime: [Float], word: [Int32], cell: [UInt16], motion: CellMotion,
        boxes: ConfinementBoxes, dead: inout [Int32]
    ) {
        precondition(
            x.count == n && y.count == n && vx.count == n && vy.count == n && age.count == n && lifetime.count == n,
            "particle arrays of unequal length")
        x.withUnsafeMutableBufferPointer { x in
            y.withUnsafeMutableBufferPointer { y in
                vx.withUnsafeMutableBufferPointer { vx in
                    vy.withUnsafeMutableBufferPointer { vy in
                        age.withUnsafeMutableBufferPointer { age in
                            lifetime.withUnsafeBufferPointer { life in
                                word.withUnsafeBufferPointer { word in
                                    cell.withUnsafeBufferPointer { cell in
                                        motion.ax.withUnsafeBufferPointer { ax in
                                            motion.ay.withUnsafeBufferPointer { ay in
                                                boxes.edges.withUnsafeBufferPointer { edges in
                                                    let p = Pointers(
                                                        x: x.baseAddress!, y: y.baseAddress!,
                                                        vx: vx.baseAddress!, vy: vy.baseAddress!,
                                                        age: age.baseAddress!, life: life.baseAddress!,
                                                        word: word.baseAddress!, cell: cell.baseAddress!,
                                                        ax: ax.baseAddress!, ay: ay.baseAddress!,
                                                        edges: edges.baseAddress!)
                                                    switch boxes.mode {
                                                    case .none: free(p, n: n, dt: dt, dead: &dead)
                                                    case .bounce:
                                                        if motion.isStill {
                                                            bounceStill(p, n: n, dt: dt, dead: &dead)
                                                        } else {
                                                            bounce(p, n: n, dt: dt, dead: &dead)
                                                        }
                                                    case .wrap: wrap(p, n: n, dt: dt, dead: &dead)
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

    /// Removes the elements at `dead` (ascending, distinct, in range) from `a`, highest
    /// first, each replaced by the current last element: the moves of repeated
    /// swap-removal, without a bounds check or a `removeLast` per element.
    static func compact<T>(_ a: inout [T], dead: [Int32]) {
        let count = a.count
        precondition(dead.count <= count, "\(dead.count) removals from \(count) particles")
        a.withUnsafeMutableBufferPointer { p in
            dead.withUnsafeBufferPointer { d in
                var n = count
                var k = d.count
                while k > 0 {
                    k -= 1
                    let i = Int(d[k])
                    precondition(i < n, "particle index \(i) out of 0..<\(n)")
                    n -= 1
                    p[i] = p[n]
                }
            }
        }
        a.removeLast(dead.count)
    }

    struct Pointers {
        let x: UnsafeMutablePointer<Float>, y: UnsafeMutablePointer<Float>
        let vx: UnsafeMutablePointer<Float>, vy: UnsafeMutablePointer<Float>
        let age: UnsafeMutablePointer<Float>, life: UnsafePointer<Float>
        let word: UnsafePointer<Int32>, cell: UnsafePointer<UInt16>
        let ax: UnsafePointer<Float>, ay: UnsafePointer<Float>
        /// Four edges per word: min x, min y, max x, max y.
        let edges: UnsafePointer<Float>
    }

    @inline(__always)
    static func free(_ p: Pointers, n: Int, dt: Float, dead: inout [Int32]) {
        for i in 0..<n {
            let c = Int(p.cell[i])
            let vx = p.vx[i] + p.ax[c] * dt
            let vy = p.vy[i] + p.ay[c] * dt
            p.vx[i] = vx
            p.vy[i] = vy
            p.x[i] = p.x[i] + vx * dt
            p.y[i] = p.y[i] + vy * dt
            let a = p.age[i] + dt
            p.age[i] = a
            if a >= p.life[i] { dead.append(Int32(i)) }
        }
    }

    @inline(__always)
    static func bounce(_ p: Pointers, n: Int, dt: Float, dead: inout [Int32]) {
        for i in 0..<n {
            let c = Int(p.cell[i])
            let w = Int(p.word[i])
            var vx = p.vx[i] + p.ax[c] * dt
            var vy = p.vy[i] + p.ay[c] * dt
            let nx = p.x[i] + vx * dt
            let ny = p.y[i] + vy * dt
            let b = p.edges + 4 * w
            let lx = b[0], ly = b[1], hx = b[2], hy = b[3]
            vx = nx < lx ? abs(vx) : (nx > hx ? -abs(vx) : vx)
            vy = ny < ly ? abs(vy) : (ny > hy ? -abs(vy) : vy)
            p.vx[i] = vx
            p.vy[i] = vy
            p.x[i] = min(max(nx, lx), hx)
            p.y[i] = min(max(ny, ly), hy)
            let a = p.age[i] + dt
            p.age[i] = a
            if a >= p.life[i] { dead.append(Int32(i)) }
        }
    }

    /// ``bounce(_:n:dt:dead:)`` for cells without acceleration (the dust preset): the
    /// same results, without reading the cell index.
    @inline(__always)
    static func bounceStill(_ p: Pointers, n: Int, dt: Float, dead: inout [Int32]) {
        for i in 0..<n {
            let w = Int(p.word[i])
            var vx = p.vx[i]
            var vy = p.vy[i]
            let nx = p.x[i] + vx * dt
            let ny = p.y[i] + vy * dt
            let b = p.edges + 4 * w
            let lx = b[0], ly = b[1], hx = b[2], hy = b[3]
            vx = nx < lx ? abs(vx) : (nx > hx ? -abs(vx) : vx)
            vy = ny < ly ? abs(vy) : (ny > hy ? -abs(vy) : vy)
            p.vx[i] = vx
            p.vy[i] = vy
            p.x[i] = min(max(nx, lx), hx)
            p.y[i] = min(max(ny, ly), hy)
            let a = p.age[i] + dt
            p.age[i] = a
            if a >= p.life[i] { dead.append(Int32(i)) }
        }
    }

    @inline(__always)
    static func wrap(_ p: Pointers, n: Int, dt: Float, dead: inout [Int32]) {
        for i in 0..<n {
            let c = Int(p.cell[i])
            let w = Int(p.word[i])
            let vx = p.vx[i] + p.ax[c] * dt
            let vy = p.vy[i] + p.ay[c] * dt
            p.vx[i] = vx
            p.vy[i] = vy
            let b = p.edges + 4 * w
            p.x[i] = ConfinementBoxes.wrap(p.x[i] + vx * dt, b[0], b[2])
            p.y[i] = ConfinementBoxes.wrap(p.y[i] + vy * dt, b[1], b[3])
            let a = p.age[i] + dt
            p.age[i] = a
            if a >= p.life[i] { dead.append(Int32(i)) }
        }
    }
}
