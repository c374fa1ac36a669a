import SpoilerCore
import SpoilerParser

/// Runs a per-message step over the input: the whole input as one message, or with
/// `--ndjson` one message a line (DESIGN.md §7).
///
/// In NDJSON mode a line is a JSON string (the message, written in `--from`) or an object
/// with `text` and optionally `id` and `entities` (given entities make the object a Bot API
/// message, and `--from` is not applied). Each output line carries the input's `id`, or
/// its 1-based line number. A line that fails gives, in its place, an error record
/// `{"id":…,"line":N,"error":"reason","offset":B}` (`offset`: the byte offset in the
/// message where known), every other line is still processed, and the run ends with
/// exit status 1.
///
/// With `jobs` above 1, NDJSON lines are read in batches of about 2 MB and each batch's
/// lines are worked on by `jobs` threads (``ParallelLines``); the output is written in
/// input order, so that it, the error lines on standard error and the exit status are
/// the same as with one job. Memory stays bounded by the batch, not the input.
struct MessageBatch {
    let input: InputSource
    let format: InputFormat
    let ndjson: Bool
    /// How each message is read (`--spoiler-reasons`).
    var options = ParseOptions()
    /// How many threads work on NDJSON lines or export messages (`--jobs`); 1 works on
    /// them in turn.
    var jobs = 1

    /// One output for one message: the bytes of one line (no newline), or a failure.
    /// Called from several threads at once when `jobs` is above 1, so it must not touch
    /// shared mutable state.
    typealias Step = @Sendable (_ message: Message, _ id: [UInt8]?) throws -> [UInt8]

    /// The size of a batch of NDJSON lines read at once with `jobs` above 1.
    static let batchBytes = 2 << 20

    /// Runs `step` over every message, writing its output lines to standard output.
    func run(_ step: Step) throws(CommandLineError) {
        if format == .export {
            try runExport(step)
            return
        }
        if !ndjson {
            let message = try MessageBatch.wholeMessage(from: input, format: format, options: options)
            let out: [UInt8]
            do {
                out = try step(message, nil)
            } catch let e as CommandLineError {
                throw e
            } catch {
                throw .failure("\(input.name): \(error)")
            }
            StandardStreams.write(out)
            if out.last != UInt8(ascii: "\n") { StandardStreams.write([UInt8(ascii: "\n")]) }
            StandardStreams.flush()
            return
        }
        var failures = 0
        var progress = Progress(input: input)
        let format = self.format
        let options = self.options
        if jobs > 1 {
            var reader = LineBatchReader(input: input, targetBytes: MessageBatch.batchBytes)
            while let batch = try reader.next() {
                let outcomes = ParallelLines.map(batch, jobs: jobs) { line, number in
                    MessageBatch.outcome(of: line, number: number, format: format, options: options, step: step)
                }
                for (k, outcome) in outcomes.enumerated() {
                    let number = batch.firstNumber + k
                    progress.tick(messages: 1, bytes: batch.lines[k].count + 1)
                    let ok = try MessageBatch.write(outcome, place: "\(input.name):\(number)", progress: &progress)
                    if !ok { failures += 1 }
                }
            }
        } else {
            try input.forEachLine { (line, number) throws(CommandLineError) in
                progress.tick(messages: 1, bytes: line.count + 1)
                let outcome = MessageBatch.outcome(of: line, number: number, format: format, options: options, step: step)
                let ok = try MessageBatch.write(outcome, place: "\(input.name):\(number)", progress: &progress)
                if !ok { failures += 1 }
            }
        }
        progress.clear()
        StandardStreams.flush()
        if failures > 0 { throw .recordsFailed(failures) }
    }

    /// What one NDJSON line gives: nothing (a blank line), an output line, an error record,
    /// or a fatal error that ends the run.
    enum LineOutcome: Sendable {
        case blank
        case output([UInt8])
        /// A failed message: its error record, the reason, and the column in the line
        /// when the line itself is malformed (``NDJSONRecord/errorColumn``).
        case failed(record: [UInt8], reason: String, column: Int?)
        case fatal(CommandLineError)
    }

    /// Reads one NDJSON line (its number is the id when it gives none) and runs `step` on its
    /// message. Touches no shared state: safe to call from several threads at once.
    static func outcome(
        of line: ArraySlice<UInt8>, number: Int, format: InputFormat, options: ParseOptions = ParseOptions(), step: Step
    ) -> LineOutcome {
        guard let record = NDJSONRecord(line: line, format: format, options: options) else { return .blank }
        let id = record.id ?? Array(String(number).utf8)
        do {
            return .output(try step(try record.result.get(), id))
        } catch let e as CommandLineError {
            return .fatal(e)
        } catch {
            let reason = (error as? ParseError)?.reason ?? "\(error)"
            return .failed(
                record: NDJSONRecord.errorRecord(id: id, line: number, error: error), reason: reason,
                column: record.errorColumn)
        }
    }

