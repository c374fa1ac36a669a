public import SpoilerCore
public import SpoilerParser

extension ChunkedDocument {
    /// Opens the file at `path`, written in `format`, to be read a chunk at a time, as
    /// `spoiler read` reads a file of a megabyte or more: plain chat text, Markdown,
    /// MarkdownV2 and Telegram HTML cut where their markup allows (each chunk hiding what
    /// the whole file's parse hides; see ``ChunkBoundaryScanner/Rule``), a Telegram Desktop
    /// export (of one chat or a whole account) a few messages a chunk, each under its sender
    /// and date (``ChatLog``).
    ///
    /// ```swift
    /// if let document = try ChunkedDocument(path: "notes.txt", format: .plain) {
    ///     let first = document.chunk(at: 0)?.message
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file; it stays open until the document goes away.
    ///   - format: How the file is written.
    ///   - options: How spoilers are read (``ParseOptions/spoilerReasons``: a chunk that
    ///     starts inside a spoiler takes none of its text as the spoiler's reason).
    /// - Returns: The document, or nil for a file that is not read a chunk at a time: Bot
    ///   API JSON (one object, ``MessageParser``) and the other platforms' messages (Matrix,
    ///   Discord, Reddit, Signal). An export is read a chunk at a time whether it is one
    ///   chat's (a top-level `messages` array) or a whole account's (the `messages` of each
    ///   chat of `chats.list` and `left_chats.list`, one after the other, as ``ExportReader``
    ///   reads them); nil for one with neither.
    /// - Throws: ``TerminalError/system(call:errno:)`` from `open` or `fstat`.
    public convenience init?(
        path: String, format: InputFormat, options: ParseOptions = ParseOptions()
    ) throws(TerminalError) {
        let failed: Failure = { error in Message(text: "[could not be read: \(error.located(in: path))]") }
        switch format {
        case .plain, .markdown, .markdownV2, .html:
            let rule: ChunkBoundaryScanner.Rule =
                switch format {
                case .markdown: .markdownBlocks
                case .plain: .plainText
                case .markdownV2: .markdownV2Text
                default: .htmlText
                }
            try self.init(
                path: path, rule: rule, separator: format == .markdown ? "\n\n" : "\n",
                parse: { bytes, part throws(ParseError) in
                    try ChunkedDocument.message(ofChunk: bytes, part: part, format: format, options: options)
                }, failed: failed)
        case .export:
            try self.init(path: path, rule: .exportMessages, separator: "\n\n") { bytes, _ in
                ChunkedDocument.chatLog(ofExportChunk: bytes, failed: failed)
            }
            if chunk(at: 0) == nil { return nil }
        case .botAPI, .matrix, .discord, .reddit, .signal:
            return nil
        }
    }

    /// The message of one chunk of a plain, Markdown, MarkdownV2 or HTML file (`part` says
    /// where it lies), parsed as ``init(path:format:options:)`` parses it.
    ///
    /// Under ``ParseOptions/spoilerReasons``, plain text's `||reason|text||` gives a spoiler
    /// the text before its first `|` as its reason. A chunk that starts inside a spoiler is
    /// parsed after a `||` that reopens it, and its text before a `|` of its own is no
    /// reason: that spoiler's reason came before the chunk (the whole file's parse takes the
    /// first `|` only). A stand-in reason goes after the `||`, so that the split takes
    /// nothing of the chunk's text, and is taken off the entity again.
    ///
    /// - Throws: The chunk's ``ParseError``.
    public static func message(
        ofChunk bytes: [UInt8], part: Part, format: InputFormat, options: ParseOptions
    ) throws(ParseError) -> Message {
        let pipes: [UInt8] = [UInt8(ascii: "|"), UInt8(ascii: "|")]
        guard format == .plain, options.spoilerReasons, part.reopenedBytes >= 2, bytes.starts(with: pipes) else {
            return try MessageParser.parse(bytes, from: format, options: options)
        }
        let standIn: [UInt8] = Array("r|".utf8)
        var message = try MessageParser.parse(pipes + standIn + bytes.dropFirst(2), from: format, options: options)
        if let k = message.entities.firstIndex(where: { $0.type == .spoiler && $0.offset == 0 && $0.reason == "r" }) {
            message.entities[k].reason = nil
        }
        return message
    }

    /// The chat log (``ChatLog``) of one chunk of an export's `messages` array: message
    /// objects separated by commas, as ``ChunkBoundaryScanner/Rule/exportMessages`` cuts
    /// them. In a whole-account export the last chunk of a chat runs on to the next chat's
    /// first message: what follows the bracket that closes the chat's array is left out.
    /// A chunk that does not read is the message `failed` makes of its error.
    public static func chatLog(ofExportChunk bytes: [UInt8], failed: Failure) -> Message {
        var body = bytes[..<endOfArrayContent(bytes)]
        while let last = body.last, last == 0x2C || last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 {
            body.removeLast()
        }
        let reader = ExportReader()
        var items: [ExportItem] = []
        do throws(ParseError) {
            try reader.feed(Array(#"{"messages":["#.utf8) + body + Array("]}".utf8), into: &items)
            try reader.finish(into: &items)
        } catch {
            return failed(error)
        }
        var log = ChatLog()
        for item in items { log.append(item) }
        return log.message
    }

    /// Where the values of an array that `bytes` are the inside of end: at the first `]`
    /// that closes more than `bytes` opened (outside strings), else at the end. (A `}` that
    /// does is a syntax error, left for the reader to say.)
    static func endOfArrayContent(_ bytes: [UInt8]) -> Int {
        var depth = 0
        var inString = false
        var escaped = false
        for (k, b) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if b == 0x5C {
                    escaped = true
                } else if b == 0x22 {
                    inString = false
                }
                continue
            }
            switch b {
            case 0x22: inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]") where depth == 0: return k
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(0, depth - 1)
            default: break
            }
        }
        return bytes.count
    }
}
