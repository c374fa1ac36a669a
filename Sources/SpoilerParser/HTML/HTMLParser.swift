import SpoilerCore

/// Not yet written.
enum HTMLParser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        throw ParseError(.unsupported, "HTMLParser is not implemented yet")
    }
}
