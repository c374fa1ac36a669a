import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
@testable import SpoilerRender
import Testing

/// The SVG, the JSON timeline and the terminal recordings are written a piece at a time:
/// the pieces are exactly the whole-buffer output, each is bounded, and a long output
/// comes in many of them (a renderer that built the document first and passed it on
/// whole fails here).
@Suite struct RenderStreamingTests {
    /// One render's setting: a message, the effect and what happens in it.
    struct Case: CustomStringConvertible {
        var text: String
        var preset: Preset = .dust
        var revealAt: Double?
        var celebrate = false
        var font = false
        var reducedMotion = false
        var description: String {
            "\(text.prefix(24))… \(preset.name) reveal \(revealAt.map { "\($0)" } ?? "-") \(celebrate ? "celebrate" : "")"
        }

        func layout() throws -> TextLayout {
            let message = try MessageParser.parse(text, from: .plain)
            return font ? LayoutEngine(model: .font(try consoleFont())).layout(message) : LayoutEngine().layout(message)
        }

        func scene(_ layout: TextLayout) -> SpoilerScene {
            var options = SceneOptions()
            options.reducedMotion = reducedMotion
            var scene = SpoilerScene(layout: layout, preset: preset, options: options, seed: 5)
            if let revealAt { scene.scheduleReveal(at: revealAt) }
            return scene
        }

        func celebration(_ layout: TextLayout, scene: SpoilerScene) -> Celebration? {
            guard celebrate, let start = scene.lastRevealTime else { return nil }
            return Celebration(
                view: SVGRenderer.stageRect(SVGRenderer.defaultStage(for: layout)), start: start, seed: 5)
        }
    }

    static let cases: [Case] = [
        Case(text: "the butler ||did it|| in the library"),
        Case(text: "a ||b|| c ||longer hidden words|| <&\"> ||é 日本 🎉||", preset: .confetti),
        Case(text: "snow ||falls|| on ||the hidden|| words", preset: .snow, revealAt: 0.3),
        Case(text: "it was ||the butler|| all along", revealAt: 0.2, celebrate: true),
        Case(text: "glyphs ||in a font|| here", revealAt: 0.4, font: true),
        Case(text: "a still ||pattern|| of dots", reducedMotion: true),
        Case(text: String(repeating: "||ab|| ", count: 12)),
        // One word whose samples are over the smaller budgets alone: cut between its particles.
        Case(text: "a ||" + String(repeating: "x", count: 60) + "|| b ||cd||"),
        Case(text: "||" + String(repeating: "y", count: 40) + "||", revealAt: 0.3, celebrate: true),
    ]

    /// Collects the pieces a streaming render passes on.
    struct Pieces {
        var joined: [UInt8] = []
        var count = 0
        var largest = 0

        mutating func take(_ piece: [UInt8]) {
            joined += piece
            count += 1
            largest = max(largest, piece.count)
        }
    }

    @Test(arguments: cases) func aStreamedStillIsTheWholeStill(_ c: Case) throws {
        let layout = try c.layout()
        for time in [0.0, 0.5, 1.2] {
            var scene = c.scene(layout)
            scene.advance(to: time)
            var party = c.celebration(layout, scene: scene)
            party?.advance(to: time)
            var whole: [UInt8] = []
            SVGRenderer.renderStill(scene: scene, layout: layout, celebration: party, into: &whole)
            var pieces = Pieces()
            SVGRenderer.renderStill(scene: scene, layout: layout, celebration: party) { pieces.take($0) }
            let same = pieces.joined == whole
            #expect(same, "\(c) at \(time)")
        }
    }

