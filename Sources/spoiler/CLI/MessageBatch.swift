import SpoilerCore
import SpoilerParser

/// Runs a per-message step over the input: the whole input as one message, or with
/// `--ndjson` one message a line (DESIGN.md §7).
///
/// In NDJSON mode a line is a JSON string (the message, written in `--from`) or an object
/// with `text` and optionally `id` and `entities` (given entities make the object a Bot API
/// message, and `--from` is not applied). Each output line carries the input's `id`, or
/// its 1-based line number. A line that fails, a blank one included, gives in its place an
/// error record `{"id":…,"line":N,"error":"reason","offset":B}` (`id`: the line's own, or
/// null; `offset`: the byte offset in the message where known), so that output lines
/// match input lines one to one; every other line is still processed, and the run ends
/// with a summary on standard error and exit status 1 (0 under `--errors-as-records`).
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
    /// How failures are reported and when output is written (`--errors-as-records`,
    /// `--quiet`, `--line-buffered`).
    var policy = RecordPolicy()

    /// One output for one message: the bytes of one line (no newline), or a failure.
    /// Called from several threads at once when `jobs` is above 1, so it must not touch
    /// shared mutable state.
    typealias Step = @Sendable (_ message: Message, _ id: [UInt8]?) throws -> [UInt8]

    /// What `Step` gives, from a message given as the UTF-8 bytes of its text and its
    /// entities, with its id as raw JSON: the fast path of common NDJSON lines in plain
    /// markup (``NDJSONRecord/withPlainMessage(line:format:options:buffers:_:)``), which builds no
    /// ``Message``. It appends to `out` (without a newline) the same bytes as `Step` gives
    /// for the same message, and returns true; a step that checks the text's UTF-8 itself
    /// (``bytesStepChecksUTF8``) returns false, with nothing written, for a text that is
    /// not valid UTF-8.
    typealias BytesStep =
        @Sendable (
            _ text: UnsafeBufferPointer<UInt8>, _ entities: [Entity], _ id: UnsafeBufferPointer<UInt8>,
            _ out: inout JSONOutputBuffer
        ) -> Bool

    /// The fast path for common NDJSON lines, if the command has one.
    var bytesStep: BytesStep?

    /// Whether ``bytesStep`` checks the text's UTF-8 itself as it reads it (`layout`), so
    /// that the line is not checked before
    /// (``NDJSONRecord/readPlainMessage(line:format:options:buffers:uncheckedUTF8:)``).
    var bytesStepChecksUTF8 = false

    /// A step that reads a common NDJSON line and appends its output line to `out` itself
    /// (without a newline), with the line's id or else its `number`; false, with nothing
    /// written, for any other line. `parse` uses it
    /// (``NDJSONRecord/appendPlainJSON(line:format:options:buffers:lineNumber:to:)``), and
    /// tries it before ``bytesStep``.
    typealias LineStep =
        @Sendable (
            _ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ buffers: inout NDJSONLineBuffers,
            _ out: inout JSONOutputBuffer
        ) -> Bool

    /// The whole-line fast path, if the command has one.
    var lineStep: LineStep?

    /// Writes the output line of `message` (with `id`, without a newline) to `write` a
    /// piece at a time, the same bytes as `Step` gives. Called on the thread that writes
    /// the output, in input order.
    typealias StreamStep = @Sendable (_ message: Message, _ id: [UInt8], _ write: ([UInt8]) -> Void) -> Void

    /// How a command writes the output of a line longer than ``streamedLineBytes`` without
    /// holding it whole (its output can be many times the line: 16 MB of `||ab|| ` is
    /// 120 MB of `parse` output and 386 MB of `layout`), if it has a way.
    var streamStep: StreamStep?

    /// The length past which an NDJSON line's output is streamed (``streamStep``).
    static let streamedLineBytes = 1 << 20

    /// The size of a batch of NDJSON lines read at once with `jobs` above 1.
    static let batchBytes = 2 << 20

    /// Runs `step` over every message, writing its output lines to standard output.
    func run(_ step: @escaping Step) throws(CommandLineError) {
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
        let steps = LineSteps(
            format: format, options: options, step: step, bytesStep: bytesStep,
            bytesStepChecksUTF8: bytesStepChecksUTF8, lineStep: lineStep, streamStep: streamStep)
        // Held here for the whole loop and called through an unmanaged reference: a captured
        // reference was retained and released around the call for every line.
        let held = Unmanaged.passUnretained(steps)
        try withExtendedLifetime(steps) { () throws(CommandLineError) in
            try MessageBatch.runLines(input: input, jobs: jobs, policy: policy) { line, number, scratch in
                held._withUnsafeGuaranteedRef { $0.outcome(of: line, number: number, scratch: &scratch) }
            }
        }
    }

    /// What ``run(_:)`` does with each NDJSON line, held by reference: the line loop, into
    /// which a closure capturing the steps themselves was specialized, retained and released
    /// each optional step's context for every line.
    private final class LineSteps: Sendable {
        let format: InputFormat
        let options: ParseOptions
        let step: Step
        /// The command's ``MessageBatch/bytesStep``, or one that takes no line: not optional,
        /// since binding an optional step retained and released its context for every line.
        let bytesStep: BytesStep
        let hasBytesStep: Bool
        let bytesStepChecksUTF8: Bool
        let lineStep: LineStep?
        let streamStep: StreamStep?

        init(
            format: InputFormat, options: ParseOptions, step: @escaping Step, bytesStep: BytesStep?,
            bytesStepChecksUTF8: Bool, lineStep: LineStep?, streamStep: StreamStep?
        ) {
            self.format = format
            self.options = options
            self.step = step
            self.bytesStep = bytesStep ?? { _, _, _, _ in false }
            hasBytesStep = bytesStep != nil
            self.bytesStepChecksUTF8 = bytesStepChecksUTF8
            self.lineStep = lineStep
            self.streamStep = streamStep
        }

        /// The outcome of one line: streamed when long, else by the fast paths the command
        /// has, else read whole.
        func outcome(of line: UnsafeBufferPointer<UInt8>, number: Int, scratch: inout LineScratch) -> LineOutcome {
            // The length first: binding a step retains and releases its context.
            if line.count > MessageBatch.streamedLineBytes, let streamStep {
                return MessageBatch.streamedOutcome(
                    of: line, number: number, format: format, options: options, step: streamStep)
            }
            if let lineStep,
                let fast = MessageBatch.fastOutcome(
                    of: line, number: number, buffers: &scratch.buffers, out: &scratch.out, step: lineStep)
            {
                return fast
            }
            if hasBytesStep,
                let fast = MessageBatch.fastOutcome(
                    of: line, number: number, format: format, options: options, buffers: &scratch.buffers,
                    out: &scratch.out, step: bytesStep, checksUTF8: bytesStepChecksUTF8)
            {
                return fast
            }
            return MessageBatch.outcome(of: line, number: number, format: format, options: options, step: step)
        }
    }

    /// Runs `outcome` over every line of `input` as
    /// ``runLines(input:jobs:policy:_:)-(_,_,_,(UnsafeBufferPointer<UInt8>,Int,inout LineScratch)->LineOutcome)``
    /// does, for an outcome that needs no room of its own.
    static func runLines(
        input: InputSource, jobs: Int, policy: RecordPolicy,
        _ outcome: @Sendable (UnsafeBufferPointer<UInt8>, Int) -> LineOutcome
    ) throws(CommandLineError) {
        try runLines(input: input, jobs: jobs, policy: policy) { line, number, _ in outcome(line, number) }
    }

    /// Runs `outcome` over every line of `input` (on `jobs` threads, in batches, when
    /// `jobs` is above 1), writing each line's output or error record in input order, then
    /// the summary; throws ``CommandLineError/recordsFailed(_:)`` at the end if a line failed
    /// and `policy` does not count error records as success.
    ///
    /// `outcome` is given each line's bytes, valid only during the call, and room reused
    /// from line to line (one per thread): an outcome of ``LineOutcome/appended(_:)`` has
    /// put its output line in the room's `out`.
    static func runLines(
        input: InputSource, jobs: Int, policy: RecordPolicy,
        _ outcome: @Sendable (UnsafeBufferPointer<UInt8>, Int, inout LineScratch) -> LineOutcome
    ) throws(CommandLineError) {
        var tally = RecordTally(unit: "lines")
        var progress = Progress(input: input)
        if jobs > 1 {
            var reader = LineBatchReader(input: input, targetBytes: MessageBatch.batchBytes)
            var buffers = PieceBuffers(count: 0)
            while let batch = try reader.next() {
                // Each thread keeps its line buffers from piece to piece, and each piece its
                // output buffer from batch to batch.
                if buffers.count < ParallelLines.pieceCount(count: batch.lines.count, jobs: jobs) {
                    buffers = PieceBuffers(count: ParallelLines.pieceCount(count: batch.lines.count, jobs: jobs))
                }
                let pieceBuffers = buffers
                let pieces = ParallelLines.mapPieces(count: batch.lines.count, jobs: jobs, state: { LineScratch() }) {
                    piece, range, scratch in
                    scratch.out = pieceBuffers.take(piece)
                    var outcomes: [LineOutcome] = []
                    outcomes.reserveCapacity(range.count)
                    batch.bytes.withUnsafeBufferPointer { bytes in
                        for i in range {
                            let line = UnsafeBufferPointer(rebasing: bytes[batch.lines[i]])
                            outcomes.append(outcome(line, batch.firstNumber + i, &scratch))
                        }
                    }
                    pieceBuffers.put(piece, scratch.out)
                    scratch.out = JSONOutputBuffer()
                    return outcomes
                }
                var number = batch.firstNumber
                for (piece, outcomes) in pieces.enumerated() {
                    let out = buffers[piece]
                    // Output lines in a row are written together.
                    var offset = 0
                    var runStart = 0
                    func writeRun() {
                        if offset > runStart {
                            out.withUnsafeBytes(in: runStart..<offset) { StandardStreams.writeGathered($0) }
                        }
                        runStart = offset
                    }
                    for result in outcomes {
                        progress.tick(messages: 1, bytes: batch.lines[number - batch.firstNumber].count + 1)
                        if case .appended(let n) = result {
                            offset += n
                            if policy.lineBuffered {
                                writeRun()
                                StandardStreams.flush()
                            }
                            tally.count(ok: true, at: number)
                        } else {
                            writeRun()
                            let ok = try MessageBatch.write(
                                result, place: "\(input.name):\(number)", policy: policy, progress: &progress)
                            tally.count(ok: ok, at: number)
                        }
                        number += 1
                    }
                    writeRun()
                }
                StandardStreams.flush()
            }
        } else {
            var scratch = LineScratch()
            try input.forEachLine { (line, number) throws(CommandLineError) in
                progress.tick(messages: 1, bytes: line.count + 1)
                let result = outcome(line, number, &scratch)
                if case .appended = result {
                    if scratch.out.count >= 1 << 16 || policy.lineBuffered {
                        scratch.out.withUnsafeBytes { StandardStreams.writeGathered($0) }
                        scratch.out.removeAll()
                        if policy.lineBuffered { StandardStreams.flush() }
                    }
                    tally.count(ok: true, at: number)
                    return
                }
                // Output lines gathered so far go first, in input order.
                scratch.out.withUnsafeBytes { StandardStreams.write($0) }
                scratch.out.removeAll()
                let ok = try MessageBatch.write(
                    result, place: "\(input.name):\(number)", policy: policy, progress: &progress)
                tally.count(ok: ok, at: number)
            }
            scratch.out.withUnsafeBytes { StandardStreams.write($0) }
        }
        progress.clear()
        try tally.finish(policy)
    }

    /// Room reused from line to line by one thread of ``runLines(input:jobs:policy:_:)-(_,_,_,(UnsafeBufferPointer<UInt8>,Int,inout LineScratch)->LineOutcome)``:
    /// the fast path's buffers, and output lines not yet written.
    struct LineScratch {
        var buffers = NDJSONLineBuffers()
        /// Output lines, each with its newline, not yet written out.
        var out = JSONOutputBuffer()
    }

    /// What one NDJSON line gives: an output line, an error record (a blank line gives one
    /// too, so that output lines match input lines one to one), or a fatal error that ends
    /// the run.
    enum LineOutcome: Sendable {
        case output([UInt8])
        /// The output line, `n` bytes with its newline, was appended to the line's
        /// ``LineScratch/out``.
        case appended(Int)
        /// A failed message: its error record, the reason, and the column in the line
        /// when the line itself is malformed (``NDJSONRecord/errorColumn``).
        case failed(record: [UInt8], reason: String, column: Int?)
        case fatal(CommandLineError)
        /// A long line read, its output not yet made: the function writes it a piece at a
        /// time (without the newline) when its turn comes.
        case streamed(@Sendable (_ write: ([UInt8]) -> Void) -> Void)
    }

    /// Reads one NDJSON line and runs `step` on its message; the output line's id is the
    /// line's own `id` or its number, an error record's id is the line's own `id` or null.
    /// Touches no shared state: safe to call from several threads at once.
    static func outcome(
        of line: UnsafeBufferPointer<UInt8>, number: Int, format: InputFormat, options: ParseOptions = ParseOptions(),
        step: Step
    ) -> LineOutcome {
        read(line, number: number, format: format, options: options) { message, id in .output(try step(message, id)) }
    }

    /// Reads one long NDJSON line; its output is left to `step`, which
    /// ``write(_:place:policy:progress:)`` runs in input order. A line that fails gives its
    /// error record as ``outcome(of:number:format:options:step:)`` does.
    static func streamedOutcome(
        of line: UnsafeBufferPointer<UInt8>, number: Int, format: InputFormat, options: ParseOptions,
        step: @escaping StreamStep
    ) -> LineOutcome {
        read(line, number: number, format: format, options: options) { message, id in
            .streamed { write in step(message, id, write) }
        }
    }

    /// Reads one NDJSON line and gives the outcome `body` makes of its message and id (the
    /// line's own `id` or its number); a line that fails, or a failure `body` throws, gives
    /// an error record with the line's own `id` or null, and a ``CommandLineError`` ends the
    /// run.
    private static func read(
        _ line: UnsafeBufferPointer<UInt8>, number: Int, format: InputFormat, options: ParseOptions,
        _ body: (Message, [UInt8]) throws -> LineOutcome
    ) -> LineOutcome {
        guard let record = NDJSONRecord(line: line, format: format, options: options) else {
            return failed(id: nil, line: number, NDJSONRecord.emptyLineError)
        }
        do {
            return try body(try record.result.get(), record.id ?? Array(String(number).utf8))
        } catch let e as CommandLineError {
            return .fatal(e)
        } catch {
            return failed(id: record.id, line: number, error, column: record.errorColumn)
        }
    }

    /// The outcome of a common NDJSON line read by the fast path (with `buffers`), its
    /// output line appended to `out`; or nil for any other line (which
    /// ``outcome(of:number:format:options:step:)`` then reads, to the same result).
    static func fastOutcome(
        of line: UnsafeBufferPointer<UInt8>, number: Int, format: InputFormat, options: ParseOptions,
        buffers: inout NDJSONLineBuffers, out: inout JSONOutputBuffer, step: BytesStep, checksUTF8: Bool
    ) -> LineOutcome? {
        let before = out.count
        func write(_ text: UnsafeBufferPointer<UInt8>, _ entities: [Entity], _ id: UnsafeBufferPointer<UInt8>?) -> Bool
        {
            if let id { return step(text, entities, id, &out) }
            // The line number, written as the id.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { room in
                let n = JSONByteCursor.write(into: room) { $0.integer(number) }
                return step(text, entities, UnsafeBufferPointer(rebasing: room[0..<n]), &out)
            }
        }
        let done =
            checksUTF8
            ? NDJSONRecord.readPlainMessage(
                line: line, format: format, options: options, buffers: &buffers, uncheckedUTF8: write)
            : NDJSONRecord.readPlainMessage(line: line, format: format, options: options, buffers: &buffers) {
                _ = write($0, $1, $2)
            }
        guard done else { return nil }
        out.append(UInt8(ascii: "\n"))
        return .appended(out.count - before)
    }

    /// The outcome of a common NDJSON line written by a ``LineStep`` (with `buffers`), its
    /// output line appended to `out`; or nil for any other line.
    static func fastOutcome(
        of line: UnsafeBufferPointer<UInt8>, number: Int, buffers: inout NDJSONLineBuffers,
        out: inout JSONOutputBuffer, step: LineStep
    ) -> LineOutcome? {
        let before = out.count
        guard step(line, number, &buffers, &out) else { return nil }
        out.append(UInt8(ascii: "\n"))
        return .appended(out.count - before)
    }

    /// The error record of a line or message that failed, and its reason for standard error.
    /// `column`: where in the line a malformed line went wrong, if it did.
    static func failed(id: [UInt8]?, line: Int?, _ error: any Error, column: Int? = nil) -> LineOutcome {
        let reason = (error as? ParseError)?.reason ?? "\(error)"
        return .failed(
            record: NDJSONRecord.errorRecord(id: id, line: line, error: error), reason: reason, column: column)
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
            return failed(id: id, line: nil, error)
        }
    }

    /// Writes one line's outcome: its output line, or its error record and, on standard
    /// error unless `policy` is quiet, `error: place: reason` (`error: file:LINE:COLUMN: reason`
    /// when the line itself is malformed; `place` is `file:LINE` for a line, the file for an
    /// export message). Under `--line-buffered` the line is written out at once. Returns
    /// false for an error record; rethrows a fatal error.
    static func write(
        _ outcome: LineOutcome, place: @autoclosure () -> String, policy: RecordPolicy, progress: inout Progress
    ) throws(CommandLineError) -> Bool {
        switch outcome {
        case .appended:
            // Written by the caller, from the room it was appended to.
            return true
        case .output(let out):
            StandardStreams.write(out)
            StandardStreams.write(CollectionOfOne(UInt8(ascii: "\n")))
            if policy.lineBuffered { StandardStreams.flush() }
            return true
        case .streamed(let writeOutput):
            writeOutput { StandardStreams.write($0) }
            StandardStreams.write(CollectionOfOne(UInt8(ascii: "\n")))
            if policy.lineBuffered { StandardStreams.flush() }
            return true
        case .failed(let record, let reason, let column):
            StandardStreams.write(record)
            StandardStreams.write(CollectionOfOne(UInt8(ascii: "\n")))
            if policy.quiet {
                if policy.lineBuffered { StandardStreams.flush() }
            } else {
                StandardStreams.flush()
                progress.clear()
                StandardStreams.writeError("error: \(place())\(column.map { ":\($0)" } ?? ""): \(reason)\n")
            }
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
        var tally = RecordTally(unit: "messages")
        var chunk: [UInt8] = []
        var progress = Progress(input: input)
        func emit(_ items: [ExportItem]) throws(CommandLineError) {
            let outcomes = ParallelLines.map(count: items.count, jobs: jobs) { k in
                MessageBatch.outcome(of: items[k], step: step)
            }
            for outcome in outcomes {
                let ok = try MessageBatch.write(outcome, place: input.name, policy: policy, progress: &progress)
                tally.count(ok: ok, at: tally.total + 1)
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
        try tally.finish(policy)
    }
}
