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
    /// - Throws: ``ParseError`` naming the position and the reason.
    public static func parse(_ bytes: [UInt8], from format: InputFormat) throws(ParseError) -> Message {
        try parse(validUTF8: format == .markdown ? bytes : ParseError.checkedUTF8(bytes), from: format)
    }

    /// Parses `text` as one message written in `format`.
    ///
    /// A String is valid UTF-8 already, so it is not checked again.
    public static func parse(_ text: String, from format: InputFormat) throws(ParseError) -> Message {
        try parse(validUTF8: Array(text.utf8), from: format)
    }

    private static func parse(validUTF8 bytes: [UInt8], from format: InputFormat) throws(ParseError) -> Message {
        switch format {
        case .plain: return try PlainParser.parse(validUTF8: bytes)
        case .markdownV2: return try MarkdownV2Parser.parse(validUTF8: bytes)
        case .html: return try HTMLParser.parse(validUTF8: bytes)
        case .markdown: return try MarkdownParser.parse(bytes)
        case .botAPI: return try BotAPIParser.parse(validUTF8: bytes)
        case .export:
            throw ParseError(.unsupported, "a Telegram export holds many messages: read it with ExportReader")
        }
    }
}

/// Writes a ``Message`` in any ``OutputFormat``.
public enum MessageSerializer {
    /// `message` written as `format`.
    public static func serialize(_ message: Message, to format: OutputFormat) -> String {
        switch format {
        case .json: return message.jsonString
        case .markdownV2: return MarkdownV2Serializer.serialize(message)
        case .html: return HTMLSerializer.serialize(message)
        case .markdown: return MarkdownSerializer.serialize(message)
        case .plain: return message.text
        case .plainMarkup: return PlainSerializer.serialize(message)
        }
    }
}
