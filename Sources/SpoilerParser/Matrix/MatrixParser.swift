public import SpoilerCore

/// Reads a Matrix `m.room.message` content object (`--from matrix`), as the Matrix
/// client-server spec defines it (spec.matrix.org, "m.room.message" and "Spoiler messages").
///
/// ```json
/// {"msgtype": "m.text", "body": "Alice [Spoiler] in the movie.",
///  "format": "org.matrix.custom.html",
///  "formatted_body": "Alice <span data-mx-spoiler>lived happily ever after</span> in the movie."}
/// ```
///
/// - With `"format": "org.matrix.custom.html"` and a `formatted_body`, the message is read
///   from the HTML (see `MatrixHTMLReader` for the tags); `body` is only the fallback
///   that other clients show and is not read. Otherwise `body` is the text, with no entities.
/// - A whole event (`{"type": "m.room.message", "content": {…}}`) is unwrapped.
/// - A spoiler's reason (`data-mx-spoiler="reason"`) becomes ``Entity/reason``.
/// - HTML is never an error: unknown tags give their text, unclosed ones end with the
///   message, as in Matrix clients and mautrix. Errors are about the JSON: a syntax error
///   (with its line and column), a content that is not an object, a missing or non-string
///   `body`, a `format` or `formatted_body` that is not a string, a `msgtype` that is not a
///   string.
public enum MatrixParser {
    /// The HTML format name Matrix uses for `formatted_body`.
    public static let htmlFormat = "org.matrix.custom.html"

    /// Parses `bytes` (valid UTF-8) as one content object.
    ///
    /// - Throws: ``ParseError`` of kind `invalidJSON` naming the line and column or the member.
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        if let m = plainMessage(bytes) { return m }
        return try message(from: ParseError.parsingJSON(bytes))
    }

    /// The message of a content object of string members `msgtype`, `body`, `format` and
    /// `formatted_body` (each at most once, `body` present), read by ``FlatJSONReader``
    /// without a ``JSONValue`` tree, the HTML handed on as bytes; nil for anything else,
    /// which ``message(from:)`` then reads or names the error of.
    static func plainMessage(_ bytes: [UInt8]) -> Message? {
        var reader = FlatJSONReader(bytes)
        var msgtype: JSONStringRange?
        var body: JSONStringRange?
        var format: JSONStringRange?
        var html: JSONStringRange?
        let read = reader.members { r, key in
            guard let value = r.stringRange() else { return false }
            if r.range(key, is: "body"), body == nil {
                body = value
            } else if r.range(key, is: "formatted_body"), html == nil {
                html = value
            } else if r.range(key, is: "format"), format == nil {
                format = value
            } else if r.range(key, is: "msgtype"), msgtype == nil {
                msgtype = value
            } else {
                return false
            }
            return true
        }
        guard read, reader.atEnd(), let body else { return nil }
        if let format, reader.range(format, is: "org.matrix.custom.html"), let html {
            let b = reader.bytes(of: html)
            return MatrixHTMLReader.inlineMessage(b)
                ?? MatrixHTMLReader.treeMessage(fromHTML: String(decoding: b, as: UTF8.self))
        }
        return Message(text: String(decoding: reader.bytes(of: body), as: UTF8.self))
    }

    /// The message in an already parsed content object (or event).
    ///
    /// - Throws: ``ParseError`` of kind `invalidJSON` naming the member that is wrong.
    public static func message(from value: JSONValue) throws(ParseError) -> Message {
        guard case .object = value else {
            throw ParseError(.invalidJSON, "expected a Matrix content object: {\"msgtype\": \"m.text\", \"body\": …}")
        }
        if value["body"] == nil, let content = value["content"], case .object = content {
            return try message(from: content)
        }
        if let msgtype = value["msgtype"], msgtype.stringValue == nil {
            throw ParseError(.invalidJSON, "Matrix content: 'msgtype' must be a string")
        }
        guard let bodyValue = value["body"] else {
            throw ParseError(.invalidJSON, "Matrix content: 'body' is required")
        }
        guard let body = bodyValue.stringValue else {
            throw ParseError(.invalidJSON, "Matrix content: 'body' must be a string")
        }
        var format: String?
        if let f = value["format"], f != .null {
            guard let s = f.stringValue else {
                throw ParseError(.invalidJSON, "Matrix content: 'format' must be a string")
            }
            format = s
        }
        var html: String?
        if let h = value["formatted_body"], h != .null {
            guard let s = h.stringValue else {
                throw ParseError(.invalidJSON, "Matrix content: 'formatted_body' must be a string")
            }
            html = s
        }
        if format == htmlFormat, let html {
            return MatrixHTMLReader.message(fromHTML: html)
        }
        return Message(text: body)
    }

    /// The message in a `formatted_body` alone, read as a mautrix bridge reads it.
    ///
    /// ```swift
    /// let m = MatrixParser.message(fromHTML: "a <span data-mx-spoiler=\"plot\">twist</span>")
    /// // m.text == "a twist"; m.entities[0].reason == "plot"
    /// ```
    public static func message(fromHTML html: String) -> Message {
        MatrixHTMLReader.message(fromHTML: html)
    }
}
