import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// `spoiler render`: one message's spoiler effect as a JSON timeline or SVG (DESIGN.md §4, §5, §7).
///
/// A new output format is one case of ``RenderFormat`` and one case in
/// ``RenderCommand/render(_:format:)``.
enum RenderCommand {
    static let spec = CommandSpec(
        name: "render",
        options: [
            "format", "from", "spoiler-reasons", "font", "width", "cell", "preset", "seed", "fps", "duration", "at",
            "reveal-at",
            "reveal-origin", "reveal-scope", "rehide-after", "density", "celebrate", "stage", "reduced-motion", "color",
            "glyphs", "redact", "embed", "timeline", "output",
        ],
        required: ["format"],
        about: """
            Renders a chat message's spoilers as Telegram's "invisible ink": every hidden word is a
            cloud of particles from its own emitter, revealed by a circular wave from a click.

            formats:
              json        a timeline a client plays back: the reveal radius of each word per
                          frame and every particle once, its motion as integer keyframes
                          (--timeline frames: per frame the particles as columnar arrays;
                          see the README for the keys)
              svg         a still frame at --at (default 0), or with --duration an animated loop
                          that plays in a browser; text that is still hidden is not in the file
              html        a self-contained page: the message as HTML text, each hidden word under
                          animated dust, revealed by a click or Tab and Enter (--embed: a
                          fragment to paste into a page; --redact: hidden text left out)
              ansi        terminal output: a still frame at --at (lines of text, colours per
                          --color), or with --duration the animation as terminal frames (the
                          first frame whole, then only the cells that change), as `spoiler play`
                          draws it; `cat` it to a terminal
              cast        an asciicast v2 recording of the animation (`asciinema play` plays it)
            """,
        notes: """
            Colours: ansi as for a terminal (from COLORTERM and TERM, none into a pipe under
            --color auto); cast: 256 colours by default, 24-bit with --color always.

            example:
              $ echo 'the butler ||did it||' | spoiler render --format svg --duration 2 --reveal-at 1 -o ink.svg

            exit status: 0 success, 1 the message or a file failed, 2 usage error
            """)

    /// Everything a format needs: the message laid out, its scene at time 0 with the
    /// reveals scheduled, and the timing options.
    struct Job {
        var args: Arguments
        var message: Message
        var layout: TextLayout
        var font: BitmapFont?
        var scene: SpoilerScene
        var fps: FrameRate
        var duration: Double
        /// `--duration` as given (nil when left out).
        var durationGiven: Double?
        var at: Double?
        /// When the confetti starts (`--celebrate`: the last reveal); nil: no confetti.
        var celebrationStart: Double?
        /// The picture's size in pixels (`--stage`), if given.
        var stage: SpoilerSize?
        /// Whether `--celebrate` was given.
        var celebrates: Bool
        var seed: UInt64
        var options: SceneOptions

        /// The confetti over `view`, if there is any.
        func celebration(over view: SpoilerRect) -> Celebration? {
            celebrationStart.map { Celebration(view: view, start: $0, seed: seed, options: options) }
        }

        /// The SVG's stage: `--stage`, or the default with `--celebrate`.
        var svgStage: SpoilerSize? { stage ?? (celebrates ? SVGRenderer.defaultStage(for: layout) : nil) }

        /// The SVG's confetti, over its stage.
        var svgCelebration: Celebration? { svgStage.flatMap { celebration(over: SVGRenderer.stageRect($0)) } }

        /// Takes the scene out of the job (leaving one of no words) for a renderer that
        /// steps it: the renderer then holds the only copy, where stepping a scene the job
        /// still held would copy every particle.
        mutating func handOffScene() -> SceneHandoff {
            let handoff = SceneHandoff(scene)
            scene = SpoilerScene(words: [], preset: scene.preset, options: scene.options, seed: scene.seed)
            return handoff
        }
    }

    /// A scene on its way to the one renderer that steps it (``Job/handOffScene()``).
    final class SceneHandoff {
        private var scene: SpoilerScene?

        init(_ scene: SpoilerScene) { self.scene = scene }

        /// The scene, once: the handoff lets go of it.
        func take() -> SpoilerScene {
            guard let taken = scene else { preconditionFailure("the scene was handed over already") }
            scene = nil
            return taken
        }
    }