    /// Runs `step` on one export message; its line carries the message's `id` (and `chat`).
    /// Touches no shared state: safe to call from several threads at once.
    static func outcome(of item: ExportItem, step: Step) -> LineOutcome {
        let id = Array((item.id ?? String(item.index)).utf8)
        do {
            var out = try step(try item.result.get(), id)
            if let chat = item.chatID, out.first == UInt8(ascii: "{") {
                out.insert(contentsOf: Array("\"chat\":\(chat),".utf8), at: 1)
            }
            return .output(out)
        } catch let e as CommandLineError {
            return .fatal(e)
        } catch {
            let reason = (error as? ParseError)?.reason ?? "\(error)"
            return .failed(record: NDJSONRecord.errorRecord(id: id, line: nil, error: error), reason: reason, column: nil)
        }
    }

    /// Writes one line's outcome: its output line, or its error record and, on standard
    /// error, `error: place: reason` (`error: file:LINE:COLUMN: reason` when the line
    /// itself is malformed; `place` is `file:LINE` for a line, the file for an export
    /// message). Returns false for an error record; rethrows a fatal error.
    static func write(_ outcome: LineOutcome, place: @autoclosure () -> String, progress: inout Progress)
        throws(CommandLineError) -> Bool
    {
        switch outcome {
        case .blank:
            return true
        case .output(let out):
            StandardStreams.write(out)
            StandardStreams.write(CollectionOfOne(UInt8(ascii: "\n")))
            return true
        case .failed(let record, let reason, let column):
            StandardStreams.write(record)
            StandardStreams.write(CollectionOfOne(UInt8(ascii: "\n")))
            StandardStreams.flush()
            progress.clear()
            StandardStreams.writeError("error: \(place())\(column.map { ":\($0)" } ?? ""): \(reason)\n")
            return false
        case .fatal(let e):
            throw e
        }
    }

    /// Reads the whole input as one message written in `format`
    /// (``MessageParser/parseWholeInput(_:from:options:)``); errors in compiler form,
    /// `name:line:column: reason`.
    static func wholeMessage(
        from input: InputSource, format: InputFormat, options: ParseOptions = ParseOptions()
    ) throws(CommandLineError) -> Message {
        let bytes = try input.readAll()
        do {
            return try MessageParser.parseWholeInput(bytes, from: format, options: options)
        } catch {
            throw .failure(error.located(in: input.name))
        }
    }

    /// A Telegram Desktop export, read as a stream of messages.
    ///
    /// One output line per message, carrying the message's `id` (and, in a whole-account export, where message
    /// ids repeat across chats, the chat's id as `chat`). A message that cannot be read
    /// gives an error record in its place; a JSON syntax error ends the run (exit 1) after
    /// the messages before it.
    private func runExport(_ step: Step) throws(CommandLineError) {
        let reader = ExportReader()
        var failures = 0
        var chunk: [UInt8] = []
        var progress = Progress(input: input)
        func emit(_ items: [ExportItem]) throws(CommandLineError) {
            let outcomes = ParallelLines.map(count: items.count, jobs: jobs) { k in
                MessageBatch.outcome(of: items[k], step: step)
            }
            for outcome in outcomes {
                let ok = try MessageBatch.write(outcome, place: input.name, progress: &progress)
                if !ok { failures += 1 }
            }
            progress.tick(messages: items.count, bytes: 0)
        }
        var items: [ExportItem] = []
        // Messages completed before a syntax error still come out, then the error.
        func drain() throws(CommandLineError) {
            try emit(items)
            items.removeAll(keepingCapacity: true)
        }
        do {
            while true {
                chunk.removeAll(keepingCapacity: true)
                let n = try input.read(into: &chunk, count: jobs > 1 ? 1 << 20 : 1 << 16)
                if n == 0 { break }
                progress.tick(messages: 0, bytes: n)
                do {
                    try reader.feed(chunk, into: &items)
                } catch {
                    try drain()
                    throw error
                }
                try drain()
            }
            do {
                try reader.finish(into: &items)
            } catch {
                try drain()
                throw error
            }
            try drain()
        } catch let e as ParseError {
            StandardStreams.flush()
            progress.clear()
            throw .failure(e.located(in: input.name))
        } catch let e as CommandLineError {
            progress.clear()
            throw e
        } catch {
            throw .failure("\(input.name): \(error)")
        }
        progress.clear()
        StandardStreams.flush()
        if failures > 0 { throw .recordsFailed(failures) }
    }
}
