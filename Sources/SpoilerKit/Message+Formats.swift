public import SpoilerCore
public import SpoilerLayout
public import SpoilerParser

extension Message {
    /// Parses `text`, written in `format`, into a message.
    ///
    /// ```swift
    /// let message = try Message(parsing: "*bold* ||hidden||", as: .markdownV2)
    /// // message.text == "bold hidden"; a bold entity 0..<4 and a spoiler 5..<11
    /// ```
    ///
    /// The text is the message as it was written: nothing is trimmed (to read a file or
    /// standard input as a command does, dropping the newline that ends it, use
    /// ``MessageParser/parseWholeInput(_:from:options:)``). A Telegram export holds many messages:
    /// read it with ``ExportReader``, or as one log with ``ChatLog``.
    ///
    /// - Parameters:
    ///   - text: The message as written.
    ///   - format: The markup it is written in; `plain` (`||spoiler||` chat text) by default.
    /// - Throws: ``ParseError`` naming the position (line, column, byte and UTF-16
    ///   offsets) and the reason.
    public init(parsing text: String, as format: InputFormat = .plain) throws(ParseError) {
        self = try MessageParser.parse(text, from: format)
    }

    /// Parses `bytes`, written in `format`, into a message.
    ///
    /// Every format but `markdown` requires valid UTF-8 and reports the byte offset of the
    /// first invalid sequence; `markdown` reads invalid sequences as U+FFFD, as cmark-gfm does.
    ///
    /// - Parameters:
    ///   - bytes: The message as written, UTF-8.
    ///   - format: The markup it is written in; `plain` by default.
    /// - Throws: ``ParseError`` naming the position and the reason.
    public init(parsing bytes: [UInt8], as format: InputFormat = .plain) throws(ParseError) {
        self = try MessageParser.parse(bytes, from: format)
    }

    /// The message written in `format`: Telegram HTML, MarkdownV2, Markdown, the text alone,
    /// `||plain||` markup, or its JSON.
    ///
    /// ```swift
    /// let html = try Message(parsing: "hi ||there||").formatted(as: .html)
    /// // "hi <tg-spoiler>there</tg-spoiler>"
    /// ```
    ///
    /// HTML and MarkdownV2 read back as the same message (``HTMLSerializer`` and
    /// ``MarkdownV2Serializer`` say what each does with what it cannot write exactly).
    ///
    /// - Parameter format: The markup to write.
    /// - Returns: The message in that markup.
    public func formatted(as format: OutputFormat) -> String {
        MessageSerializer.serialize(self, to: format)
    }

    /// The message laid out: lines of graphemes, wrapped at `width`, and one rectangle per
    /// hidden word.
    ///
    /// ```swift
    /// let layout = try Message(parsing: "the butler ||did it||").layout(width: 40)
    /// // layout.words: "did" at column 11, "it" at column 15 (8 × 16 px cells)
    /// ```
    ///
    /// Coordinates are pixels from the layout's top-left corner, y downward.
    ///
    /// - Parameters:
    ///   - width: The wrap width: columns of a terminal cell grid, or pixels with a bitmap
    ///     font; nil (the default) wraps only at the message's own line breaks.
    ///   - font: A bitmap font (``BitmapFont/parse(_:file:)`` reads BDF, PSF and Unifont
    ///     `.hex`); nil (the default) measures in terminal cells of `cell` pixels.
    ///   - cell: The size of a terminal cell in pixels when `font` is nil; 8 × 16 by default.
    /// - Returns: The layout (``TextLayout``).
    public func layout(
        width: Int? = nil, font: BitmapFont? = nil, cell: SpoilerSize = SpoilerSize(width: 8, height: 16)
    ) -> TextLayout {
        LayoutEngine(
            model: font.map { .font($0) } ?? .mono(cellWidth: Int(cell.width), cellHeight: Int(cell.height)),
            wrapWidth: width
        ).layout(self)
    }
}
