public import SpoilerCore

/// One line of NDJSON input (`--ndjson`): a message, and the `id` its output line carries.
///
/// A line is a JSON string (the message, written in the given format) or an object with
/// `text` (or `caption`) and optionally `id` and `entities` (or `caption_entities`): an
/// object with entities is a Bot API message, and the format is not applied to it. A
/// trailing `\r` is dropped, and a line of nothing but spaces and tabs is no record at all
/// (the initialiser returns nil; a line filter writes ``emptyLineError`` in its place, so that
/// its output lines still match its input lines one to one). Under `matrix` or `signal` an object line is that format's JSON object
/// itself (a Matrix content object or event, a signal-cli message), optionally with an `id`.
/// The `id` is kept as it was written (raw JSON, a number or a string),
/// even when the message fails, so that the error record carries it; without one the
/// caller uses the 1-based line number for an output line, and `null` for an error record
/// (a line number is no id: it would clash with real ids, and restarts in every chunk of a
/// split input).
///
/// ```swift
/// let record = NDJSONRecord(line: Array(#"{"id":7,"text":"hi ||there||"}"#.utf8), format: .plain)
/// // record?.id == Array("7".utf8); try record?.result.get().text == "hi there"
/// ```
///
/// A line that fails is written as ``errorRecord(id:line:error:)`` in its place.
public struct NDJSONRecord: Sendable, Hashable {
    /// The `id` as it was written (raw JSON), if the line had a usable one.
    public var id: [UInt8]?
    /// The message, or why the line could not be read.
    public var result: Result<Message, ParseError>
    /// When the line itself is malformed (a JSON syntax error, invalid UTF-8), the 1-based
    /// column of the error in the line, counted in bytes; nil when the line is fine or the
    /// error is inside the message it holds (whose position counts in the message's text).
    ///
    /// A program reporting the error names one place with it, `file:LINE:COLUMN: reason`,
    /// or `file:LINE: reason` without it.
    public var errorColumn: Int?

    /// Reads one NDJSON line (without its `\n`), or nil for a blank line.
    ///
    /// - Parameters:
    ///   - line: The line's bytes; a final `\r` is ignored.
    ///   - format: The markup of a message given as a JSON string or a `text` without entities;
    ///     under `matrix` and `signal`, also the form of an object line.
    ///   - options: How a message is read (``ParseOptions/spoilerReasons``).
    public init?(line: some Collection<UInt8>, format: InputFormat, options: ParseOptions = ParseOptions()) {
        var bytes = Array(line)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
        var id: [UInt8]?
        var lineIsMalformed = false
        result = Result { () throws(ParseError) -> Message in
            try NDJSONRecord.message(
                bytes, format: format, options: options, id: &id, lineIsMalformed: &lineIsMalformed)
        }
        self.id = id
        if lineIsMalformed, case .failure(let e) = result { errorColumn = e.position?.column }
    }

    /// Why a blank line gives an error record: `empty line`, of kind ``ParseError/Kind/invalidJSON``.
    public static let emptyLineError = ParseError(.invalidJSON, "empty line")

    /// The error record written in place of a failed line:
    /// `{"id":…,"line":N,"error":"reason","kind":"syntax","offset":B}`.
    ///
    /// `kind` and `offset` (the byte offset in the message) come from a ``ParseError``; any
    /// other error gives its description as `error`.
    ///
    /// - Parameters:
    ///   - id: The record's id as raw JSON (the input's own `id`), or nil for a line that gave
    ///     none, written `"id":null`.
    ///   - line: The 1-based input line, if the input has lines (nil for an export message).
    ///   - error: Why the line failed.
    /// - Returns: One line of JSON, without a newline.
    public static func errorRecord(id: [UInt8]?, line: Int?, error: any Error) -> [UInt8] {
        var w = JSONWriter()
        w.object { w in
            w.key("id")
            if let id { w.raw(id) } else { w.null() }
            if let line { w.key("line"); w.number(line) }
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

    private static func message(
        _ bytes: [UInt8], format: InputFormat, options: ParseOptions, id: inout [UInt8]?, lineIsMalformed: inout Bool
    ) throws(ParseError) -> Message {
        // A line that parses as JSON is valid UTF-8 (the JSON reader checks every string
        // and allows only ASCII outside them), so the bytes are checked only on failure,
        // where invalid UTF-8 is the better error.
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            lineIsMalformed = true
            if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
                throw ParseError.invalidUTF8(at: bad, in: bytes)
            }
            throw ParseError(error)
        }
        switch value {
        case .string(let text):
            return try MessageParser.parse(text, from: format, options: options)
        case .object where format == .matrix || format == .signal:
            try readID(of: value, into: &id)
            return format == .matrix ? try MatrixParser.message(from: value) : try SignalParser.message(from: value)
        case .object:
            try readID(of: value, into: &id)
            guard let textValue = value["text"] ?? value["caption"] else {
                throw ParseError(.invalidJSON, "the object has no 'text'")
            }
            guard let text = textValue.stringValue else {
                throw ParseError(.invalidJSON, "'text' must be a string")
            }
            if value["entities"] != nil || value["caption_entities"] != nil {
                return try BotAPIParser.message(from: value)
            }
            return try MessageParser.parse(text, from: format, options: options)
        default:
            throw ParseError(.invalidJSON, "each line must be a JSON string or an object with 'text'")
        }
    }

    /// Keeps the object's `id` (a number or a string, as raw JSON) for the output line.
    private static func readID(of value: JSONValue, into id: inout [UInt8]?) throws(ParseError) {
        guard let idValue = value["id"] else { return }
        switch idValue {
        case .number, .string: id = Array(idValue.jsonString.utf8)
        default: throw ParseError(.invalidJSON, "'id' must be a number or a string")
        }
    }
}
