import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
@testable import SpoilerRender
import Testing

/// What the renderers hold besides the scene: a record that grows with the scene, a first
/// run that lets go of its samples as soon as they pass its budget, and of a frame's
/// particles only what the scene does not hold.
@Suite struct RenderMemoryTests {
    func scene(_ text: String) throws -> SpoilerScene {
        let layout = LayoutEngine().layout(try MessageParser.parse(text, from: .plain))
        return SpoilerScene(layout: layout, preset: .dust, seed: 1)
    }

    @Test func theRecordGrowsWithTheSceneBetweenAFloorAndTheCap() throws {
        let small = try scene("a ||b|| c")
        let large = try scene(String(repeating: "||ab|| ", count: 400))
        let cap = 12 << 20
        #expect(RenderOutput.recordBudget(for: small, perParticle: 96, cap: cap) == 1 << 20)
        let budget = RenderOutput.recordBudget(for: large, perParticle: 96, cap: cap)
        #expect(budget == large.particles.count * 96, "\(large.particles.count) particles")
        #expect(budget > 1 << 20 && budget < cap)
        #expect(RenderOutput.recordBudget(for: large, perParticle: 96, cap: budget - 1) == budget - 1)
        #expect(TimelineTracks.recordBudget(for: large) == budget)
    }

    @Test func theFirstRunLetsGoOfItsSamplesWithinAFrame() {
        // One frame of 1,000 particles against a budget of ten: the samples are dropped
        // once they pass it, not at the end of the frame.
        var listing = TimelineTracks.Listing()
        let budget = 10 * TimelineTracks.Particle.bytes
        listing.collect(count: 1000, frame: 1, budget: budget) { i in
            VisibleParticle(
                word: 0, x: Float(i), y: 2, size: 1, alpha: 0.5, color: 0x8E8E93, rotation: 0, shape: .dot,
                id: UInt32(i), age: 0)
        }
        #expect(listing.full == nil)
        #expect(listing.entries.count == 1000)
        #expect(listing.fullBytes < 2 * budget, "\(listing.fullBytes) bytes held for a budget of \(budget)")
    }

    @Test func aFrameKeepsTheIndexSizeAndOpacityOfTheParticlesThatShow() throws {
        var scene = try scene("the ||butler did|| it ||again||")
        scene.reveal(word: 0, at: 0.05)
        var shown = ShownParticles()
        for t in [0.0, 0.1, 0.3] {
            scene.advance(to: t)
            shown.take(scene)
            let visible = scene.visibleParticles()
            #expect(shown.count == visible.count, "at \(t)")
            #expect(shown.size == visible.size && shown.alpha == visible.alpha, "at \(t)")
            #expect(shown.index.map { scene.particles.id[Int($0)] } == visible.id, "at \(t)")
        }
        #expect(shown.count < scene.particles.count, "the reveal hides some particles")
    }
}
