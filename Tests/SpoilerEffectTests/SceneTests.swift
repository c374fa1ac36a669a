import SpoilerCore
import SpoilerEffect
import SpoilerTestSupport
import Testing

/// A word box on a mono 8×16 grid.
func word(column: Int, graphemes: Int, line: Int = 0, group: Int) -> SceneWord {
    SceneWord(
        rect: SpoilerRect(x: Double(column * 8), y: Double(line * 16), width: Double(graphemes * 8), height: 16),
        graphemes: graphemes, group: group)
}

func counts(_ scene: SpoilerScene) -> [Int] {
    var c = [Int](repeating: 0, count: scene.words.count)
    for w in scene.particles.word { c[Int(w)] += 1 }
    return c
}

@Suite struct SceneTests {
    @Test func sameSeedSameBits() {
        let words = [word(column: 0, graphemes: 6, group: 0), word(column: 7, graphemes: 3, group: 1)]
        var a = SpoilerScene(words: words, preset: .dust, seed: 42)
        var b = SpoilerScene(words: words, preset: .dust, seed: 42)
        for _ in 0..<30 {
            a.step(by: 1.0 / 30)
            b.step(by: 1.0 / 30)
        }
        a.reveal(word: 0, origin: SpoilerPoint(x: 10, y: 8))
        b.reveal(word: 0, origin: SpoilerPoint(x: 10, y: 8))
        a.step(by: 0.5)
        b.step(by: 0.5)
        #expect(a.particles == b.particles)
        #expect(a.visibleParticles() == b.visibleParticles())
        var c = SpoilerScene(words: words, preset: .dust, seed: 43)
        for _ in 0..<30 { c.step(by: 1.0 / 30) }
        c.reveal(word: 0, origin: SpoilerPoint(x: 10, y: 8))
        c.step(by: 0.5)
        #expect(c.particles != a.particles)
    }

    /// Reading the particles one at a time gives the visible copy, in order, during a
    /// reveal (where the reveal fades some of them out) and after it.
    @Test func visibleParticleAtIndexIsTheVisibleCopy() {
        var scene = SpoilerScene(
            words: [word(column: 0, graphemes: 6, group: 0), word(column: 7, graphemes: 3, group: 1)], preset: .dust,
            seed: 3)
        scene.reveal(word: 0, origin: SpoilerPoint(x: 10, y: 8), at: 0.1)
        for t in [0.0, 0.2, 0.5, 1.5] {
            scene.advance(to: t)
            let copy = scene.visibleParticles()
            let read = (0..<scene.particles.count).compactMap { scene.visibleParticle(at: $0) }
            #expect(read.count == copy.count, "at \(t)")
            let differing: Int? = read.indices.first { k in k >= copy.count || read[k] != copy[k] }
            #expect(differing == nil, "at \(t): first differing particle \(differing ?? -1)")
            #expect(read.allSatisfy { $0.alpha > 0 }, "at \(t)")
        }
        #expect(scene.visibleParticles().count < scene.particles.count, "a reveal hides some particles")
    }

    @Test func stepAndAdvanceAgree() {
        let words = [word(column: 0, graphemes: 4, group: 0)]
        var a = SpoilerScene(words: words, preset: .dust, seed: 3)
        var b = SpoilerScene(words: words, preset: .dust, seed: 3)
        for _ in 0..<45 { a.step(by: 1.0 / 30) }
        b.advance(to: 1.5)
        #expect(a.tick == b.tick)
        #expect(a.particles == b.particles)
        #expect(a.time == 1.5)
    }

    @Test func steadyStateCountsAreProportionalToLength() {
        let words = [word(column: 0, graphemes: 5, group: 0), word(column: 6, graphemes: 10, group: 1)]
        var scene = SpoilerScene(words: words, preset: .dust, seed: 9)
        var totals = [0, 0]
        for _ in 0..<60 {
            scene.step(by: 1.0 / 30)
            let c = counts(scene)
            totals[0] += c[0]
            totals[1] += c[1]
        }
        let ratio = Double(totals[1]) / Double(totals[0])
        #expect(abs(ratio - 2) <= 0.3, "ratio \(ratio)")
        // 20 per grapheme per second, 1 s lifetime: about 100 live particles for 5 graphemes.
        let mean5 = Double(totals[0]) / 60
        #expect(mean5 > 85 && mean5 < 115, "mean \(mean5)")
    }

