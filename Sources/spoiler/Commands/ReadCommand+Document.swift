import Glibc
import SpoilerCore
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTerminal

/// `spoiler read` of a large file: a chunk at a time (``ChunkedDocument``).
extension ReadCommand {
    /// Files of at least this many bytes are read a chunk at a time (`SPOILER_READ_CHUNKED`
    /// sets another threshold, in bytes; 0: every file).
    static let chunkedBytes = 1 << 20

    /// The document of the file at `path`, read lazily, if it is a regular file large
    /// enough (and, for an export, one chat's: a top-level `messages` array); nil to read
    /// it whole.
    static func document(
        path: String?, format: InputFormat, options: ParseOptions, environment: [String: String]
    ) throws(CommandLineError) -> (any ReaderDocument)? {
        guard let path else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let threshold = environment["SPOILER_READ_CHUNKED"].flatMap { Int($0) } ?? chunkedBytes
        guard Int(info.st_size) >= threshold else { return nil }
        let name = path
        let failed: @Sendable (ParseError) -> Message = { error in
            Message(text: "[could not be read: \(error.located(in: name))]")
        }
        if format == .botAPI {
            // One JSON object: parsed whole, then shown a chunk at a time.
            let message = try InputSource.reading(path) { input throws(CommandLineError) in
                try MessageBatch.wholeMessage(from: input, format: format, options: options)
            }
            return MessageDocument(message)
        }
        let document: any ReaderDocument
        do throws(TerminalError) {
            switch format {
            case .plain, .markdown, .markdownV2, .html, .botAPI:
                let rule: ChunkBoundaryScanner.Rule =
                    switch format {
                    case .markdown: .markdownBlocks
                    case .plain: .plainText
                    case .markdownV2: .markdownV2Text
                    case .html: .htmlText
                    default: .paragraphs
                    }
                document = try ChunkedDocument(
                    path: path, rule: rule, separator: format == .markdown ? "\n\n" : "\n"
                ) { bytes, part throws(ParseError) in
                    try parseChunk(bytes, part: part, format: format, options: options)
                } failed: { error in
                    // The chunk's parse fails (its error at its place in the file), or the whole
                    // file's does there (a tag never closed).
                    failed(error)
                }
            case .export:
                let export = try ChunkedDocument(path: path, rule: .exportMessages, separator: "\n\n") { bytes, _ in
                    exportChunk(bytes, failed: failed)
                }
                // A whole-account export keeps its chats deeper: read it whole.
                guard export.chunk(at: 0) != nil else { return nil }
                document = export
            default:
                return nil
            }
        } catch {
            throw .failure("\(path): \(error.description)")
        }
        return document
    }

    /// The message of one chunk of a plain, Markdown, MarkdownV2 or HTML file.
    ///
    /// Under `--spoiler-reasons`, plain text's `||reason|text||` gives a spoiler the text
    /// before its first `|` as its reason. A chunk that starts inside a spoiler is parsed
    /// after a `||` that reopens it, and its text before a `|` of its own is no reason: that
    /// spoiler's reason came before the chunk (the whole file's parse takes the first `|`
    /// only). A stand-in reason goes after the `||`, so that the split takes nothing of the
    /// chunk's text, and is taken off the entity again: the reader shows no reasons.
    static func parseChunk(
        _ bytes: [UInt8], part: ChunkedDocument.Part, format: InputFormat, options: ParseOptions
    ) throws(ParseError) -> Message {
        let pipes: [UInt8] = [UInt8(ascii: "|"), UInt8(ascii: "|")]
        guard format == .plain, options.spoilerReasons, part.reopenedBytes >= 2, bytes.starts(with: pipes) else {
            return try MessageParser.parse(bytes, from: format, options: options)
        }
        let standIn: [UInt8] = Array("r|".utf8)
        var message = try MessageParser.parse(pipes + standIn + bytes.dropFirst(2), from: format, options: options)
        if let k = message.entities.firstIndex(where: { $0.type == .spoiler && $0.offset == 0 && $0.reason == "r" }) {
            message.entities[k].reason = nil
        }
        return message
    }

    /// The chat log of an export chunk: message objects, separated by commas.
    static func exportChunk(_ bytes: [UInt8], failed: @Sendable (ParseError) -> Message) -> Message {
        var body = bytes
        while let last = body.last, last == 0x2C || last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 {
            body.removeLast()
        }
        let reader = ExportReader()
        var items: [ExportItem] = []
        do throws(ParseError) {
            try reader.feed(Array(#"{"messages":["#.utf8) + body + Array("]}".utf8), into: &items)
            try reader.finish(into: &items)
        } catch {
            return failed(error)
        }
        var log = ChatLog()
        for item in items { log.append(item) }
        return log.message
    }

    /// Prints a document's still frame, chunk by chunk (not a terminal).
    static func writeStill(
        _ document: any ReaderDocument, effect: EffectChoice, capability: ColorCapability, glyphs: GlyphSet,
        environment: [String: String]
    ) {
        var engine = LayoutEngine(model: .mono(cellWidth: 8, cellHeight: 16))
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { engine.wrapWidth = columns }
        let options = ANSIFrameOptions(capability: capability, glyphs: glyphs)
        var index = 0
        var endedWithBreak = false
        while let chunk = document.chunk(at: index) {
            // A frame leaves out the empty row after a final line break; between two chunks it
            // is a row of the text.
            if index > 0 { StandardStreams.write((endedWithBreak ? "\n" : "") + document.separator.dropLast()) }
            endedWithBreak = chunk.message.text.utf8.last == 0x0A
            if chunk.message.text.isEmpty {
                StandardStreams.write("\n")
            } else {
                StillFrameWriter.writeMessage(
                    chunk.message, engine: engine, options: options, scene: { effect.scene(for: $0) }
                ) { StandardStreams.write($0) }
            }
            index += 1
        }
        StandardStreams.flush()
    }
}
