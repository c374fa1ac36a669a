import Glibc
import SpoilerLayout
import SpoilerRender

/// The terminal output options of `play` and `render --format ansi|cast`: `--color`
/// and `--glyphs`, and how the colour capability follows from them and the environment.
enum TerminalOptions {
    /// `--color`: when to use colour.
    enum ColorChoice: String, CaseIterable {
        case auto, always, never
    }

    static let optionNames: Set<String> = ["color", "glyphs"]

    static let help = """
          --color C   auto (default: colour on a terminal, none when NO_COLOR is set or
                      TERM=dumb), always (also into pipes and files), never
          --glyphs G  particles as braille (default, 2x4 dots a cell), blocks (half
                      blocks) or ascii
        """

    /// The colour capability from `--color`, the environment and whether the output is a
    /// terminal (``ColorCapability/init(preference:environment:isTerminal:)``).
    static func capability(_ choice: ColorChoice, environment: [String: String], isTerminal: Bool) -> ColorCapability {
        ColorCapability(
            preference: ColorPreference(rawValue: choice.rawValue) ?? .auto, environment: environment,
            isTerminal: isTerminal)
    }

    /// The environment variables the options look at, read here at the edge.
    static func environment() -> [String: String] {
        var env: [String: String] = [:]
        for key in ["TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "REDUCED_MOTION"] {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        return env
    }

    /// The capability and glyphs the arguments ask for, for output to `fd`.
    static func resolve(_ args: Arguments, outputIsTerminal: Bool) throws(CommandLineError) -> (
        ColorCapability, GlyphSet
    ) {
        let choice = try args.choice("color", as: ColorChoice.self) ?? .auto
        let glyphs = try args.choice("glyphs", as: GlyphSet.self) ?? .braille
        return (capability(choice, environment: environment(), isTerminal: outputIsTerminal), glyphs)
    }
}

/// `render --format ansi` and `--format cast`.
enum TerminalRender {
    static func render(_ job: RenderCommand.Job, cast: Bool) throws(CommandLineError) -> [UInt8] {
        guard case .mono = LayoutEngine.Model.from(font: job.font) else {
            throw .usage("--format \(cast ? "cast" : "ansi") draws terminal cells: use --font mono", command: "render")
        }
        let choice = try job.args.choice("color", as: TerminalOptions.ColorChoice.self) ?? .auto
        let glyphs = try job.args.choice("glyphs", as: GlyphSet.self) ?? .braille
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
            capability = TerminalOptions.capability(choice, environment: environment, isTerminal: true)
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
