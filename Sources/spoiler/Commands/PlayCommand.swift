import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// `spoiler play`: the live terminal animation (SPEC §5).
enum PlayCommand {
    static let help = """
        usage: spoiler play [--from F] [layout options] [--fps N] [--color C] [--glyphs G]
                            [--preset P] [--seed N] [--density D] [--reveal-scope S]
                            [--rehide-after S] [--reduced-motion] [--no-mouse] [FILE|-]

        Animates a chat message's spoilers as "invisible ink" dust in the terminal: the
        alternate screen, the text, and a cloud of twinkling dots over every hidden word.

          click          reveal the word under the pointer, with a wave from the click
          Tab, Shift-Tab move between hidden words (also the arrow keys)
          Enter          reveal the highlighted word
          r / h          reveal every word / hide them all again
          PgUp, PgDn     scroll a message taller than the window (also Home, End, the wheel)
          q, Ctrl-C      quit (Escape too, when no word is highlighted)
          Ctrl-Z         stop, with the terminal restored until 'fg'

        When standard output is not a terminal (or TERM=dumb), prints one still frame
        instead, hidden words masked by dots (never their text), with no escape sequences
        unless --color always. The terminal is restored however the program ends (q, an
        error, SIGINT, SIGTERM, SIGHUP).

        options:
          --from F          input format: plain (default), markdownv2, html, markdown, botapi
        \(LayoutOptions.help)
                            (play uses --font mono; --width defaults to the terminal's columns)
          --fps N           frames per second (default 30, 1 to 240)
        \(TerminalOptions.help)
          --preset P        dust (default), confetti or snow
          --seed N          random seed (default 1)
          --density D       particles per grapheme per second (default 20)
          --reveal-scope S  spoiler (default: every word of the clicked spoiler), word or
                            message: what one click reveals
          --rehide-after S  hide a revealed word again after S seconds
          --reduced-motion  a still dot pattern, no animation (also REDUCED_MOTION=1)
          --no-mouse        do not ask the terminal for mouse clicks
          --help            show this help

        example:
          $ echo 'the butler ||did it|| in the library' | spoiler play

        exit status: 0 success, 1 a message failed, 2 usage error
        """

    static let spec = Arguments.Spec(
        command: "play",
        options: LayoutOptions.optionNames.union(TerminalOptions.optionNames).union([
            "from", "fps", "preset", "seed", "density", "reveal-scope", "rehide-after",
        ]),
        flags: ["reduced-motion", "no-mouse"])

    static func run(_ argv: [String]) throws(CommandLineError) {
        let args = try Arguments(argv, spec: spec)
        let format = try args.choice("from", as: InputFormat.self) ?? .plain
        if format == .export {
            throw .usage("play shows one message; --from export holds many (try 'spoiler render')", command: "play")
        }
        let fps = try args.number("fps", in: 1...240) ?? 30
        let engine = try LayoutOptions.engine(from: args)
        guard case .mono = engine.model else {
            throw .usage("play draws in terminal cells: use --font mono", command: "play")
        }
        let effect = try EffectChoice(args)
        let environment = TerminalOptions.environment()
        // A dumb terminal cannot move its cursor: it gets the still frame, like a pipe.
        let isTerminal = isatty(1) == 1 && environment["TERM"] != "dumb"
        let (capability, glyphs) = try TerminalOptions.resolve(args, outputIsTerminal: isTerminal)

        let message = try InputSource.reading(args.inputPath) { input throws(CommandLineError) in
            try MessageBatch.wholeMessage(from: input, format: format)
        }

        guard isTerminal else {
            StillFrame.write(
                message, engine: engine, effect: effect, capability: capability, glyphs: glyphs,
                environment: environment)
            return
        }

        let userWidth = engine.wrapWidth
        var frame = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        frame.formatting = message.entities
        var options = PlayerOptions(frame: frame)
        options.framesPerSecond = fps
        options.mouse = !args.has("no-mouse")
        options.rehideAfter = effect.rehideAfter
        try LivePlayer.run(
            options: options,
            layout: { size in
                var e = engine
                e.wrapWidth = userWidth ?? max(1, size.columns)
                return e.layout(message)
            },
            scene: { layout in effect.scene(for: layout) })
    }
}

/// The effect options shared by `play` and the ANSI renderers: `--preset`, `--seed`,
/// `--density`, `--reveal-scope`, `--rehide-after`, `--reduced-motion`.
struct EffectChoice {
    var preset: Preset
    var seed: UInt64
    var options: SceneOptions
    var rehideAfter: Double?

    init(_ args: Arguments) throws(CommandLineError) {
        let name = args["preset"] ?? "dust"
        guard let p = Preset.builtIn[name] else {
            throw .usage(
                "unknown preset '\(name)' (expected one of: \(Preset.builtInNames.joined(separator: ", ")))",
                command: args.command)
        }
        preset = p
        seed = UInt64(try args.integer("seed", in: 0...Int.max) ?? 1)
        options = SceneOptions()
        options.density = try args.number("density", in: 0...10_000) ?? 20
        options.revealScope = try args.choice("reveal-scope", as: RevealScope.self) ?? .spoiler
        options.reducedMotion = args.has("reduced-motion") || TerminalOptions.environment()["REDUCED_MOTION"] == "1"
        rehideAfter = try args.number("rehide-after", in: 0.05...86_400)
    }

    /// The scene for a layout.
    func scene(for layout: TextLayout) -> SpoilerScene {
        SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: preset, options: options, seed: seed)
    }
}
