public import SpoilerCore

extension MessageParser {
    /// Reads a whole input (a file, standard input, a pasted block) as one message written
    /// in `format`, as every `spoiler` command does without `--ndjson`.
    ///
    /// The newline that ends the input (`\n` or `\r\n`, as a file or `echo` ends) ends the
    /// input, not the message, so it is dropped; every other byte is the message's.
    ///
    /// Invalid UTF-8 is an error in every format, `markdown` included (where parsing bytes
    /// with ``MessageParser`` alone reads it as U+FFFD, as cmark-gfm does), so
    /// that every command treats a file the same: the error names the line and column of
    /// the first invalid sequence, and nothing of the input is guessed at.
    ///
    /// ```swift
    /// let message = try MessageParser.parseWholeInput(Array("hi ||there||\n".utf8), from: .plain)
    /// // message.text == "hi there"
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The whole input.
    ///   - format: Its markup; a Telegram export (`export`) holds many messages and is an
    ///     error here (read it with ``ExportReader`` or as one ``ChatLog``).
    ///   - options: How to read it (``ParseOptions/spoilerReasons``).
    /// - Returns: The message.
    /// - Throws: ``ParseError`` with the position in `bytes` (line and column count the
    ///   input as given, final newline included); ``ParseError/located(in:)`` words it as
    ///   `name:line:column: reason`.
    public static func parseWholeInput(
        _ bytes: consuming [UInt8], from format: InputFormat, options: ParseOptions = ParseOptions()
    ) throws(ParseError) -> Message {
        // Consumed, so that dropping the final newline does not copy the whole input.
        if bytes.last == UInt8(ascii: "\n") {
            bytes.removeLast()
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        }
        if format == .markdown, let bad = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw ParseError.invalidUTF8(at: bad, in: bytes)
        }
        return try parse(bytes, from: format, options: options)
    }
}

extension ParseError {
    /// The error in compiler form for the input called `name`: `name:line:column: reason`,
    /// or `name: reason` when the error has no position.
    ///
    /// ```swift
    /// error.located(in: "<stdin>")  // "<stdin>:2:3: Can't find end of Spoiler entity at byte offset 5"
    /// ```
    ///
    /// - Parameter name: The input's path, or a name such as `<stdin>`.
    /// - Returns: One line of text, without a final newline.
    public func located(in name: String) -> String {
        guard let p = position else { return "\(name): \(reason)" }
        return "\(name):\(p.line):\(p.column): \(reason)"
    }
}
