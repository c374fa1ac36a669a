import SpoilerCore
import SpoilerParser

/// `spoiler convert --to F [--from F] [--ndjson [--jobs N]] [FILE|-]`.
enum ConvertCommand {
    static let help = """
        usage: spoiler convert --to F [--from F] [--ndjson [--jobs N]] [FILE|-]

        Converts a chat message from one markup to another.

        options:
          --to F      output format: json, markdownv2, html, markdown, plain (the text
                      alone), plain-markup (plain text with ||spoiler|| and `code`)
          --from F    input format: plain (default), markdownv2, html, markdown, botapi, export
          --ndjson    one message a line; each output line is a JSON object with the id and
                      the converted text under the format's name: {"id":1,"html":"…"}
                      (with --to json, the Message with its id)
        \(Jobs.help)
          --help      show this help

        examples:
          $ echo '{"text":"a|b secret","entities":[{"type":"spoiler","offset":4,"length":6}]}' \\
              | spoiler convert --from botapi --to plain-markup
          a\\|b ||secret||
          $ echo 'hi ||there||' | spoiler convert --to plain
          hi there

        exit status: 0 success, 1 a message failed, 2 usage error
        """

    static let spec = Arguments.Spec(command: "convert", options: ["from", "to", "jobs"], flags: ["ndjson"])

    static func run(_ argv: [String]) throws(CommandLineError) {
        let args = try Arguments(argv, spec: spec)
        guard let to = try args.choice("to", as: OutputFormat.self) else {
            throw .usage("'--to' is required", command: "convert")
        }
        let format = try args.choice("from", as: InputFormat.self) ?? .plain
        let ndjson = args.has("ndjson")
        let jobs = try Jobs.count(from: args)
        if rendersMarkdownDirectly(from: format, to: to) {
            return try runMarkdown(input: try InputSource(path: args.inputPath), to: to, ndjson: ndjson)
        }
        let batch = MessageBatch(
            input: try InputSource(path: args.inputPath), format: format, ndjson: ndjson, jobs: jobs)
        try batch.run { message, id in
            if to == .json {
                var w = JSONWriter()
                message.write(to: &w, id: id)
                return w.bytes
            }
            let out = MessageSerializer.serialize(message, to: to)
            guard let id else { return Array(out.utf8) }
            var w = JSONWriter()
            w.object { w in
                w.key("id"); w.raw(id)
                w.key(to.rawValue); w.string(out)
            }
            return w.bytes
        }
    }
}
