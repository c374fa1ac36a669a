public import SpoilerCore

/// Turns one input message, in any ``InputFormat`` but `export`, into a ``Message``.
public enum MessageParser {
    /// Parses `bytes` as one message written in `format`.
    ///
    /// Every format but `markdown` requires valid UTF-8 (as Telegram does) and reports
    /// the byte offset of the first invalid sequence; `markdown` replaces invalid
    /// sequences with U+FFFD, as cmark-gfm does. A Telegram export holds many messages:
    /// use ``ExportReader`` for it.
    ///
    /// - Parameters:
    ///   - bytes: the message.
    ///   - format: what it is written in.
    ///   - options: how to read it (``ParseOptions/spoilerReasons``).
    /// - Throws: ``ParseError`` naming the position and the reason; an input of more than
    ///   ``Entity/maxUTF16Offset`` bytes is refused before it is read.
    public static func parse(
        _ bytes: [UInt8], from format: InputFormat, options: ParseOptions = ParseOptions()
    ) throws(ParseError) -> Message {
        try checkSize(bytes.count)
        return try parse(
            validUTF8: format == .markdown ? bytes : ParseError.checkedUTF8(bytes), from: format, options: options)
    }

    /// Refuses an input of more bytes than an entity can count UTF-16 code units
    /// (``Entity/maxUTF16Offset``): no text made from it could be addressed.
    static func checkSize(_ byteCount: Int) throws(ParseError) {
        guard byteCount > Entity.maxUTF16Offset else { return }
        throw ParseError(
            .unsupported,
            "the message is \(byteCount) bytes; a message holds at most \(Entity.maxUTF16Offset) "
                + "(entity offsets count UTF-16 code units in 31 bits)")
    }

    /// Parses `text` as one message written in `format`.
    ///
    /// A String is valid UTF-8 already, so it is not checked again.
    public static func parse(
        _ text: String, from format: InputFormat, options: ParseOptions = ParseOptions()
    ) throws(ParseError) -> Message {
        try checkSize(text.utf8.count)
        return try parse(validUTF8: Array(text.utf8), from: format, options: options)
    }

    private static func parse(
        validUTF8 bytes: [UInt8], from format: InputFormat, options: ParseOptions
    ) throws(ParseError) -> Message {
        switch format {
        case .plain:
            return options.spoilerReasons
                ? try PlainParser.parseWithReasons(validUTF8: bytes) : try PlainParser.parse(validUTF8: bytes)
        case .markdownV2: return try MarkdownV2Parser.parse(validUTF8: bytes)
        case .html: return try HTMLParser.parse(validUTF8: bytes)
        case .markdown: return try MarkdownParser.parse(bytes)
        case .botAPI: return try BotAPIParser.parse(validUTF8: bytes)
        case .matrix: return try MatrixParser.parse(bytes)
        case .discord: return DiscordParser.parse(bytes, spoilerReasons: options.spoilerReasons)
        case .reddit: return try RedditParser.parse(bytes)
        case .signal: return try SignalParser.parse(bytes)
        case .export:
            throw ParseError(.unsupported, "a Telegram export holds many messages: read it with ExportReader")
        }
    }
}

/// Writes a ``Message`` in any ``OutputFormat``.
public enum MessageSerializer {
    /// `message` written as `format`, without the warnings (see
    /// ``serialize(_:to:options:)`` for them).
    public static func serialize(_ message: Message, to format: OutputFormat) -> String {
        serialize(message, to: format, options: SerializationOptions()).output
    }

    /// `message` written as `format`, with what the format could not carry.
    ///
    /// A spoiler's reason (``Entity/reason``) is carried by `json`, `matrix`
    /// (`data-mx-spoiler="…"`) and `discord` (`(reason) ||text||`); every other format drops
    /// it, and the result has a ``SerializationWarning`` for each one dropped.
    ///
    /// ```swift
    /// let m = Message(text: "a twist", entities: [Entity(.spoiler, offset: 2, length: 5, reason: "plot")])
    /// let preview = MessageSerializer.serialize(m, to: .preview, options: SerializationOptions())
    /// // preview.output == "a ▒▒▒▒"; preview.warnings[0].reason == "plot"
    /// ```
    public static func serialize(
        _ message: Message, to format: OutputFormat, options: SerializationOptions
    ) -> SerializedMessage {
        let output: String
        switch format {
        case .json: output = message.jsonString
        case .markdownV2: output = MarkdownV2Serializer.serialize(message)
        case .html: output = HTMLSerializer.serialize(message)
        case .markdown: output = MarkdownSerializer.serialize(message)
        case .plain: output = message.text
        case .plainMarkup: output = PlainSerializer.serialize(message)
        case .matrix: output = MatrixSerializer.serialize(message)
        case .discord: output = DiscordSerializer.serialize(message)
        case .reddit: output = RedditSerializer.serialize(message)
        case .signal: output = SignalSerializer.serialize(message)
        case .slack: output = SlackSerializer.serialize(message, options: options.preview)
        case .preview: output = PreviewSerializer.serialize(message, options: options.preview)
        }
        switch format {
        case .json, .matrix, .discord:
            return SerializedMessage(output: output)
        default:
            return SerializedMessage(
                output: output, warnings: SerializationWarning.droppedReasons(in: message, format: format))
        }
    }
}
