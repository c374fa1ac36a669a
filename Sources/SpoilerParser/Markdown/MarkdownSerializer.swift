import SpoilerCore

/// Not yet written.
enum MarkdownSerializer {
    static func serialize(_ message: Message) -> String { message.text }
}
