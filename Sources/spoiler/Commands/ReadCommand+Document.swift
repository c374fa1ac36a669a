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
        if format == .botAPI {
            // One JSON object: parsed whole, then shown a chunk at a time.
            let message = try InputSource.reading(path) { input throws(CommandLineError) in
                try MessageBatch.wholeMessage(from: input, format: format, options: options)
            }
            return MessageDocument(message)
        }
        do throws(TerminalError) {
            // A whole-account export keeps its chats deeper: nil, to read it whole.
            return try ChunkedDocument(path: path, format: format, options: options)
        } catch {
            throw .failure("\(path): \(error.description)")
        }
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
            // (None where the chunk goes on with the block before it, on the next row.)
            if index > 0 {
                StandardStreams.write(
                    (endedWithBreak ? "\n" : "") + (chunk.joinsPrevious ? "" : document.separator.dropLast()))
            }
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
