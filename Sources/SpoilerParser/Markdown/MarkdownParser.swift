import SpoilerCore

/// Not yet written.
enum MarkdownParser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        throw ParseError(.unsupported, "MarkdownParser is not implemented yet")
    }
}