    @Test func densityScalesBirthRate() {
        var options = SceneOptions()
        options.density = 40
        let scene = SpoilerScene(
            words: [word(column: 0, graphemes: 5, group: 0)], preset: .dust, options: options, seed: 2)
        #expect(scene.particles.count > 170 && scene.particles.count < 230, "\(scene.particles.count)")
        #expect(scene.emitters[0].birthRate == 10)
    }

    @Test func dustStaysInsideItsWord() {
        let words = [word(column: 2, graphemes: 6, group: 0), word(column: 3, graphemes: 4, line: 1, group: 1)]
        var scene = SpoilerScene(words: words, preset: .dust, seed: 5)
        for _ in 0..<90 {
            scene.step(by: 1.0 / 30)
            let p = scene.particles
            for i in 0..<p.count {
                let r = words[Int(p.word[i])].rect
                #expect(Double(p.x[i]) >= r.minX && Double(p.x[i]) <= r.maxX)
                #expect(Double(p.y[i]) >= r.minY && Double(p.y[i]) <= r.maxY)
            }
        }
    }

    @Test func dustIsBornInsideTheRectShrunkByOnePixel() {
        let e = SpoilerScene.emitter(for: word(column: 1, graphemes: 3, group: 0), preset: .dust, density: 20)
        #expect(e.emitterShape == .rectangle)
        #expect(e.bounds == SpoilerRect(x: 9, y: 1, width: 22, height: 14))
    }

    @Test func revealGrowsAfterTheDelayAndCoversTheWord() {
        let w = word(column: 0, graphemes: 6, group: 0)
        var scene = SpoilerScene(words: [w], preset: .dust, seed: 1)
        #expect(scene.revealRadius(word: 0) == nil)
        #expect(scene.isHidden(word: 0))
        let origin = SpoilerPoint(x: 4, y: 8)
        scene.reveal(word: 0, origin: origin)
        #expect(scene.revealRadius(word: 0) == 0)
        scene.step(by: 0.05)
        #expect(scene.revealRadius(word: 0) == 0)
        #expect(scene.isHidden(word: 0))
        scene.step(by: 0.2)
        let mid = scene.revealRadius(word: 0) ?? 0
        #expect(mid > 0)
        #expect(!scene.isHidden(word: 0))
        #expect(scene.textVisibility(word: 0, at: origin) == 1)
        #expect(scene.textVisibility(word: 0, at: SpoilerPoint(x: 47, y: 15)) == 0)
        scene.step(by: 0.45)  // 0.7 s: growth over
        let farthest = ((48.0 - 4) * (48 - 4) + 8 * 8).squareRoot()
        #expect(abs((scene.revealRadius(word: 0) ?? 0) - farthest / 0.7) < 1e-9)
        #expect(scene.isFullyRevealed(word: 0))
        for (x, y) in [(0.0, 0.0), (48, 0), (0, 16), (48, 16), (24, 8)] {
            #expect(scene.textVisibility(word: 0, at: SpoilerPoint(x: x, y: y)) == 1)
        }
    }

    @Test func revealPushesParticlesAwayFadesThemAndStopsBirths() {
        let w = word(column: 0, graphemes: 6, group: 0)
        var scene = SpoilerScene(words: [w], preset: .dust, seed: 1)
        let before = scene.visibleParticles().count
        #expect(before > 50)
        scene.reveal(word: 0)
        scene.step(by: 0.3)
        // Pushed: some particles have left the word's rectangle.
        let p = scene.particles
        let outside = (0..<p.count).filter {
            !w.rect.insetBy(-0.01).contains(SpoilerPoint(x: Double(p.x[$0]), y: Double(p.y[$0])))
        }
        #expect(!outside.isEmpty)
        scene.step(by: 0.6)  // 0.9 s
        #expect(scene.visibleParticles().count == 0)
        scene.step(by: 1.2)  // everything born before has died; none born since
        #expect(scene.particles.count == 0)
    }

