import SpoilerCore

/// Not yet written.
enum BotAPIParser {
    static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        throw ParseError(.unsupported, "BotAPIParser is not implemented yet")
    }
}
