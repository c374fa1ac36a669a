import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// `spoiler read`: the full-screen reader for a document or chat log (DESIGN.md §6).
enum ReadCommand {
    static let spec = CommandSpec(
        name: "read",
        options: [
            "from", "spoiler-reasons", "theme", "color", "glyphs", "fps", "preset", "seed", "density", "reveal-scope",
            "rehide-after",
            "celebrate", "reduced-motion", "no-mouse",
        ],
        about: """
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
            """,
        notes: """
            With --from export, a Telegram Desktop export (result.json) reads as a chat log:
            each message under a line with its sender and date. The dust preset is tinted by
            the theme.

            examples:
              $ spoiler read --from markdown notes.md
              $ spoiler read --from export ~/Downloads/ChatExport/result.json

            exit status: 0 success, 1 the input failed, 2 usage error
            """)

    static func run(_ args: Arguments) throws(CommandLineError) {
        let format = args.choice("from", as: InputFormat.self)!
        let theme = ReaderTheme.builtIn[args.text("theme")!]!
        let fps = FrameRate(args.integer("fps")!)  // the option table keeps it in 1...240
        var effect = try EffectChoice(args)
        if effect.preset.name == "dust", let tint = theme.dust {
            for i in effect.preset.emitter.emitterCells.indices { effect.preset.emitter.emitterCells[i].color = tint }
        }
        let environment = TerminalOptions.environment()
        let isTerminal = isatty(1) == 1 && environment["TERM"] != "dumb"
        let (capability, glyphs) = TerminalOptions.resolve(args, outputIsTerminal: isTerminal)

        if let document = try document(
            path: args.inputPath, format: format, options: MessageReading.options(args), environment: environment)
        {
            guard isTerminal else {
                if let whole = document as? MessageDocument {
                    // One message: printed whole, its long lines uncut.
                    StillFrame.write(
                        whole.message, engine: LayoutEngine(model: .mono(cellWidth: 8, cellHeight: 16)),
                        effect: effect, capability: capability, glyphs: glyphs, environment: environment)
                } else {
                    writeStill(
                        document, effect: effect, capability: capability, glyphs: glyphs, environment: environment)
                }
                return
            }
            // The end is found while the first screens are read, so that End is at once.
            (document as? ChunkedDocument)?.indexInBackground()
            let reader = ReaderOptions(theme: theme)
            var frame = ANSIFrameOptions(capability: capability, glyphs: glyphs)
            frame.textStyle = theme.textStyle(capability)
            var options = PlayerOptions(frame: frame)
            options.frameRate = fps
            options.mouse = !args.flag("no-mouse")
            options.rehideAfter = effect.rehideAfter
            if args.flag("celebrate") { options.celebration = .confetti }
            options.showsHelp = false
            options.reader = reader
            let engine = LayoutEngine(model: .mono(cellWidth: 8, cellHeight: 16))
            try LivePlayer.run(options: options) { size, viewOptions in
                SpoilerTerminalView(
                    document: document, size: size, options: viewOptions,
                    layout: { size, message in
                        var e = engine
                        e.wrapWidth = reader.textWidth(columns: size.columns)
                        return e.layout(message)
                    }, scene: { [effect] layout in effect.scene(for: layout) })
            }
            return
        }

        let message = try InputSource.reading(args.inputPath) { input throws(CommandLineError) in
            try format == .export
                ? chatLog(input)
                : MessageBatch.wholeMessage(from: input, format: format, options: MessageReading.options(args))
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
        options.frameRate = fps
        options.mouse = !args.flag("no-mouse")
        options.rehideAfter = effect.rehideAfter
        if args.flag("celebrate") { options.celebration = .confetti }
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
