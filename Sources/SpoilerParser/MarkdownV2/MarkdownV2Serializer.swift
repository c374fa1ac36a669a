import SpoilerCore

/// Not yet written.
enum MarkdownV2Serializer {
    static func serialize(_ message: Message) -> String { message.text }
}
