import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// `spoiler read`: the full-screen reader for a document or chat log (SPEC §6).
enum ReadCommand {
    static let help = """
        usage: spoiler read [--from F] [--theme T] [--color C] [--glyphs G] [--fps N]
                            [--preset P] [--seed N] [--density D] [--reveal-scope S]
                            [--rehide-after S] [--reduced-motion] [--no-mouse] [FILE|-]

        Shows a document or chat log full screen, wrapped to the window, in the colours of
        a film's computer terminal. Hidden parts twinkle as "invisible ink" dust until
        clicked. The bottom row shows how much has been read; after 3 seconds without
        input it shrinks to a small wheel at the lower right, and comes back on a key.

          ↑ ↓, j k        scroll a line
          space, PgDn     a page down (b, PgUp: up)
          Home, End       the top, the end (also G)
          the wheel       three lines
          g, click on ↑   glide back to the top ([↑] shows at the end of the text)
          click           reveal the hidden word under the pointer
          Tab, Enter      move between hidden words, reveal the highlighted one
          r / h           reveal every word / hide them all again
          q, Ctrl-C, Esc  quit

        When standard output is not a terminal (or TERM=dumb), prints the text once
        instead, hidden words masked by dots (never their text), with no escape sequences
        unless --color always. The terminal is restored however the program ends.

        options:
          --from F          input format: plain (default), markdownv2, html, markdown, botapi,
                            export (a Telegram Desktop result.json, as a chat log)
          --theme T         green (default: green on near-black), amber, mono (or none: the
                            terminal's own colours; also what NO_COLOR gives)
          --fps N           frames per second while something moves (default 30, 1 to 240)
        \(TerminalOptions.help)
          --preset P        dust (default, tinted by the theme), confetti or snow
          --seed N          random seed (default 1)
          --density D       particles per grapheme per second (default 20)
          --reveal-scope S  spoiler (default: every word of the clicked spoiler), word or
                            message: what one click reveals
          --rehide-after S  hide a revealed word again after S seconds
          --reduced-motion  a still dot pattern and no gliding (also REDUCED_MOTION=1)
          --no-mouse        do not ask the terminal for mouse clicks and the wheel
          --help            show this help

        With --from export, a Telegram Desktop export (result.json) reads as a chat log:
        each message under a line with its sender and date.

        examples:
          $ spoiler read --from markdown notes.md
          $ spoiler read --from export ~/Downloads/ChatExport/result.json

        exit status: 0 success, 1 the input failed, 2 usage error
        """

    static let spec = Arguments.Spec(
        command: "read",
        options: TerminalOptions.optionNames.union([
            "from", "theme", "fps", "preset", "seed", "density", "reveal-scope", "rehide-after",
        ]),
        flags: ["reduced-motion", "no-mouse"])

    static func run(_ argv: [String]) throws(CommandLineError) {
        let args = try Arguments(argv, spec: spec)
        let format = try args.choice("from", as: InputFormat.self) ?? .plain
        let themeName = args["theme"] ?? "green"
        guard let theme = ReaderTheme.builtIn[themeName] else {
            throw .usage(
                "unknown theme '\(themeName)' (expected one of: \(ReaderTheme.builtInNames.joined(separator: ", ")))",
                command: "read")
        }
        let fps = try args.number("fps", in: 1...240) ?? 30
        var effect = try EffectChoice(args)
        if effect.preset.name == "dust", let tint = theme.dust {
            for i in effect.preset.emitter.emitterCells.indices { effect.preset.emitter.emitterCells[i].color = tint }
        }
        let environment = TerminalOptions.environment()
        let isTerminal = isatty(1) == 1 && environment["TERM"] != "dumb"
        let (capability, glyphs) = try TerminalOptions.resolve(args, outputIsTerminal: isTerminal)

        let message = try InputSource.reading(args.inputPath) { input throws(CommandLineError) in
            try format == .export ? chatLog(input) : MessageBatch.wholeMessage(from: input, format: format)
        }
        let engine = LayoutEngine(model: .mono(cellWidth: 8, cellHeight: 16))

        guard isTerminal else {
            StillFrame.write(
                message, engine: engine, effect: effect, capability: capability, glyphs: glyphs,
                environment: environment)
            return
        }

        let reader = ReaderOptions(theme: theme)
        var frame = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        frame.textStyle = theme.textStyle(capability)
        frame.formatting = message.entities
        var options = PlayerOptions(frame: frame)
        options.framesPerSecond = fps
        options.mouse = !args.has("no-mouse")
        options.rehideAfter = effect.rehideAfter
        options.showsHelp = false
        options.reader = reader
        try LivePlayer.run(
            options: options,
            layout: { size in
                var e = engine
                e.wrapWidth = reader.textWidth(columns: size.columns)
                return e.layout(message)
            },
            scene: { [effect] layout in effect.scene(for: layout) })
    }

    /// A Telegram Desktop export, streamed, as a chat log (``ChatLog``).
    ///
    /// - Throws: a failure naming the input for a JSON syntax error (with its line,
    ///   column and byte offset); a message that cannot be read only gets a note in the log.
    static func chatLog(_ input: InputSource) throws(CommandLineError) -> Message {
        let reader = ExportReader()
        var log = ChatLog()
        var items: [ExportItem] = []
        var chunk: [UInt8] = []
        while true {
            chunk.removeAll(keepingCapacity: true)
            let end = try input.read(into: &chunk) == 0
            do {
                if end {
                    try reader.finish(into: &items)
                } else {
                    try reader.feed(chunk, into: &items)
                }
            } catch {
                throw .failure(error.located(in: input.name))
            }
            for item in items { log.append(item) }
            items.removeAll(keepingCapacity: true)
            if end { return log.message }
        }
    }
}