    static func run(_ args: Arguments) throws(CommandLineError) {
        let format = args.choice("format", as: RenderFormat.self)!
        if args.given("timeline") && format != .json {
            throw .usage("'--timeline' applies to --format json", command: "render")
        }
        if format == .ansi && !args.given("output") && TerminalRender.mayStream(args) {
            // A still frame of a long message is drawn and written a piece at a time.
            let message = try readMessage(args)
            if try TerminalRender.stream(message, args: args) { return }
            try StandardStreams.write(TerminalRender.render(makeJob(args, message: message), cast: false))
            StandardStreams.flush()
            return
        }
        if format == .html {
            // The page is written as it is made, in bounded memory.
            let (message, options) = try HTMLRender.prepare(args)
            if let path = args.text("output") {
                try writeFile(path) { write in HTMLRenderer.render(message, options: options, write: write) }
            } else {
                HTMLRenderer.render(message, options: options) { StandardStreams.write($0) }
                StandardStreams.flush()
            }
            return
        }
        // The limits and the options are checked before anything is written; the output
        // is then written as it is made, a piece at a time.
        let produce = try renderer(makeJob(args), format: format)
        if let path = args.text("output") {
            try writeFile(path, produce)
        } else {
            produce { piece in piece.withUnsafeBufferPointer { StandardStreams.writeGathered($0) } }
            StandardStreams.flush()
        }
    }

    /// The output of a job in `format`: a function that writes it, in order, a piece at a
    /// time to its argument. The options are checked here, so that a job refused writes
    /// nothing.
    static func renderer(_ job: Job, format: RenderFormat) throws(CommandLineError) -> Producer {
        var job = job
        switch format {
        case .json:
            if job.at != nil { throw .usage("'--at' applies to --format svg", command: "render") }
            let form = job.args.choice("timeline", as: TimelineForm.self) ?? .tracks
            let scene = job.handOffScene()
            return { [job] write in
                TimelineRenderer.render(
                    scene: scene.take(), layout: job.layout, fps: job.fps, duration: job.duration, form: form,
                    celebration: job.svgCelebration, write: write)
                write([UInt8(ascii: "\n")])
            }
        case .svg:
            if job.durationGiven != nil {
                if job.at != nil {
                    throw .usage("give either '--at' (a still) or '--duration' (a loop)", command: "render")
                }
                let scene = job.handOffScene()
                return { [job] write in
                    SVGRenderer.renderLoop(
                        scene: scene.take(), layout: job.layout, font: job.font, fps: job.fps, duration: job.duration,
                        formatting: job.message.entities, celebration: job.svgCelebration, stage: job.svgStage,
                        write: write)
                }
            }
            // Advanced when written, once the job has let go of it: stepping the scene while
            // the job still held it would copy every particle.
            let scene = job.handOffScene()
            return { [job] write in
                var scene = scene.take()
                scene.advance(to: job.at ?? 0)
                var party = job.svgCelebration
                party?.advance(to: scene.time)
                SVGRenderer.renderStill(
                    scene: scene, layout: job.layout, font: job.font, formatting: job.message.entities,
                    celebration: party, stage: job.svgStage, write: write)
            }
        case .ansi, .cast:
            return try TerminalRender.renderer(job, cast: format == .cast)
        case .html:
            preconditionFailure("html is written by HTMLRender")
        }
    }

    /// Writes an output, in order, a piece at a time to its argument.
    typealias Producer = (_ write: ([UInt8]) -> Void) -> Void

    /// The message: the whole input, its final newline dropped.
    static func readMessage(_ args: Arguments) throws(CommandLineError) -> Message {
        let input = try InputSource(path: args.inputPath)
        let from = args.choice("from", as: InputFormat.self)!
        return try MessageBatch.wholeMessage(from: input, format: from, options: MessageReading.options(args))
    }

