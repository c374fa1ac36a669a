import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// `spoiler render`: one message's spoiler effect as a JSON timeline or SVG (SPEC §4, §5, §7).
///
/// A new output format is one case of ``RenderFormat`` and one case in
/// ``RenderCommand/render(_:format:)``.
enum RenderCommand {
    static let help = """
        usage: spoiler render --format json|svg|html|ansi|cast [--from F] [layout options] [--preset P] [--seed N]
                              [--fps N] [--duration S] [--at S] [--reveal-at S] [--reveal-origin X,Y]
                              [--reveal-scope spoiler|word|message] [--rehide-after S] [--density D]
                              [--reduced-motion] [--redact] [--embed] [-o FILE] [FILE|-]

        Renders a chat message's spoilers as Telegram's "invisible ink": every hidden word is a
        cloud of particles from its own emitter, revealed by a circular wave from a click.

        formats:
          json        a frame timeline: per frame the reveal radius of each word and the
                      particles as columnar arrays (see the README for the keys)
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

        options:
          --format F        json, svg, ansi or cast (required)
          --from F          input format: plain (default), markdownv2, html, markdown, botapi
        \(LayoutOptions.help)
          --preset P        dust (default), confetti, snow, or the path of a JSON preset with
                            CAEmitterLayer/CAEmitterCell field names
          --seed N          random seed (default 1); the same seed gives the same bytes
          --fps N           frames per second, 1 to 240 (default 30)
          --duration S      seconds of timeline or of the SVG loop (default 2)
          --at S            the time of an SVG still frame (default 0)
          --reveal-at S     reveal at S seconds: the word under --reveal-origin, or every word
                            from its own centre when no origin is given
          --reveal-origin X,Y  the click, in pixels from the top-left (default: the word's centre)
          --reveal-scope W  spoiler (default: every word of the clicked spoiler), word (one
                            word at a time) or message (all words at once)
          --rehide-after S  hide again S seconds after the reveal (over 0.4 s)
          --density D       particles per grapheme per second, 0 to 1000 (default 20)
          --reduced-motion  a still pattern of dots with a fixed seed, and instant reveals
                            (also when REDUCED_MOTION=1)
        \(TerminalOptions.help)
                            (ansi: colours as for a terminal, from COLORTERM and TERM;
                            cast: 256 colours by default, 24-bit with --color always)
          --redact          html: leave hidden text out of the file (its spoilers cannot be revealed)
          --embed           html: write a fragment (style, element, script), not a whole page
          -o FILE           write to FILE instead of standard output
          --help            show this help

        example:
          $ echo 'the butler ||did it||' | spoiler render --format svg --duration 2 --reveal-at 1 -o ink.svg

        exit status: 0 success, 1 the message or a file failed, 2 usage error
        """

    static let spec = Arguments.Spec(
        command: "render",
        options: LayoutOptions.optionNames.union([
            "format", "from", "preset", "seed", "fps", "duration", "at", "reveal-at", "reveal-origin", "reveal-scope",
            "rehide-after", "density", "output",
        ]).union(TerminalOptions.optionNames),
        flags: ["reduced-motion", "redact", "embed"], aliases: ["o": "output"])

    /// Everything a format needs: the message laid out, its scene at time 0 with the
    /// reveals scheduled, and the timing options.
    struct Job {
        var args: Arguments
        var message: Message
        var layout: TextLayout
        var font: BitmapFont?
        var scene: SpoilerScene
        var fps: Int
        var duration: Double
        /// `--duration` as given (nil when left out).
        var durationGiven: Double?
        var at: Double?
    }

    static func run(_ argv: [String]) throws(CommandLineError) {
        let args = try Arguments(argv, spec: spec)
        guard let format = try args.choice("format", as: RenderFormat.self) else {
            throw .usage(
                "'--format' is required (\(RenderFormat.allCases.map(\.rawValue).joined(separator: ", ")))",
                command: "render")
        }
        let out = try format == .html ? HTMLRender.render(args) : render(makeJob(args), format: format)
        if let path = args["output"] {
            try writeFile(path, out)
        } else {
            StandardStreams.write(out)
            StandardStreams.flush()
        }
    }

