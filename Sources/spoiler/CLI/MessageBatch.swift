import SpoilerCore
import SpoilerParser

/// Runs a per-message step over the input: the whole input as one message, or with
/// `--ndjson` one message a line (SPEC §7).
///
/// In NDJSON mode a line is a JSON string (the message, written in `--from`) or an object
/// with `text` and optionally `id` and `entities` (given entities make the object a Bot API
/// message, and `--from` is not applied). Each output line carries the input's `id`, or
/// its 1-based line number. A line that fails gives, in its place, an error record
/// `{"id":…,"line":N,"error":"reason","offset":B}` (`offset`: the byte offset in the
/// message where known), every other line is still processed, and the run ends with
/// exit status 1.
struct MessageBatch {
    let input: InputSource
    let format: InputFormat
    let ndjson: Bool

    /// One output for one message: the bytes of one line (no newline), or a failure.
    typealias Step = (_ message: Message, _ id: [UInt8]?) throws -> [UInt8]

    /// Runs `step` over every message, writing its output lines to standard output.
    func run(_ step: Step) throws(CommandLineError) {
        if format == .export {
            try runExport(step)
            return
        }
        if !ndjson {
            var bytes = try input.readAll()
            // The newline that ends a file (or `echo`) ends the input, not the message.
            if bytes.last == UInt8(ascii: "\n") {
                bytes.removeLast()
                if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            }
            let message: Message
            do {
                message = try MessageParser.parse(bytes, from: format)
            } catch {
                throw .failure("\(input.name): \(error.reason)")
            }
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
        try input.forEachLine { (line, number) throws(CommandLineError) in
            var bytes = Array(line)
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }  // blank lines are skipped
            let lineID = Array(String(number).utf8)
            var id = lineID
            do {
                let record = try NDJSONRecord(bytes, format: format)
                if let given = record.id { id = given }
                let out = try step(record.message, id)
                StandardStreams.write(out)
                StandardStreams.write([UInt8(ascii: "\n")])
            } catch let e as CommandLineError {
                throw e
            } catch {
                failures += 1
                StandardStreams.write(MessageBatch.errorRecord(id: id, line: number, error: error))
                StandardStreams.write([UInt8(ascii: "\n")])
                let reason = (error as? ParseError)?.reason ?? "\(error)"
                StandardStreams.flush()
                StandardStreams.writeError("error: \(input.name): line \(number): \(reason)\n")
            }
        }
        StandardStreams.flush()
        if failures > 0 { throw .recordsFailed(failures) }
    }

    /// The error record written in place of a failed line.
    static func errorRecord(id: [UInt8], line: Int, error: any Error) -> [UInt8] {
        var w = JSONWriter()
        w.object { w in
            w.key("id"); w.raw(id)
            w.key("line"); w.number(line)
            if let e = error as? ParseError {
                w.key("error"); w.string(e.reason)
                w.key("kind"); w.string(e.kind.rawValue)
                if let p = e.position {
                    w.key("offset"); w.number(p.utf8Offset)
                }
            } else {
                w.key("error"); w.string("\(error)")
            }
        }
        return w.bytes
    }

    /// A Telegram Desktop export, read as a stream of messages.
    private func runExport(_ step: Step) throws(CommandLineError) {
        throw .failure("reading Telegram exports is not implemented yet")
    }
}

/// One NDJSON input line.
struct NDJSONRecord {
    /// The `id` as it was written (raw JSON), if the line had one.
    var id: [UInt8]?
    var message: Message

    init(_ bytes: [UInt8], format: InputFormat) throws(ParseError) {
        if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw ParseError.invalidUTF8(at: bad, in: bytes)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw ParseError(error)
        }
        switch value {
        case .string(let text):
            message = try MessageParser.parse(Array(text.utf8), from: format)
        case .object:
            if let idValue = value["id"] {
                switch idValue {
                case .number, .string: id = Array(idValue.jsonString.utf8)
                default: throw ParseError(.invalidJSON, "'id' must be a number or a string")
                }
            }
            guard let textValue = value["text"] ?? value["caption"] else {
                throw ParseError(.invalidJSON, "the object has no 'text'")
            }
            guard let text = textValue.stringValue else {
                throw ParseError(.invalidJSON, "'text' must be a string")
            }
            if value["entities"] != nil || value["caption_entities"] != nil {
                message = try MessageParser.parse(Array(value.jsonString.utf8), from: .botapi)
            } else {
                message = try MessageParser.parse(Array(text.utf8), from: format)
            }
        default:
            throw ParseError(.invalidJSON, "each line must be a JSON string or an object with 'text'")
        }
    }
}
