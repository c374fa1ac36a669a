import SpoilerCore
import SpoilerParser

/// `spoiler convert --to F [--from F] [--ndjson [--jobs N]] [FILE|-]`.
enum ConvertCommand {
    static let spec = CommandSpec(
        name: "convert", options: ["to", "from", "ndjson", "jobs"], required: ["to"],
        about: """
            Converts a chat message from one markup to another.
            """,
        notes: """
            With --ndjson each output line is a JSON object with the id and the converted text
            under the format's name: {"id":1,"html":"…"} (with --to json, the Message with its id).

            examples:
              $ echo '{"text":"a|b secret","entities":[{"type":"spoiler","offset":4,"length":6}]}' \\
                  | spoiler convert --from botapi --to plain-markup
              a\\|b ||secret||
              $ echo 'hi ||there||' | spoiler convert --to plain
              hi there

            exit status: 0 success, 1 a message failed, 2 usage error
            """)

    static func run(_ args: Arguments) throws(CommandLineError) {
        let to = args.choice("to", as: OutputFormat.self)!
        let format = args.choice("from", as: InputFormat.self)!
        let ndjson = args.flag("ndjson")
        let jobs = Jobs.count(from: args)
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