    /// Writes the job in `format`.
    static func render(_ job: Job, format: RenderFormat) throws(CommandLineError) -> [UInt8] {
        var job = job
        var out: [UInt8] = []
        switch format {
        case .json:
            if job.at != nil { throw .usage("'--at' applies to --format svg", command: "render") }
            TimelineRenderer.render(
                scene: &job.scene, layout: job.layout, fps: job.fps, duration: job.duration, into: &out)
            out.append(UInt8(ascii: "\n"))
        case .svg:
            if job.durationGiven != nil {
                if job.at != nil {
                    throw .usage("give either '--at' (a still) or '--duration' (a loop)", command: "render")
                }
                SVGRenderer.renderLoop(
                    scene: &job.scene, layout: job.layout, font: job.font, fps: job.fps, duration: job.duration,
                    formatting: job.message.entities, into: &out)
            } else {
                job.scene.advance(to: job.at ?? 0)
                SVGRenderer.renderStill(
                    scene: job.scene, layout: job.layout, font: job.font, formatting: job.message.entities, into: &out)
            }
        case .ansi, .cast:
            out = try TerminalRender.render(job, cast: format == .cast)
        case .html:
            preconditionFailure("html is written by HTMLRender")
        }
        return out
    }

    static func makeJob(_ args: Arguments) throws(CommandLineError) -> Job {
        let from = try args.choice("from", as: InputFormat.self) ?? .plain
        if from == .export {
            throw .usage(
                "render takes one message; '--from export' holds many (use 'spoiler layout --ndjson')",
                command: "render")
        }
        let engine = try LayoutOptions.engine(from: args)
        let seed = try args.integer("seed", in: 0...Int.max).map(UInt64.init) ?? 1
        let fps = try args.integer("fps", in: 1...240) ?? 30
        let durationGiven = try args.number("duration", in: 0...600)
        let at = try args.number("at", in: 0...3600)
        let revealAt = try args.number("reveal-at", in: 0...3600)
        let rehide = try args.number("rehide-after", in: 0...3600)
        var options = SceneOptions()
        options.density = try args.number("density", in: 0...1000) ?? 20
        options.revealScope = try args.choice("reveal-scope", as: RevealScope.self) ?? .spoiler
        options.reducedMotion = args.has("reduced-motion") || environment("REDUCED_MOTION") == "1"
        var origin: SpoilerPoint?
        if let o = args["reveal-origin"] {
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
        let preset = try loadPreset(args["preset"] ?? "dust")

        // The message: the whole input, its final newline dropped.
        let input = try InputSource(path: args.inputPath)
        let message = try MessageBatch.wholeMessage(from: input, format: from)
        let layout = engine.layout(message)
        var scene = SpoilerScene(layout: layout, preset: preset, options: options, seed: seed)
        if let revealAt {
            scene.scheduleReveal(at: revealAt, origin: origin, rehideAfter: rehide)
        }
        return Job(
            args: args, message: message, layout: layout, font: engine.font, scene: scene, fps: fps,
            duration: durationGiven ?? 2, durationGiven: durationGiven, at: at)
    }

    /// A built-in preset by name, else a JSON preset file.
    static func loadPreset(_ name: String) throws(CommandLineError) -> Preset {
        if let p = Preset.builtIn[name] { return p }
        let bytes: [UInt8]
        do {
            bytes = try InputSource(path: name).readAll()
        } catch {
            throw .failure("\(error.description) (built-in presets: \(Preset.builtInNames.joined(separator: ", ")))")
        }
        do {
            return try Preset.parse(json: bytes)
        } catch {
            throw .failure("\(name): \(error.description)")
        }
    }

    static func environment(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        return String(cString: v)
    }

    /// Writes `bytes` to `path`, replacing it whole or not at all (a temporary file beside
    /// it, renamed over it).
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(CommandLineError) {
        do {
            try FileOutput.replaceFile(atPath: path, with: bytes)
        } catch {
            var reason = error.description
            if case .system(_, let code) = error { reason = String(cString: strerror(code)) }
            throw .failure("cannot write '\(path)': \(reason)")
        }
    }
}

/// The formats of `spoiler render`.
enum RenderFormat: String, CaseIterable {
    /// The JSON frame timeline (SPEC §5).
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
