import SpoilerCore
import SpoilerLayout
import SpoilerParser

/// `spoiler layout`: per-word spoiler geometry as JSON (DESIGN.md §3, §7).
enum LayoutCommand {
    static let spec = CommandSpec(
        name: "layout",
        options: ["from", "spoiler-reasons", "font", "width", "cell", "redact", "ndjson", "jobs"]
            + RecordPolicy.optionNames,
        about: """
            Lays out a chat message and prints its geometry as JSON: the metrics, the lines, and
            one rectangle per hidden word (one per line fragment when a word wraps). Pixels,
            origin at the top-left, y downward; offsets and lengths in UTF-16 code units.
            """,
        notes: """
            example:
              $ echo 'hi ||there||' | spoiler layout
              {"metrics":{"model":"mono","font":null,"cellWidth":8,"cellHeight":16,"ascent":12,"descent":4,"lineHeight":16,"fallbacks":0},"width":64,"height":16,"columns":8,"rows":1,"lines":[{"index":0,"y":0,"height":16,"width":64,"offset":0,"length":8}],"words":[{"entity":0,"word":0,"line":0,"x":24,"y":0,"width":40,"height":16,"column":3,"columns":5,"offset":3,"length":5,"graphemes":5,"text":"there"}]}

            exit status: 0 success, 1 a message failed, 2 usage error
            """)

    static func run(_ args: Arguments) throws(CommandLineError) {
        let format = args.choice("from", as: InputFormat.self)!
        let engine = try LayoutOptions.engine(from: args)
        let redact = args.flag("redact")
        if !args.flag("ndjson") && format != .export {
            // One message: its JSON written a piece at a time, never held whole.
            let input = try InputSource(path: args.inputPath)
            _ = try RecordPolicy.from(args, command: "layout")
            let message = try MessageBatch.wholeMessage(
                from: input, format: format, options: MessageReading.options(args))
            engine.writeJSON(of: message, redact: redact) { StandardStreams.write($0) }
            StandardStreams.write([UInt8(ascii: "\n")])
            StandardStreams.flush()
            return
        }
        var batch = MessageBatch(
            input: try InputSource(path: args.inputPath), format: format, ndjson: args.flag("ndjson"),
            options: MessageReading.options(args), jobs: Jobs.count(from: args),
            policy: try RecordPolicy.from(args, command: "layout"))
        let writer = GeometryWriter(engine: engine, redact: redact)
        batch.bytesStep = { text, entities, id, out in
            writer.append(uncheckedUTF8: text, entities: entities, id: id, to: &out)
        }
        batch.bytesStepChecksUTF8 = true
        batch.streamStep = { message, id, write in
            writer.engine.writeJSON(of: message, id: id, redact: writer.redact, pieces: write)
        }
        try batch.run { message, id in
            writer.engine.layout(message, includeGraphemes: false).jsonBytes(id: id, redact: writer.redact)
        }
    }
}

/// The engine and `--redact` of `layout --ndjson`, held by reference for its steps: the
/// run's line loop, into which the steps are specialized, copied a captured
/// ``LayoutEngine`` itself (an outlined copy and destroy of its model) for every line.
private final class GeometryWriter: Sendable {
    let engine: LayoutEngine
    let redact: Bool

    init(engine: LayoutEngine, redact: Bool) {
        self.engine = engine
        self.redact = redact
    }

    /// Appends the geometry JSON of one message whose text's UTF-8 is checked as it is laid
    /// out (``LayoutEngine/appendGeometryJSON(uncheckedUTF8:entities:id:redact:to:)``);
    /// false, with nothing written, when it is not valid UTF-8.
    func append(
        uncheckedUTF8 text: UnsafeBufferPointer<UInt8>, entities: [Entity], id: UnsafeBufferPointer<UInt8>,
        to out: inout JSONOutputBuffer
    ) -> Bool {
        engine.appendGeometryJSON(uncheckedUTF8: text, entities: entities, id: id, redact: redact, to: &out)
    }
}