    @Test func hideShrinksTheCircleAndTheDustReturns() {
        var scene = SpoilerScene(words: [word(column: 0, graphemes: 6, group: 0)], preset: .dust, seed: 1)
        scene.reveal(word: 0)
        scene.step(by: 2)
        scene.hide(word: 0)
        let full = scene.revealRadius(word: 0) ?? 0
        scene.step(by: 0.2)
        let half = scene.revealRadius(word: 0) ?? 0
        #expect(half > 0 && half < full)
        scene.step(by: 0.25)
        #expect(scene.revealRadius(word: 0) == nil)
        #expect(scene.isHidden(word: 0))
        scene.step(by: 1)
        #expect(scene.visibleParticles().count > 50)
    }

    @Test func scheduledRevealAndRehide() {
        var scene = SpoilerScene(words: [word(column: 0, graphemes: 3, group: 0)], preset: .dust, seed: 1)
        scene.reveal(word: 0, at: 1)
        scene.hide(word: 0, at: 2)
        scene.advance(to: 0.9)
        #expect(scene.revealRadius(word: 0) == nil)
        scene.advance(to: 1.5)
        #expect((scene.revealRadius(word: 0) ?? 0) > 0)
        scene.advance(to: 2.5)
        #expect(scene.revealRadius(word: 0) == nil)
    }

    @Test func wordScopeRevealsTheWordAndItsFragmentsOnly() {
        let words = [
            word(column: 0, graphemes: 3, group: 0), word(column: 4, graphemes: 3, group: 1),
            word(column: 0, graphemes: 2, line: 1, group: 1),
        ]
        var scene = SpoilerScene(words: words, preset: .dust, seed: 1)
        scene.reveal(word: 1)
        scene.step(by: 1)
        #expect(scene.isHidden(word: 0))
        #expect(!scene.isHidden(word: 1))
        #expect(!scene.isHidden(word: 2))

        var options = SceneOptions()
        options.revealScope = .message
        var all = SpoilerScene(words: words, preset: .dust, options: options, seed: 1)
        all.reveal(word: 1)
        all.step(by: 1)
        #expect(!all.isHidden(word: 0) && all.isFullyRevealed(word: 0) && all.isFullyRevealed(word: 2))
    }

    @Test func reducedMotionIsAStillPatternWithAFixedSeed() {
        var options = SceneOptions()
        options.reducedMotion = true
        let words = [word(column: 0, graphemes: 4, group: 0)]
        var a = SpoilerScene(words: words, preset: .dust, options: options, seed: 1)
        let b = SpoilerScene(words: words, preset: .dust, options: options, seed: 99)
        #expect(a.particles == b.particles)
        #expect(a.particles.count == 32 * 16 / 4)
        let first = a.visibleParticles()
        a.step(by: 2)
        #expect(a.visibleParticles() == first)
        a.reveal(word: 0)
        #expect(a.visibleParticles().count == 0)
        #expect(a.isFullyRevealed(word: 0))
    }

    @Test func wordAtPoint() {
        let scene = SpoilerScene(words: [word(column: 2, graphemes: 3, group: 0)], preset: .dust, seed: 1)
        #expect(scene.word(at: SpoilerPoint(x: 17, y: 3)) == 0)
        #expect(scene.word(at: SpoilerPoint(x: 15, y: 3)) == nil)
    }

    @Test func positionsStayFinite() {
        forAll(
            { rng -> (UInt64, Int, String) in
                (rng.next(), Int(rng.next() % 12) + 1, Preset.builtInNames[Int(rng.next() % 3)])
            }, count: 20
        ) { seed, n, name in
            var scene = SpoilerScene(
                words: [word(column: 1, graphemes: n, group: 0)], preset: Preset.builtIn[name]!, seed: seed)
            scene.reveal(word: 0, origin: SpoilerPoint(x: 3, y: 3), at: 0.5)
            for _ in 0..<40 { scene.step(by: 1.0 / 30) }
            let p = scene.particles
            return (0..<p.count).allSatisfy { p.x[$0].isFinite && p.y[$0].isFinite && p.vx[$0].isFinite }
        }
    }

    @Test func confettiFallsFromTheTopEdge() {
        var scene = SpoilerScene(words: [word(column: 0, graphemes: 10, group: 0)], preset: .confetti, seed: 4)
        scene.step(by: 0.5)
        let p = scene.particles
        #expect(p.count > 0)
        let meanVY = (0..<p.count).map { Double(p.vy[$0]) }.reduce(0, +) / Double(p.count)
        #expect(meanVY > 100)  // downward
        #expect(Set(p.color).count == 3)  // red, green and blue
    }
}
