import SpoilerCore

/// Not yet written.
enum PlainParser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        throw ParseError(.unsupported, "PlainParser is not implemented yet")
    }
}
