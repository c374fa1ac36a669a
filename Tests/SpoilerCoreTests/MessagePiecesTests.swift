import SpoilerCore
import Testing

/// `write(inPiecesOf:)` writes exactly the bytes of `write(to:)`, whatever the piece size.
@Suite struct MessagePiecesTests {
    static let messages: [Message] = [
        Message(text: ""),
        Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]),
        Message(
            text: "a \"quoted\"\n\u{1}link",
            entities: [
                Entity(.textLink, offset: 0, length: 1, url: "https://example.com/?a=\"b\""),
                Entity(.pre, offset: 2, length: 8, language: "swift"),
                Entity(.spoiler, offset: 11, length: 4, reason: "the ending"),
            ]),
        Message(
            text: String(repeating: "ab ", count: 2_000),
            entities: (0..<2_000).map { Entity(.spoiler, offset: $0 * 3, length: 2) }),
    ]

    @Test(arguments: [1, 7, 100, 1 << 16])
    func piecesAreTheWholeJSON(piece: Int) {
        for message in MessagePiecesTests.messages {
            for id in [nil, Array("17".utf8)] {
                var whole = JSONWriter()
                message.write(to: &whole, id: id)
                var pieces: [[UInt8]] = []
                message.write(id: id, inPiecesOf: piece) { pieces.append($0) }
                #expect(pieces.joined().elementsEqual(whole.bytes))
                if message.entities.count > 100 && piece <= 100 { #expect(pieces.count > 100) }
            }
        }
    }
}
