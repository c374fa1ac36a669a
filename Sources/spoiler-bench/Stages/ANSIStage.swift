import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender

/// The ANSI renderer (DESIGN.md §8): building and diffing terminal frames.
///
/// Keys:
/// - `ansi_frame_ms`: milliseconds of thread CPU time to build a 200 × 50 frame from a
///   scene with about 20,000 live particles (every particle plotted) and diff it against
///   the previous frame into bytes (target < 1); the median run's average over 29 frames.
///   The scene is stepped between frames outside the timing. CPU time rather than wall
///   time because the machines this runs on are shared; the wall-clock figure is printed
///   beside it.
/// - `ansi_bytes_vs_full`: bytes of those frame diffs ÷ bytes of redrawing every cell of
///   the same frames (target ≤ 1/3).
/// - `ansi_chat_bytes_per_frame`: bytes a frame for a one-line chat message with one
///   hidden word on an 80 × 24 terminal at 30 fps, over 10 s after the first frame
///   (target ≤ 250), 24-bit colour, braille, as `spoiler play` draws it.
enum ANSIStage {
    static let stage = BenchStage(
        name: "ansi", summary: "ANSI frame build + diff (200x50, 20k particles), bytes per frame", run: run)

    static func run(_ bench: inout BenchRun) {
        // A 200-column, 50-line message with 1,000 hidden graphemes (20 per second each,
        // 1 s lifetime: about 20,000 particles).
        var text = ""
        var entities: [Entity] = []
        var rng = SplitMix64(seed: 42)
        for line in 0..<50 {
            // Keep hidden words spread over the rows: at most 4 a row.
            let before = entities.count
            var row = ""
            while row.count < 190 {
                let word = String(repeating: "abcdefghij".randomElement(using: &rng)!, count: Int(rng.next() % 7) + 2)
                if rng.next() % 5 == 0 && entities.count < 167 && entities.count - before < 4 {
                    // A hidden six-letter word: 167 of them make about 1,000 graphemes.
                    entities.append(Entity(.spoiler, offset: text.utf16.count + row.utf16.count, length: 6))
                    row += "secret"
                } else {
                    row += word
                }
                row += " "
            }
            text += row + (line < 49 ? "\n" : "")
        }
        let message = Message(text: text, entities: entities)
        let layout = LayoutEngine(wrapWidth: 200).layout(message)
        var options = ANSIFrameOptions(capability: .trueColor)
        options.particleThinning = 1
        var builder = ANSIFrameBuilder(layout: layout, options: options)
        var scene = SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, seed: 1)
        let frameCount = 30
        var scenes: [SpoilerScene] = []
        for _ in 0..<frameCount {
            scene.step(by: 1.0 / 30)
            scenes.append(scene)
        }
        let particles = scenes.map { $0.particles.count }.reduce(0, +) / frameCount

        var diffBytes = 0
        var fullBytes = 0
        var cpuTimes: [Double] = []
        let time = bench.measure {
            let cpuStart = threadCPUSeconds()
            defer { cpuTimes.append(threadCPUSeconds() - cpuStart) }
            var encoder = ANSIEncoder(capability: .trueColor)
            var previous = CellCanvas(width: 200, height: 50)
            var next = CellCanvas(width: 200, height: 50)
            var out: [UInt8] = []
            out.reserveCapacity(1 << 20)
            builder.draw(scenes[0], into: &previous)
            encoder.encodeFrame(from: nil, to: previous, into: &out)
            var total = 0
            for i in 1..<frameCount {
                out.removeAll(keepingCapacity: true)
                next.clear()
                builder.draw(scenes[i], into: &next)
                encoder.encodeFrame(from: previous, to: next, into: &out)
                total += out.count
                swap(&previous, &next)
            }
            diffBytes = total
            return UInt64(total)
        }
        // The full redraw of the same frames, for comparison (not timed).
        do {
            var encoder = ANSIEncoder(capability: .trueColor)
            var canvas = CellCanvas(width: 200, height: 50)
            var out: [UInt8] = []
            for i in 1..<frameCount {
                canvas.clear()
                builder.draw(scenes[i], into: &canvas)
                out.removeAll(keepingCapacity: true)
                encoder.encodeFullRedraw(canvas, into: &out)
                fullBytes += out.count
            }
        }
        let frameMs = time / Double(frameCount - 1) * 1000
        cpuTimes.sort()
        let cpuFrameMs = cpuTimes[cpuTimes.count / 2] / Double(frameCount - 1) * 1000
        bench.report("build + diff a 200x50 frame, \(particles) particles, wall clock", frameMs, unit: "ms")
        bench.report(
            "build + diff a 200x50 frame, \(particles) particles, thread CPU time", cpuFrameMs, unit: "ms",
            key: "ansi_frame_ms", note: "target < 1; CPU time, so a busy machine does not count")
        bench.report(
            "diff bytes ÷ full redraw bytes (\(diffBytes / (frameCount - 1)) vs \(fullBytes / (frameCount - 1)) B/frame)",
            Double(diffBytes) / Double(max(1, fullBytes)), unit: "×", key: "ansi_bytes_vs_full", note: "target ≤ 0.333")

        let chat = chatBytesPerFrame()
        bench.report(
            "one-line chat message, one hidden word, 30 fps, 10 s", chat, unit: "B/frame",
            key: "ansi_chat_bytes_per_frame", note: "target ≤ 250")
    }

    /// CPU time this thread has used, in seconds (CLOCK_THREAD_CPUTIME_ID): unlike the
    /// wall clock, it does not count time the scheduler gave to other processes.
    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Average bytes per frame after the first for a one-line message with one hidden
    /// word, at 30 fps for 10 s, on an 80 × 24 terminal.
    static func chatBytesPerFrame() -> Double {
        let text = "ok so the ending is rosebud, don't tell anyone"
        let message = Message(text: text, entities: [Entity(.spoiler, offset: 20, length: 7)])
        let layout = LayoutEngine(wrapWidth: 80).layout(message)
        var builder = ANSIFrameBuilder(layout: layout, options: ANSIFrameOptions(capability: .trueColor))
        var scene = SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, seed: 1)
        var encoder = ANSIEncoder(capability: .trueColor)
        var previous = CellCanvas(width: 80, height: 24)
        var next = CellCanvas(width: 80, height: 24)
        builder.draw(scene, into: &previous)
        var out: [UInt8] = []
        encoder.encodeFrame(from: nil, to: previous, into: &out)
        var total = 0
        let frames = 300
        for _ in 0..<frames {
            scene.step(by: 1.0 / 30)
            next.clear()
            builder.draw(scene, into: &next)
            out.removeAll(keepingCapacity: true)
            encoder.encodeFrame(from: previous, to: next, into: &out)
            total += out.count
            swap(&previous, &next)
        }
        return Double(total) / Double(frames)
    }
}
