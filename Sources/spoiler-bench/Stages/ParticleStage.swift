import Glibc
import SpoilerCore
import SpoilerEffect

/// Particle simulation speed (DESIGN.md §8): a dust scene of 50,000 graphemes (2,500 words of
/// 20), about a million live particles at steady state, stepped at the scene's fixed
/// 1/120 s tick on one core, against a plain `memcpy` of the same particle state (every
/// array of the field) in the same run.
///
/// Keys: `particle_updates_per_s` (live particles × steps per second; target ≥ 100
/// million) and `particles_vs_memcpy` (one step's time ÷ one copy's; target ≤ 4).
enum ParticleStage {
    static let stage = BenchStage(
        name: "particles", summary: "dust scene steps (~1 M particles) vs memcpy of the particle state", run: run)

    static let wordCount = 2_500
    static let graphemesPerWord = 20
    static let stepsPerRun = 10

    static func run(_ bench: inout BenchRun) {
        var words: [SceneWord] = []
        for i in 0..<wordCount {
            let rect = SpoilerRect(
                x: Double(i % 10) * 168, y: Double(i / 10) * 16, width: Double(graphemesPerWord * 8), height: 16)
            words.append(SceneWord(rect: rect, graphemes: graphemesPerWord, group: i))
        }
        var scene = SpoilerScene(words: words, preset: .dust, seed: 1)
        let live = scene.particles.count
        var updates = 0
        let stepTime = bench.measure {
            let before = scene.particles.count
            for _ in 0..<stepsPerRun { scene.step(by: scene.stepSeconds) }
            updates = before * stepsPerRun
            return UInt64(scene.particles.count) ^ UInt64(scene.particles.x[0].bitPattern)
        }
        let perSecond = Double(updates) / stepTime
        bench.report(
            "dust scene, \(live) live particles, \(stepsPerRun) steps", stepTime / Double(stepsPerRun) * 1e3,
            unit: "ms/step")
        bench.report(
            "particle updates per second, one core", perSecond / 1e6, unit: "M/s", note: "target ≥ 100")
        bench.setKey("particle_updates_per_s", perSecond)

        // The reference: copy every array of the same field once per step.
        let field = scene.particles
        var copy = CopyTarget(count: field.count)
        let copyTime = bench.measure {
            for _ in 0..<stepsPerRun { copy.copy(from: field) }
            return copy.checksum
        }
        bench.report(
            "memcpy of the particle state (\(copy.bytesPerCopy >> 20) MB)", copyTime / Double(stepsPerRun) * 1e3,
            unit: "ms/copy")
        bench.report(
            "step ÷ memcpy time", stepTime / copyTime, unit: "×", key: "particles_vs_memcpy", note: "target ≤ 4")
    }

    /// Destination buffers as large as the field's arrays.
    struct CopyTarget {
        var buffers: [UnsafeMutableRawPointer] = []
        var bytesPerCopy = 0
        var checksum: UInt64 = 0

        init(count: Int) {
            let sizes = [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 4]
            for s in sizes {
                buffers.append(UnsafeMutableRawPointer.allocate(byteCount: max(count * s, 1), alignment: 16))
            }
        }

        mutating func copy(from f: ParticleField) {
            var k = 0
            var total = 0
            func put<T>(_ a: [T]) {
                a.withUnsafeBytes { raw in
                    if let base = raw.baseAddress { memcpy(buffers[k], base, raw.count) }
                    total += raw.count
                }
                k += 1
            }
            put(f.x); put(f.y); put(f.vx); put(f.vy); put(f.age); put(f.lifetime); put(f.scale); put(f.spin)
            put(f.alpha); put(f.color); put(f.word); put(f.cell); put(f.id)
            bytesPerCopy = total
            checksum &+= UInt64(buffers[0].load(as: UInt32.self))
        }
    }
}
