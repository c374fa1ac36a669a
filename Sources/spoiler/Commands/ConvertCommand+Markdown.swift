import SpoilerCore
import SpoilerParser

/// `spoiler convert --from markdown --to html|markdown`: the document goes through
/// libcmark-gfm's own renderers (`MarkdownRenderer`), so the output keeps the document's
/// structure (headings, lists, tables…) instead of passing through a flattened Message.
/// With no `||` in the input, `--to html` is byte for byte `cmark-gfm --validate-utf8
/// -e table -e strikethrough -e autolink -e tagfilter -e tasklist`.
extension ConvertCommand {
    /// Whether `from` → `to` is rendered straight from the Markdown document.
    static func rendersMarkdownDirectly(from: InputFormat, to: OutputFormat) -> Bool {
        from == .markdown && (to == .html || to == .markdown)
    }

    static func renderMarkdown(_ bytes: [UInt8], to: OutputFormat) -> [UInt8] {
        to == .html ? MarkdownRenderer.html(bytes) : MarkdownRenderer.commonMark(bytes)
    }

    /// Runs the direct Markdown rendering over the whole input or, with `ndjson`, over each
    /// line (a JSON string, or an object with `text` and optionally `id`), writing
    /// `{"id":…,"html":"…"}` records and error records as `MessageBatch` does.
    static func runMarkdown(
        input: InputSource, to: OutputFormat, ndjson: Bool, policy: RecordPolicy = RecordPolicy()
    ) throws(CommandLineError) {
        if !ndjson {
            let bytes = try input.readAll()
            // Invalid UTF-8 is an error here as in every command (cmark-gfm alone would
            // read it as U+FFFD), with the line and column of the first invalid sequence.
            if let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
                throw .failure(ParseError.invalidUTF8(at: bad, in: bytes).located(in: input.name))
            }
            StandardStreams.write(renderMarkdown(bytes, to: to))
            StandardStreams.flush()
            return
        }
        try MessageBatch.runLines(input: input, jobs: 1, policy: policy) { line, number in
            markdownOutcome(of: line, number: number, to: to)
        }
    }

    /// One NDJSON line rendered straight from Markdown: `{"id":…,"html":"…"}`, or its error
    /// record (id: the line's own, or null).
    static func markdownOutcome(of line: UnsafeBufferPointer<UInt8>, number: Int, to: OutputFormat)
        -> MessageBatch.LineOutcome
    {
        var bytes = Array(line)
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            return MessageBatch.failed(id: nil, line: number, NDJSONRecord.emptyLineError)
        }
        var id: [UInt8]?
        var column: Int?
        do throws(ParseError) {
            let value: JSONValue
            do throws(ParseError) {
                value = try ParseError.parsingJSON(bytes)
            } catch {
                // As NDJSONRecord words it: invalid UTF-8 is the better error.
                let e =
                    UTF8Validation.firstInvalidOffset(in: bytes).map { ParseError.invalidUTF8(at: $0, in: bytes) }
                    ?? error
                column = e.position?.column
                throw e
            }
            if let given = value["id"] {
                switch given {
                case .number, .string: id = Array(given.jsonString.utf8)
                default: throw ParseError(.invalidJSON, "'id' must be a number or a string")
                }
            }
            guard let text = (value.stringValue ?? (value["text"] ?? value["caption"])?.stringValue) else {
                throw ParseError(.invalidJSON, "each line must be a JSON string or an object with 'text'")
            }
            let out = renderMarkdown(Array(text.utf8), to: to)
            var w = JSONWriter()
            w.object { w in
                w.key("id"); w.raw(id ?? Array(String(number).utf8))
                w.key(to.rawValue); w.string(String(decoding: out, as: UTF8.self))
            }
            return .output(w.bytes)
        } catch {
            return MessageBatch.failed(id: id, line: number, error, column: column)
        }
    }
}
