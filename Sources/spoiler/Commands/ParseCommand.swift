import SpoilerCore
import SpoilerParser

/// `spoiler parse [--from F] [--ndjson [--jobs N]] [FILE|-]`: the Message as JSON.
enum ParseCommand {
    static let spec = CommandSpec(
        name: "parse", options: ["from", "spoiler-reasons", "ndjson", "jobs"] + RecordPolicy.optionNames,
        about: """
            Parses a chat message and prints it as Telegram Bot API JSON: the text without
            markup, and its entities with offsets and lengths in UTF-16 code units.
            """,
        notes: """
            Without --ndjson the whole input is one message (its final newline left out).
            plain: ||spoiler||, `code`, and \\| \\\\ \\` for literal characters.
            export: a Telegram Desktop result.json, streamed, one line per message with its id.
            With --ndjson a bad line gives an error record {"id":…,"line":…,"error":…}.
            Long runs show progress on stderr when it is a terminal (SPOILER_PROGRESS=0|1).

            examples:
              $ echo 'hi ||there||' | spoiler parse
              {"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}
              $ printf '"a ||b||"\\n{"id":7,"text":"c"}\\n' | spoiler parse --ndjson
              {"id":1,"text":"a b","entities":[{"type":"spoiler","offset":2,"length":1}]}
              {"id":7,"text":"c","entities":[]}

            exit status: 0 success, 1 a message failed, 2 usage error
            """)

    static func run(_ args: Arguments) throws(CommandLineError) {
        let format = args.choice("from", as: InputFormat.self)!
        var batch = MessageBatch(
            input: try InputSource(path: args.inputPath), format: format, ndjson: args.flag("ndjson"),
            options: MessageReading.options(args), jobs: Jobs.count(from: args),
            policy: try RecordPolicy.from(args, command: "parse"))
        if !args.flag("ndjson") && format != .export {
            // One message: written as it is serialised, in bounded memory.
            let message = try MessageBatch.wholeMessage(
                from: batch.input, format: format, options: batch.options)
            message.write(inPiecesOf: 1 << 16) { StandardStreams.write($0) }
            StandardStreams.write([UInt8(ascii: "\n")])
            StandardStreams.flush()
            return
        }
        let options = batch.options
        batch.lineStep = { line, number, buffers, out in
            NDJSONRecord.appendPlainJSON(
                line: line, format: format, options: options, buffers: &buffers, lineNumber: number, to: &out)
        }
        batch.bytesStep = { text, entities, id, out in
            Message.appendJSON(utf8: text, entities: entities, id: id, to: &out)
            return true
        }
        batch.streamStep = { message, id, write in message.write(id: id, inPiecesOf: 1 << 16, write) }
        try batch.run { message, id in
            var w = JSONWriter()
            message.write(to: &w, id: id)
            return w.bytes
        }
    }
}