    @Test(arguments: cases) func aStreamedLoopIsTheWholeLoopWhateverTheRuns(_ c: Case) throws {
        let layout = try c.layout()
        let scene = c.scene(layout)
        let party = c.celebration(layout, scene: scene)
        var whole: [UInt8] = []
        SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 20, duration: 1.5, celebration: party, into: &whole)
        var pieces = Pieces()
        SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 20, duration: 1.5, celebration: party) {
            pieces.take($0)
        }
        let same = pieces.joined == whole
        #expect(same, "\(c)")
        // A small budget records a word or a few a run, or part of a word: many runs.
        for budget in [3_000, 20_000, 150_000] {
            var small = Pieces()
            SVGRenderer.renderLoop(
                scene: scene, layout: layout, fps: FrameRate(20), duration: 1.5, celebration: party,
                budget: budget, pieceSize: 1000
            ) { small.take($0) }
            let sameInRuns = small.joined == whole
            #expect(sameInRuns, "\(c), budget \(budget)")
        }
    }

    @Test(arguments: cases) func aStreamedTimelineIsTheWholeTimelineWhateverTheRuns(_ c: Case) throws {
        let layout = try c.layout()
        let scene = c.scene(layout)
        let party = c.celebration(layout, scene: scene)
        for form in TimelineForm.allCases {
            var whole: [UInt8] = []
            TimelineRenderer.render(
                scene: scene, layout: layout, fps: 20, duration: 1.5, form: form, celebration: party, into: &whole)
            var pieces = Pieces()
            TimelineRenderer.render(
                scene: scene, layout: layout, fps: 20, duration: 1.5, form: form, celebration: party
            ) { pieces.take($0) }
            let same = pieces.joined == whole
            #expect(same, "\(c), \(form)")
            // A small budget records a few hundred tracks a run: many runs.
            for budget in [60_000, 300_000] {
                var small = Pieces()
                TimelineRenderer.render(
                    scene: scene, layout: layout, fps: FrameRate(20), duration: 1.5, form: form, celebration: party,
                    budget: budget, pieceSize: 1000
                ) { small.take($0) }
                let sameInRuns = small.joined == whole
                #expect(sameInRuns, "\(c), \(form), budget \(budget)")
            }
        }
    }

    @Test(arguments: cases.filter { !$0.font }) func aStreamedRecordingIsTheWholeRecording(_ c: Case) throws {
        let layout = try c.layout()
        let scene = c.scene(layout)
        let party =
            c.celebrate
            ? scene.lastRevealTime.map {
                Celebration(view: SpoilerRect(x: 0, y: 0, width: 400, height: 200), start: $0, seed: 5)
            } : nil
        for capability in [ColorCapability.none, .palette256, .trueColor] {
            let options = ANSIFrameOptions(capability: capability)
            let animation = ANSIAnimation.frames(
                layout: layout, scene: scene, options: options, fps: 20, duration: 1.5, celebration: party,
                stageColumns: party == nil ? nil : 50, stageRows: party == nil ? nil : 12)
            var cast = Pieces()
            ANSIAnimation.writeAsciicast(
                layout: layout, scene: scene, options: options, fps: 20, duration: 1.5, celebration: party,
                stageColumns: party == nil ? nil : 50, stageRows: party == nil ? nil : 12, title: "t"
            ) { cast.take($0) }
            let sameCast = cast.joined == animation.asciicast(title: "t")
            #expect(sameCast, "\(c), \(capability)")
            var frames = Pieces()
            ANSIAnimation.writeFrames(
                layout: layout, scene: scene, options: options, fps: 20, duration: 1.5, celebration: party,
                stageColumns: party == nil ? nil : 50, stageRows: party == nil ? nil : 12
            ) { frames.take($0) }
            let sameFrames = frames.joined == animation.bytes
            #expect(sameFrames, "\(c), \(capability)")
        }
    }

    /// A long message: outputs of hundreds of kilobytes.
    static let long = Case(text: String(repeating: "||ab|| ", count: 100))

    @Test func aLongOutputComesInManyBoundedPieces() throws {
        let c = Self.long
        let layout = try c.layout()
        let scene = c.scene(layout)
        let piece = RenderOutput.pieceSize
        // One element, tag or event more than a piece at most.
        let bound = piece + 16_000

        var still = Pieces()
        SVGRenderer.renderStill(scene: scene, layout: layout) { still.take($0) }
        var loop = Pieces()
        SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 30, duration: 1) { loop.take($0) }
        var tracks = Pieces()
        TimelineRenderer.render(scene: scene, layout: layout, fps: 30, duration: 1) { tracks.take($0) }
        var frames = Pieces()
        TimelineRenderer.render(scene: scene, layout: layout, fps: 30, duration: 1, form: .frames) {
            frames.take($0)
        }
        var cast = Pieces()
        ANSIAnimation.writeAsciicast(
            layout: layout, scene: scene, options: ANSIFrameOptions(capability: .trueColor), fps: 30, duration: 6
        ) { cast.take($0) }
        for (name, p) in [("still", still), ("loop", loop), ("tracks", tracks), ("frames", frames), ("cast", cast)] {
            #expect(p.joined.count > 3 * piece, "\(name): \(p.joined.count) bytes")
            #expect(p.count >= p.joined.count / bound, "\(name): \(p.count) pieces")
            #expect(p.count > 3, "\(name): \(p.count) pieces")
            #expect(p.largest <= bound, "\(name): a piece of \(p.largest) bytes")
        }
    }

    /// The first error of `write` stops the writing and comes out of the renderer.
    struct Full: Error, Equatable {}

    @Test func aFailedWriteStopsTheWritingAndIsThrown() throws {
        let c = Self.long
        let layout = try c.layout()
        let scene = c.scene(layout)
        var calls = 0
        let write = { (_: [UInt8]) throws(Full) in
            calls += 1
            if calls == 2 { throw Full() }
        }
        #expect(throws: Full()) { try SVGRenderer.renderStill(scene: scene, layout: layout, write: write) }
        #expect(calls == 2)
        calls = 0
        #expect(throws: Full()) {
            try SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 30, duration: 1, write: write)
        }
        #expect(calls == 2)
        calls = 0
        #expect(throws: Full()) {
            try TimelineRenderer.render(scene: scene, layout: layout, fps: 30, duration: 1, write: write)
        }
        #expect(calls == 2)
        calls = 0
        #expect(throws: Full()) {
            try ANSIAnimation.writeAsciicast(
                layout: layout, scene: scene, options: ANSIFrameOptions(capability: .trueColor), fps: 30,
                duration: 2, write: write)
        }
        #expect(calls == 2)
    }
}
