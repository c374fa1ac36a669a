import SpoilerCore
import SpoilerParser

/// `spoiler parse [--from F] [--ndjson [--jobs N]] [FILE|-]`: the Message as JSON.
enum ParseCommand {
    static let help = """
        usage: spoiler parse [--from F] [--ndjson [--jobs N]] [FILE|-]

        Parses a chat message and prints it as Telegram Bot API JSON: the text without
        markup, and its entities with offsets and lengths in UTF-16 code units.

        options:
          --from F    input format: plain (default), markdownv2, html, markdown, botapi, export
          --ndjson    one message a line (a JSON string, or an object with text, id, entities);
                      each output line carries the id, or the line number; a bad line gives
                      an error record {"id":…,"line":…,"error":…} in its place
        \(Jobs.help)
          --help      show this help

        Without --ndjson the whole input is one message (its final newline left out).
        plain: ||spoiler||, `code`, and \\| \\\\ \\` for literal characters.
        export: a Telegram Desktop result.json, streamed, one line per message with its id.
        Long runs show progress on stderr when it is a terminal (SPOILER_PROGRESS=0|1).

        examples:
          $ echo 'hi ||there||' | spoiler parse
          {"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}
          $ printf '"a ||b||"\\n{"id":7,"text":"c"}\\n' | spoiler parse --ndjson
          {"id":1,"text":"a b","entities":[{"type":"spoiler","offset":2,"length":1}]}
          {"id":7,"text":"c","entities":[]}

        exit status: 0 success, 1 a message failed, 2 usage error
        """

    static let spec = Arguments.Spec(command: "parse", options: ["from", "jobs"], flags: ["ndjson"])

    static func run(_ argv: [String]) throws(CommandLineError) {
        let args = try Arguments(argv, spec: spec)
        let format = try args.choice("from", as: InputFormat.self) ?? .plain
        let batch = MessageBatch(
            input: try InputSource(path: args.inputPath), format: format, ndjson: args.has("ndjson"),
            jobs: try Jobs.count(from: args))
        try batch.run { message, id in
            var w = JSONWriter()
            message.write(to: &w, id: id)
            return w.bytes
        }
    }
}
