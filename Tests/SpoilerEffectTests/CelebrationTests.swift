import SpoilerCore
import SpoilerEffect
import Testing

@Suite struct CelebrationTests {
    let view = SpoilerRect(x: -4, y: -4, width: 320, height: 240)

    /// Pieces by serial number.
    func byID(_ v: VisibleParticles) -> [UInt32: Int] {
        Dictionary(uniqueKeysWithValues: v.id.enumerated().map { ($1, $0) })
    }

    @Test func nothingBeforeTheStartThenPiecesFromTheTopEdgeAsWideAsTheView() {
        var party = Celebration(view: view, start: 2, seed: 3)
        party.advance(to: 1.9)
        #expect(party.particles.count == 0)
        party.advance(to: 3.5)
        let v = party.visibleParticles()
        #expect(v.count > 30)
        let xs = v.x.map(Double.init)
        // The line runs across the whole view: pieces in its left and right tenths.
        #expect(xs.contains { $0 < view.minX + view.width / 10 } && xs.contains { $0 > view.maxX - view.width / 10 })
        // Below the text's single line too.
        #expect(v.y.contains { Double($0) > 150 })
    }

    @Test func everyPieceIsWholeInsideTheViewWhenItIsBorn() {
        var party = Celebration(view: view, start: 0, seed: 5)
        var seen = Set<UInt32>()
        for k in 1...60 {
            party.advance(to: Double(k) / 40)
            let v = party.visibleParticles()
            for i in 0..<v.count where !seen.contains(v.id[i]) {
                seen.insert(v.id[i])
                // The widest shape, a square, reaches 0.71 of its size from its centre.
                #expect(Double(v.y[i]) - 0.71 * Double(v.size[i]) >= view.minY, "piece \(v.id[i]) clipped at the top")
            }
        }
        #expect(seen.count > 20)
    }

    @Test func piecesFallSpinAndShrinkAsThePresetSays() {
        var party = Celebration(view: view, start: 0, seed: 9)
        party.advance(to: 0.5)
        let a = party.visibleParticles()
        party.advance(to: 1.0)
        let b = party.visibleParticles()
        let ia = byID(a)
        var matched = 0
        for (id, j) in byID(b) {
            guard let i = ia[id] else { continue }
            matched += 1
            let dy = Double(b.y[j] - a.y[i])
            let dx = Double(b.x[j] - a.x[i])
            // Speed 200 ± 50 within π/8 of straight down, for 0.5 s.
            #expect(dy >= 150 * 0.92 * 0.5 - 0.5 && dy <= 250 * 0.5 + 0.5, "piece \(id) fell \(dy) px")
            #expect(abs(dx) <= 250 * 0.39 * 0.5 + 0.5)
            // Spin 2 ± 3 rad/s: the rotation turns by spin × 0.5.
            let turn = Double(b.rotation[j] - a.rotation[i])
            #expect(turn >= -0.5 - 1e-3 && turn <= 2.5 + 1e-3, "piece \(id) turned \(turn)")
            // Scale speed −0.05/s on 8 px: 0.2 px smaller.
            #expect(abs(Double(a.size[i] - b.size[j]) - 0.2) < 1e-3)
        }
        #expect(matched > 10)
        let turns = byID(b).compactMap { id, j in ia[id].map { Double(b.rotation[j] - a.rotation[$0]) } }
        #expect(turns.filter { abs($0) > 0.05 }.count * 10 >= turns.count * 9, "spin barely shows")
    }

    @Test func redGreenAndBlueInThePresetsShapes() {
        var party = Celebration(view: view, start: 0, seed: 2)
        party.advance(to: 1)
        let v = party.visibleParticles()
        #expect(Set(v.color) == [0xFF3B30, 0x34C759, 0x007AFF])
        #expect(Set(v.shape) == [.polygon, .square, .star])
    }

    /// Pieces grow with the view's width up to ``Celebration/maxBirthWidth``; a wider view
    /// (a message laid out on one long line) gets that many, spread over its whole width.
    @Test func theWidthAddsPiecesUpToAScreensWidth() {
        func born(width: Double) -> (count: Int, xs: [Float]) {
            var party = Celebration(view: SpoilerRect(x: 0, y: 0, width: width, height: 240), start: 0, seed: 4)
            party.advance(to: 0.5)
            return (party.particles.count, party.visibleParticles().x)
        }
        let half = born(width: Celebration.maxBirthWidth / 2).count
        let screen = born(width: Celebration.maxBirthWidth).count
        let line = born(width: 200_000)
        #expect(half > 100)
        #expect(Double(screen) > 1.8 * Double(half))
        #expect(abs(line.count - screen) <= screen / 20)
        #expect(line.xs.contains { $0 > 150_000 } && line.xs.contains { $0 < 50_000 })
    }

    @Test func itStopsAndThenCostsNothing() {
        var party = Celebration(view: view, start: 0, seed: 2)
        party.advance(to: 1)
        #expect(!party.isFinished)
        // 240 px at 138 px/s at the slowest, after 1.5 s of births: all gone by 3.5 s.
        party.advance(to: 3.5)
        #expect(party.isFinished && party.particles.count == 0)
        #expect(party.latestEnd <= 1.5 + 7 + 1e-9)
        party.advance(to: 1e6)
        #expect(party.isFinished && party.time == 1e6)
    }

    @Test func sameSeedSameBitsOtherSeedOtherPieces() {
        func run(_ seed: UInt64) -> [Float] {
            var p = Celebration(view: view, start: 0.25, seed: seed)
            p.advance(to: 1.3)
            return p.particles.x + p.particles.y + p.particles.spin
        }
        #expect(run(4) == run(4))
        #expect(run(4) != run(5))
    }

    @Test func reducedMotionHasNoConfetti() {
        var options = SceneOptions()
        options.reducedMotion = true
        var party = Celebration(view: view, start: 0, seed: 1, options: options)
        #expect(party.isFinished)
        party.advance(to: 1)
        #expect(party.particles.count == 0)
    }

    @Test func theLastRevealIsWhenNoWordIsLeftHidden() {
        let words = [
            SceneWord(rect: SpoilerRect(x: 0, y: 0, width: 16, height: 16), graphemes: 2, group: 0),
            SceneWord(rect: SpoilerRect(x: 32, y: 0, width: 16, height: 16), graphemes: 2, group: 1),
        ]
        var options = SceneOptions()
        options.revealScope = .word
        var scene = SpoilerScene(words: words, preset: .dust, options: options)
        #expect(scene.lastRevealTime == nil)
        scene.reveal(word: 1, at: 0.4)
        #expect(scene.lastRevealTime == nil)
        scene.reveal(word: 0, at: 1.5)
        #expect(scene.lastRevealTime == 1.5)
    }
}
