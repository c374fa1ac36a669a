import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

/// HTML and MarkdownV2 are written a piece at a time (issue 17): the pieces make the
/// markup the whole-string serializers give, and none is much over 64 KB.
@Suite struct SerializerStreamingTests {
    static var writers: [(name: String, whole: (Message) -> String, pieces: (Message, ([UInt8]) -> Void) -> Void)] {
        [
            ("html", HTMLSerializer.serialize, HTMLSerializer.serialize(_:write:)),
            ("markdownv2", MarkdownV2Serializer.serialize, MarkdownV2Serializer.serialize(_:write:)),
        ]
    }

    /// Random messages joined into one long one, their entities moved along.
    static func longMessage(_ rng: inout SplitMix64, parts: Int) -> Message {
        var text = ""
        var entities: [Entity] = []
        for _ in 0..<parts {
            let m = MessageGenerator.randomMessage(&rng)
            let shift = text.utf16.count
            text += m.text
            for var e in m.entities {
                e.offset += shift
                entities.append(e)
            }
        }
        return Message(text: text, entities: entities)
    }

    @Test func piecesMakeTheWholeMarkupAndStaySmall() {
        var rng = SplitMix64(seed: 17)
        let message = Self.longMessage(&rng, parts: 3000)
        for writer in Self.writers {
            let whole = Array(writer.whole(message).utf8)
            var joined: [UInt8] = []
            var largest = 0
            writer.pieces(message) { piece in
                joined += piece
                largest = max(largest, piece.count)
            }
            #expect(joined == whole, "\(writer.name)")
            #expect(whole.count > 4 << 16, "\(writer.name): the message is long enough to need pieces")
            #expect(largest < (1 << 16) + 4096, "\(writer.name)")
        }
    }

    @Test func shortMessagesComeWholeInOnePiece() {
        forAll({ MessageGenerator.randomMessage(&$0) }, count: 300) { message in
            Self.writers.allSatisfy { writer in
                var pieces: [[UInt8]] = []
                writer.pieces(message) { pieces.append($0) }
                let whole = Array(writer.whole(message).utf8)
                return whole.isEmpty ? pieces.isEmpty : pieces == [whole]
            }
        }
    }
}
