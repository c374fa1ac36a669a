import SpoilerCore
import SpoilerEffect
import SpoilerTestSupport
import Testing

@Suite struct ParticleFieldTests {
    /// A field of `n` random particles over `words` words and `cells` cells.
    func randomField(_ rng: inout SplitMix64, n: Int, words: Int, cells: Int) -> ParticleField {
        var f = ParticleField()
        for i in 0..<n {
            f.append(
                x: Float(rng.nextUnit() * 120 - 10), y: Float(rng.nextUnit() * 60 - 10),
                vx: Float(rng.nextUnit() * 80 - 40), vy: Float(rng.nextUnit() * 80 - 40),
                lifetime: Float(rng.nextUnit() * 0.3), scale: 1, spin: 0, alpha: 1, color: 0,
                word: Int32(rng.next() % UInt64(words)), cell: UInt16(rng.next() % UInt64(cells)), id: UInt32(i))
        }
        return f
    }

    @Test func aFullFieldGrowsByAnEighthNotTwofold() {
        var f = ParticleField()
        for i in 0..<300_000 {
            f.append(
                x: 1, y: 2, vx: 0, vy: 0, lifetime: 1, scale: 1, spin: 0, alpha: 1, color: 0, word: 0, cell: 0,
                id: UInt32(i))
            if i % 50_000 == 0 || i == 299_999 {
                let n = f.count
                // An eighth more, and at most a page of the allocator's rounding.
                let most = n + max(n / 8, ParticleField.growthStep)
                for (name, capacity, page) in [
                    ("x", f.x.capacity, 1024), ("y", f.y.capacity, 1024), ("age", f.age.capacity, 1024),
                    ("id", f.id.capacity, 1024), ("cell", f.cell.capacity, 2048),
                ] {
                    #expect(
                        capacity >= n && capacity <= most + page, "\(name): capacity \(capacity) for \(n) particles")
                }
            }
        }
    }

    @Test(arguments: Confinement.allCases)
    func fastStepMatchesTheReferenceBitForBit(mode: Confinement) {
        forAll({ rng in rng.next() }, count: 20) { seed in
            var rng = SplitMix64(seed: seed)
            let words = 3
            var cells = [EmitterCell(), EmitterCell()]
            if seed % 2 == 0 {
                cells[1].xAcceleration = 30
                cells[1].yAcceleration = -50
            }
            let motion = CellMotion(cells: cells)
            var boxes = ConfinementBoxes(mode: mode, count: words)
            boxes.set(0, minX: 0, minY: 0, maxX: 48, maxY: 16)
            boxes.set(1, minX: 50, minY: 16, maxX: 90, maxY: 32)  // word 2 stays free
            var fast = randomField(&rng, n: Int(seed % 300) + 1, words: words, cells: 2)
            var slow = fast
            for _ in 0..<40 {
                fast.step(by: 1.0 / 120, motion: motion, boxes: boxes)
                slow.stepReference(by: 1.0 / 120, motion: motion, boxes: boxes)
                if fast != slow { return false }
            }
            return true
        }
    }

    @Test func deadParticlesAreSwapRemoved() {
        var f = ParticleField()
        for i in 0..<5 {
            f.append(
                x: Float(i), y: 0, vx: 0, vy: 0, lifetime: i % 2 == 0 ? 0.001 : 10, scale: 1, spin: 0, alpha: 1,
                color: 0, word: 0, cell: 0, id: UInt32(i))
        }
        f.step(by: 0.01, motion: CellMotion(cells: []), boxes: ConfinementBoxes(mode: .none, count: 1))
        #expect(f.count == 2)
        #expect(Set(f.id) == [1, 3])
        #expect(f.x.count == 2 && f.age.allSatisfy { $0 == 0.01 })
    }

    @Test func bounceKeepsParticlesInTheirBox() {
        var rng = SplitMix64(seed: 5)
        var f = randomField(&rng, n: 200, words: 1, cells: 1)
        var boxes = ConfinementBoxes(mode: .bounce, count: 1)
        boxes.set(0, minX: 10, minY: 10, maxX: 20, maxY: 20)
        f.step(by: 1.0 / 120, motion: CellMotion(cells: [EmitterCell()]), boxes: boxes)
        #expect(f.x.allSatisfy { $0 >= 10 && $0 <= 20 })
        #expect(f.y.allSatisfy { $0 >= 10 && $0 <= 20 })
    }
}
