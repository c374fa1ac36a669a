import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// `spoiler play`: the live terminal animation (DESIGN.md §5).
enum PlayCommand {
    static let spec = CommandSpec(
        name: "play",
        options: [
            "from", "spoiler-reasons", "font", "width", "cell", "fps", "color", "glyphs", "preset", "seed", "density",
            "reveal-scope",
            "rehide-after", "celebrate", "reduced-motion", "no-mouse",
        ],
        about: """
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
            """,
        notes: """
            play draws in terminal cells, so it takes --font mono only; --width defaults to the
            terminal's columns.

            example:
              $ echo 'the butler ||did it|| in the library' | spoiler play

            exit status: 0 success, 1 a message failed, 2 usage error
            """)

    /// Messages longer than this (in UTF-8 bytes) are shown a chunk at a time
    /// (``MessageDocument``), so that memory stays within a few screens' layout.
    static let chunkedBytes = 1 << 20

    static func run(_ args: Arguments) throws(CommandLineError) {
        let format = args.choice("from", as: InputFormat.self)!
        if format == .export {
            throw .usage(
                "play shows one message; '--from export' holds many (use 'spoiler read --from export')",
                command: "play")
        }
        let fps = FrameRate(args.integer("fps")!)  // the option table keeps it in 1...240
        let engine = try LayoutOptions.engine(from: args)
        guard case .mono = engine.model else {
            throw .usage("play draws in terminal cells: use --font mono", command: "play")
        }
        let effect = try EffectChoice(args)
        let environment = TerminalOptions.environment()
        // A dumb terminal cannot move its cursor: it gets the still frame, like a pipe.
        let isTerminal = isatty(1) == 1 && environment["TERM"] != "dumb"
        let (capability, glyphs) = TerminalOptions.resolve(args, outputIsTerminal: isTerminal)

        let message = try InputSource.reading(args.inputPath) { input throws(CommandLineError) in
            try MessageBatch.wholeMessage(from: input, format: format, options: MessageReading.options(args))
        }

        guard isTerminal else {
            StillFrame.write(
                message, engine: engine, effect: effect, capability: capability, glyphs: glyphs,
                environment: environment)
            return
        }

        let userWidth = engine.wrapWidth
        // SPOILER_PLAY_CHUNKED: the length past which a message is kept a chunk at a time
        // (tests set it low).
        let chunked = environment["SPOILER_PLAY_CHUNKED"].flatMap { Int($0) } ?? chunkedBytes
        let isChunked = message.text.utf8.count > chunked
        var frame = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        if !isChunked { frame.formatting = message.entities }
        var options = PlayerOptions(frame: frame)
        options.frameRate = fps
        options.mouse = !args.flag("no-mouse")
        options.rehideAfter = effect.rehideAfter
        if args.flag("celebrate") { options.celebration = .confetti }
        if isChunked {
            // A message of megabytes is laid out, animated and kept only near the screen.
            let document = MessageDocument(message)
            try LivePlayer.run(options: options) { size, viewOptions in
                SpoilerTerminalView(
                    document: document, size: size, options: viewOptions,
                    layout: { size, chunk in
                        var e = engine
                        e.wrapWidth = userWidth ?? max(1, size.columns)
                        return e.layout(chunk)
                    }, scene: { layout in effect.scene(for: layout) })
            }
            return
        }
        if message.text.utf8.count > SpoilerTerminalView.firstPrefixBytes {
            // A long message is laid out from its beginning as far as the screen goes, so
            // the first frame comes at once.
            // SPOILER_BACKGROUND_LAYOUT_BYTES: where the player starts laying out off its
            // loop (tests set it low to see that path on a short message).
            let background = TerminalOptions.environment()["SPOILER_BACKGROUND_LAYOUT_BYTES"].flatMap { Int($0) }
            try LivePlayer.run(options: options) { size, viewOptions in
                var view = SpoilerTerminalView(
                    size: size, options: viewOptions,
                    prefixLayout: { size, bytes in
                        var e = engine
                        e.wrapWidth = userWidth ?? max(1, size.columns)
                        let head = message.prefix(cuttingNear: bytes)
                        return (e.layout(head.message), head.isWhole)
                    }, scene: { layout in effect.scene(for: layout) })
                if let background, background > 0 { view.backgroundPrefixBytes = background }
                return view
            }
            return
        }
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
