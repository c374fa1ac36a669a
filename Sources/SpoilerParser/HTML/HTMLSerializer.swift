import SpoilerCore

/// Not yet written.
enum HTMLSerializer {
    static func serialize(_ message: Message) -> String { message.text }
}
