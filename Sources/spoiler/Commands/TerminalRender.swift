import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender

/// `render --format ansi` and `--format cast`.
enum TerminalRender {
    static func render(_ job: RenderCommand.Job, cast: Bool) throws(CommandLineError) -> [UInt8] {
        let produce = try renderer(job, cast: cast)
        var out: [UInt8] = []
        produce { out += $0 }
        return out
    }

    /// The output of `job` as terminal frames or a recording, written a piece at a time
    /// (``RenderCommand/Producer``); the options are checked here, before anything is written.
    static func renderer(_ job: RenderCommand.Job, cast: Bool) throws(CommandLineError) -> RenderCommand.Producer {
        var job = job
        guard case .mono = LayoutEngine.Model.from(font: job.font) else {
            throw .usage("--format \(cast ? "cast" : "ansi") draws terminal cells: use --font mono", command: "render")
        }
        let choice = job.args.choice("color", as: ColorPreference.self)!
        let glyphs = job.args.choice("glyphs", as: GlyphSet.self)!
        let environment = TerminalOptions.environment()
        let capability: ColorCapability
        if cast {
            let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
            switch choice {
            case .never: capability = .none
            case .always: capability = .trueColor
            case .auto: capability = noColor ? .none : .palette256
            }
        } else {
            // Under --color auto, colour only when the frames go straight to a terminal.
            let toTerminal = !job.args.given("output") && isatty(1) == 1
            capability = TerminalOptions.capability(choice, environment: environment, isTerminal: toTerminal)
        }
        var options = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        options.formatting = job.message.entities
        // The screen in cells: the layout's, or the stage's (rounded up to whole cells).
        let cellWidth = Double(max(1, job.layout.metrics.cellWidth))
        let cellHeight = Double(max(1, job.layout.metrics.lineHeight))
        let stage =
            job.stage
            ?? (job.celebrates
                ? SpoilerSize(
                    width: Double(job.layout.width),
                    height: max(Double(job.layout.height), Double(Celebration.defaultStageHeight))) : nil)
        let columns = stage.map { Int(($0.width / cellWidth).rounded(.up)) }
        let rows = stage.map { Int(($0.height / cellHeight).rounded(.up)) }
        let party = job.celebration(
            over: SpoilerRect(
                x: 0, y: 0, width: Double(columns ?? 0) * cellWidth, height: Double(rows ?? 0) * cellHeight))
        // The layout's cells (the dot raster) and the screen's (the canvases), before either
        // is made.
        let (layoutColumns, layoutRows) = (job.layout.cellColumns, job.layout.cellRows)
        let overLimit = [(layoutColumns, layoutRows), (columns ?? layoutColumns, rows ?? layoutRows)].lazy.compactMap {
            RenderLimits.problem(columns: $0.0, rows: $0.1, format: cast ? "cast" : "ansi")
        }.first
        let isPlainStill =
            !cast && job.durationGiven == nil && !job.args.given("reveal-at") && party == nil && stage == nil
        if let overLimit {
            // A still frame of the text alone is drawn in bands of rows, whatever its size.
            guard isPlainStill else { throw .failure("\(job.args.inputPath ?? "<stdin>"): \(overLimit)") }
            options.fillHiddenCells = true
            // Each band makes a scene of its own words; the whole message's is let go.
            _ = job.handOffScene()
            let makeScene = stillScenes(preset: job.scene.preset, options: job.options, seed: job.seed, at: job.at ?? 0)
            return { [options, job] write in
                var out: [UInt8] = []
                StillFrameWriter.writeMessage(layout: job.layout, options: options, scene: makeScene, into: &out)
                write(out)
            }
        }
        if cast {
            if job.at != nil { throw .usage("'--at' applies to --format svg and ansi", command: "render") }
            let scene = job.handOffScene()
            return { [options, job] write in
                ANSIAnimation.writeAsciicast(
                    layout: job.layout, scene: scene.take(), options: options, fps: job.fps, duration: job.duration,
                    celebration: party, stageColumns: columns, stageRows: rows, write: write)
            }
        }
        if job.durationGiven != nil {
            if job.at != nil {
                throw .usage("give either '--at' (a still) or '--duration' (frames)", command: "render")
            }
            let scene = job.handOffScene()
            return { [options, job] write in
                ANSIAnimation.writeFrames(
                    layout: job.layout, scene: scene.take(), options: options, fps: job.fps, duration: job.duration,
                    celebration: party, stageColumns: columns, stageRows: rows, write: write)
            }
        }
        options.fillHiddenCells = true
        // Drawn when written, once the job has let go of the scene (``Job/handOffScene()``).
        let scene = job.handOffScene()
        return { [options, job] write in
            var scene = scene.take()
            scene.advance(to: job.at ?? 0)
            var builder = ANSIFrameBuilder(layout: job.layout, options: options)
            var canvas = CellCanvas(width: columns ?? builder.columns, height: rows ?? builder.rows)
            builder.draw(scene, into: &canvas)
            if var party {
                party.advance(to: scene.time)
                canvas.drawCelebration(
                    party, cellWidth: cellWidth, cellHeight: cellHeight, capability: capability, glyphs: glyphs)
            }
            var out: [UInt8] = []
            StillFrameWriter.write(canvas, capability: capability, into: &out)
            write(out)
        }
    }
}

extension TerminalRender {
    /// Whether `render --format ansi` with these options may be a still frame drawn a
    /// piece at a time: no animation, reveal, confetti or stage, and standard output.
    static func mayStream(_ args: Arguments) -> Bool {
        !args.given("duration") && !args.given("reveal-at") && !args.flag("celebrate") && !args.given("stage")
            && !args.given("output") && args.choice("from", as: InputFormat.self) != .export
    }

    /// Writes the still frame of a long message a piece at a time
    /// (``StillFrameWriter/writeMessage(_:engine:options:scene:write:)``); false, writing
    /// nothing, when the message is short or laid out with a font (the whole frame is drawn then).
    static func stream(_ message: Message, args: Arguments) throws(CommandLineError) -> Bool {
        let engine = try LayoutOptions.engine(from: args)
        guard case .mono = engine.model, message.text.utf8.count > StillFrameWriter.pieceBytes
        else { return false }
        let effect = try EffectChoice(args)
        let at = args.number("at") ?? 0
        let choice = args.choice("color", as: ColorPreference.self)!
        let glyphs = args.choice("glyphs", as: GlyphSet.self)!
        let capability = TerminalOptions.capability(
            choice, environment: TerminalOptions.environment(), isTerminal: isatty(1) == 1)
        StillFrameWriter.writeMessage(
            message, engine: engine, options: ANSIFrameOptions(capability: capability, glyphs: glyphs),
            scene: stillScenes(preset: effect.preset, options: effect.options, seed: effect.seed, at: at),
            write: { StandardStreams.write($0) })
        StandardStreams.flush()
        return true
    }

    /// Makes the scene of each piece or band of a still frame drawn a part at a time: the
    /// part's own words, advanced to the still's time `at`.
    static func stillScenes(
        preset: Preset, options: SceneOptions, seed: UInt64, at: Double
    ) -> (TextLayout) -> SpoilerScene {
        { layout in
            var scene = SpoilerScene(layout: layout, preset: preset, options: options, seed: seed)
            scene.advance(to: at)
            return scene
        }
    }
}

extension LayoutEngine.Model {
    /// `mono` when there is no font.
    static func from(font: BitmapFont?) -> LayoutEngine.Model {
        font.map { .font($0) } ?? .mono(cellWidth: 8, cellHeight: 16)
    }
}
