import SpoilerCore
import SpoilerLayout
import SpoilerParser

/// `spoiler layout`: per-word spoiler geometry as JSON (SPEC §3, §7).
enum LayoutCommand {
    static let help = """
        usage: spoiler layout [--from F] [--font mono|PATH] [--width N] [--cell WxH] [--redact] [--ndjson [--jobs N]] [FILE|-]

        Lays out a chat message and prints its geometry as JSON: the metrics, the lines, and
        one rectangle per hidden word (one per line fragment when a word wraps). Pixels,
        origin at the top-left, y downward; offsets and lengths in UTF-16 code units.

        options:
          --from F    input format: plain (default), markdownv2, html, markdown, botapi, export
        \(LayoutOptions.help)
          --redact    leave out every word's text (the output then holds no hidden text)
          --ndjson    one message a line; each output line carries the id, or the line number
        \(Jobs.help)
          --help      show this help

        example:
          $ echo 'hi ||there||' | spoiler layout
          {"metrics":{"model":"mono","font":null,"cellWidth":8,"cellHeight":16,"ascent":12,"descent":4,"lineHeight":16,"fallbacks":0},"width":64,"height":16,"columns":8,"rows":1,"lines":[{"index":0,"y":0,"height":16,"width":64,"offset":0,"length":8}],"words":[{"entity":0,"word":0,"line":0,"x":24,"y":0,"width":40,"height":16,"column":3,"columns":5,"offset":3,"length":5,"graphemes":5,"text":"there"}]}

        exit status: 0 success, 1 a message failed, 2 usage error
        """

    static let spec = Arguments.Spec(
        command: "layout", options: LayoutOptions.optionNames.union(["from", "jobs"]), flags: ["ndjson", "redact"])

    static func run(_ argv: [String]) throws(CommandLineError) {
        let args = try Arguments(argv, spec: spec)
        let format = try args.choice("from", as: InputFormat.self) ?? .plain
        let engine = try LayoutOptions.engine(from: args)
        let redact = args.has("redact")
        let batch = MessageBatch(
            input: try InputSource(path: args.inputPath), format: format, ndjson: args.has("ndjson"),
            jobs: try Jobs.count(from: args))
        try batch.run { message, id in
            engine.layout(message, includeGraphemes: false).jsonBytes(id: id, redact: redact)
        }
    }
}
