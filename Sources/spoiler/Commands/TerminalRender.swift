import Glibc
import SpoilerLayout
import SpoilerRender

/// `render --format ansi` and `--format cast`.
enum TerminalRender {
    static func render(_ job: RenderCommand.Job, cast: Bool) throws(CommandLineError) -> [UInt8] {
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
        if cast {
            if job.at != nil { throw .usage("'--at' applies to --format svg and ansi", command: "render") }
            let animation = ANSIAnimation.frames(
                layout: job.layout, scene: job.scene, options: options, fps: Double(job.fps), duration: job.duration)
            return animation.asciicast()
        }
        if job.durationGiven != nil {
            if job.at != nil {
                throw .usage("give either '--at' (a still) or '--duration' (frames)", command: "render")
            }
            return ANSIAnimation.frames(
                layout: job.layout, scene: job.scene, options: options, fps: Double(job.fps), duration: job.duration
            ).bytes
        }
        var scene = job.scene
        scene.advance(to: job.at ?? 0)
        options.fillHiddenCells = true
        var builder = ANSIFrameBuilder(layout: job.layout, options: options)
        var canvas = CellCanvas(width: builder.columns, height: builder.rows)
        builder.draw(scene, into: &canvas)
        var out: [UInt8] = []
        StillFrameWriter.write(canvas, capability: capability, into: &out)
        return out
    }
}

extension LayoutEngine.Model {
    /// `mono` when there is no font.
    static func from(font: BitmapFont?) -> LayoutEngine.Model {
        font.map { .font($0) } ?? .mono(cellWidth: 8, cellHeight: 16)
    }
}
