import SpoilerCore
import SpoilerParser

/// `spoiler convert --to F [--from F] [--ndjson [--jobs N]] [FILE|-]`.
enum ConvertCommand {
    static let spec = CommandSpec(
        name: "convert",
        options: ["to", "from", "spoiler-reasons", "ndjson", "jobs"] + RecordPolicy.optionNames + ["mask", "max"],
        required: ["to"],
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
            return try runMarkdown(
                input: try InputSource(path: args.inputPath), to: to, ndjson: ndjson,
                policy: try RecordPolicy.from(args, command: "convert"))
        }
        let options = try serializationOptions(args, to: to)
        let input = try InputSource(path: args.inputPath)
        if !ndjson && format != .export, let stream = streamingSerializer(to) {
            // One message in a format written a piece at a time: in bounded memory.
            let message = try MessageBatch.wholeMessage(
                from: input, format: format, options: MessageReading.options(args))
            for warning in SerializationWarning.droppedReasons(in: message, format: to) {
                StandardStreams.writeError("warning: \(input.name): \(warning)\n")
            }
            var last: UInt8?
            stream(message) { piece in
                StandardStreams.write(piece)
                last = piece.last ?? last
            }
            if last != UInt8(ascii: "\n") { StandardStreams.write([UInt8(ascii: "\n")]) }
            StandardStreams.flush()
            return
        }
        var batch = MessageBatch(
            input: input, format: format, ndjson: ndjson, options: MessageReading.options(args), jobs: jobs,
            policy: try RecordPolicy.from(args, command: "convert"))
        if to == .json {
            batch.streamStep = { message, id, write in message.write(id: id, inPiecesOf: 1 << 16, write) }
        } else if streamingSerializer(to) != nil {
            batch.streamStep = { message, id, write in
                withoutActuallyEscaping(write) { write in
                    writeRecord(message, id: id, to: to, stream: streamingSerializer(to)!, write)
                }
            }
        }
        let inputName = input.name
        try batch.run { message, id in
            if to == .json {
                var w = JSONWriter()
                message.write(to: &w, id: id)
                return w.bytes
            }
            let out = MessageSerializer.serialize(message, to: to, options: options)
            guard let id else {
                for warning in out.warnings { StandardStreams.writeError("warning: \(inputName): \(warning)\n") }
                return Array(out.output.utf8)
            }
            var w = JSONWriter()
            w.object { w in
                w.key("id"); w.raw(id)
                w.key(to.rawValue); w.string(out.output)
                if !out.warnings.isEmpty {
                    w.key("warnings")
                    w.array { w in for warning in out.warnings { w.string(warning.description) } }
                }
            }
            return w.bytes
        }
    }

    /// Writes the NDJSON record of `message` converted to `format` by `stream` a piece at a
    /// time: the bytes of the record a whole conversion gives
    /// (`{"id":…,"<format>":"…","warnings":[…]}`), with the output escaped as it comes and
    /// never held whole.
    static func writeRecord(
        _ message: Message, id: [UInt8], to format: OutputFormat,
        stream: (Message, ([UInt8]) -> Void) -> Void, _ write: @escaping ([UInt8]) -> Void
    ) {
        write(Array(#"{"id":"#.utf8) + id + Array(",\"\(format.rawValue)\":\"".utf8))
        // Bytes of a scalar cut between two pieces wait for the next piece.
        var pending: [UInt8] = []
        func escape(_ bytes: [UInt8], upTo end: Int) {
            guard end > 0 else { return }
            let escaped = bytes.withUnsafeBufferPointer { p in
                JSONByteCursor.bytes(capacity: 6 * end) { $0.escaped(utf8: UnsafeBufferPointer(rebasing: p[0..<end])) }
            }
            write(escaped)
        }
        stream(message) { piece in
            pending += piece
            // Back to the start of the last scalar when it may be incomplete.
            var end = pending.count
            var k = end - 1
            while k >= 0 && k >= end - 4 && pending[k] & 0xC0 == 0x80 { k -= 1 }
            if k >= 0 && pending[k] >= 0xC0 {
                let length = pending[k] >= 0xF0 ? 4 : pending[k] >= 0xE0 ? 3 : 2
                if end - k < length { end = k }
            }
            escape(pending, upTo: end)
            pending.removeFirst(end)
        }
        escape(pending, upTo: pending.count)
        let warnings = SerializationWarning.droppedReasons(in: message, format: format)
        guard !warnings.isEmpty else { return write(Array(#""}"#.utf8)) }
        var w = JSONWriter()
        w.array { w in for warning in warnings { w.string(warning.description) } }
        write(Array(#"","warnings":"#.utf8) + w.bytes + [UInt8(ascii: "}")])
    }

    /// The writer of `format` that passes its output on a piece at a time, if it has one.
    static func streamingSerializer(_ format: OutputFormat) -> ((Message, ([UInt8]) -> Void) -> Void)? {
        switch format {
        case .html: HTMLSerializer.serialize(_:write:)
        case .markdownV2: MarkdownV2Serializer.serialize(_:write:)
        default: nil
        }
    }

    /// `--mask` and `--max`, which only a preview (and Slack's masks) use.
    static func serializationOptions(_ args: Arguments, to: OutputFormat) throws(CommandLineError)
        -> SerializationOptions
    {
        var preview = PreviewOptions()
        if args.given("mask") {
            guard to == .preview || to == .slack else {
                throw .usage("'--mask' applies to --to preview and --to slack", command: "convert")
            }
        }
        preview.mask = args.choice("mask", as: PreviewOptions.Mask.self) ?? .fixed
        if args.given("max") {
            guard to == .preview else { throw .usage("'--max' applies to --to preview", command: "convert") }
            preview.maxGraphemes = args.integer("max")
        }
        return SerializationOptions(preview: preview)
    }
}