    static func makeJob(_ args: Arguments, message given: Message? = nil) throws(CommandLineError) -> Job {
        let from = args.choice("from", as: InputFormat.self)!
        if from == .export {
            throw .usage(
                "render takes one message; '--from export' holds many (use 'spoiler read --from export' to read it, "
                    + "or 'spoiler layout --from export' for each message's geometry)",
                command: "render")
        }
        let engine = try LayoutOptions.engine(from: args)
        let effect = try EffectChoice(args)
        let seed = effect.seed
        let fps = FrameRate(args.integer("fps")!)  // the option table keeps it in 1...240
        let durationGiven = args.given("duration") ? args.number("duration") : nil
        let at = args.number("at")
        let revealAt = args.number("reveal-at")
        let rehide = effect.rehideAfter
        let options = effect.options
        var origin: SpoilerPoint?
        if let o = args.text("reveal-origin") {
            let parts = o.split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite,
                abs(x) <= 1e6, abs(y) <= 1e6
            else {
                throw .usage("'--reveal-origin' needs X,Y in pixels (like 30,8), got '\(o)'", command: "render")
            }
            origin = SpoilerPoint(x: x, y: y)
        }
        if revealAt == nil && (origin != nil || rehide != nil) {
            throw .usage("'--reveal-origin' and '--rehide-after' need '--reveal-at'", command: "render")
        }
        let preset = effect.preset

        let message: Message
        if let given {
            message = given
        } else {
            message = try readMessage(args)
        }
        let inputName = args.inputPath ?? "<stdin>"
        // The limits of RenderLimits, checked before each large allocation: a lower bound
        // of the hidden graphemes before the layout, their count before the scene.
        // The terminal's still frame draws only what it shows and has no limit.
        let format = args.choice("format", as: RenderFormat.self)!
        let limited = !(format == .ansi && durationGiven == nil)
        if limited,
            let problem = RenderLimits.problem(message: message, density: options.density, format: format.rawValue)
        {
            throw .failure("\(inputName): \(problem)")
        }
        let layout = engine.layout(message)
        let frames: Int
        switch format {
        case .json: frames = Int((args.number("duration")! * Double(fps.framesPerSecond)).rounded())
        case .svg: frames = durationGiven.map { Int(($0 * Double(fps.framesPerSecond)).rounded()) } ?? 0
        default: frames = 0
        }
        if limited,
            let problem = RenderLimits.problem(
                layout: layout, frames: frames, density: options.density, reducedMotion: options.reducedMotion,
                format: format.rawValue)
        {
            throw .failure("\(inputName): \(problem)")
        }
        var scene = SpoilerScene(layout: layout, preset: preset, options: options, seed: seed)
        if let revealAt {
            scene.scheduleReveal(at: revealAt, origin: origin, rehideAfter: rehide)
        }
        let celebrates = args.flag("celebrate")
        return Job(
            args: args, message: message, layout: layout, font: engine.font, scene: scene, fps: fps,
            duration: args.number("duration")!, durationGiven: durationGiven, at: at,
            celebrationStart: celebrates ? scene.lastRevealTime : nil, stage: try stageSize(args),
            celebrates: celebrates, seed: seed, options: options)
    }

    /// `--stage WxH` in pixels, if given.
    static func stageSize(_ args: Arguments) throws(CommandLineError) -> SpoilerSize? {
        guard let s = args.text("stage") else { return nil }
        let parts = s.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...10000).contains(w),
            (1...10000).contains(h)
        else {
            throw .usage("'--stage' needs WxH in pixels, 1 to 10000 each (like 320x240), got '\(s)'", command: "render")
        }
        return SpoilerSize(width: Double(w), height: Double(h))
    }

    /// Writes what `produce` passes to its write function, piece by piece, to `path`,
    /// replacing it only once all is written (``FileOutput/replaceFile(atPath:writing:)``).
    static func writeFile(_ path: String, _ produce: (_ write: ([UInt8]) -> Void) -> Void) throws(CommandLineError) {
        do throws(TerminalError) {
            try FileOutput.replaceFile(atPath: path) { (write) throws(TerminalError) in
                // The first failure stops the writing; the rest of the pieces are dropped.
                var failure: TerminalError?
                withoutActuallyEscaping(write) { write in
                    produce { piece in
                        guard failure == nil else { return }
                        do throws(TerminalError) { try write(piece) } catch { failure = error }
                    }
                }
                if let failure { throw failure }
            }
        } catch {
            var reason = error.description
            if case .system(_, let code) = error { reason = String(cString: strerror(code)) }
            throw .failure("\(path): cannot write: \(reason)")
        }
    }
}

/// The formats of `spoiler render`.
enum RenderFormat: String, CaseIterable {
    /// The JSON timeline (DESIGN.md §5): compact tracks, or frames with `--timeline frames`.
    case json
    /// SVG: a still frame or an animated loop.
    case svg
    /// An interactive HTML page (or fragment).
    case html
    /// Terminal output: a still frame or the animation's frames.
    case ansi
    /// An asciicast v2 recording of the animation.
    case cast
}
