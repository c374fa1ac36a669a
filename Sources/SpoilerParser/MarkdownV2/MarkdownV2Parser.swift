import SpoilerCore

/// Not yet written.
enum MarkdownV2Parser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        throw ParseError(.unsupported, "MarkdownV2Parser is not implemented yet")
    }
}
