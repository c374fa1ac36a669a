import SpoilerCore
import SpoilerLayout
import SpoilerTestSupport
import Testing

/// The geometry JSON is written a piece at a time (issue 17): `spoiler layout` of a message
/// with many spoilers holds neither its word boxes nor its JSON whole, and the pieces are
/// the JSON the layout gives.
@Suite struct LayoutJSONStreamingTests {
    /// A message of `count` spoilers, words of mixed scripts, some wrapping.
    static func longMessage(spoilers count: Int) -> Message {
        var text = ""
        var entities: [Entity] = []
        let words = ["ab", "é👍", "中文字", "x\u{301}y", "long-word-that-wraps-here"]
        for k in 0..<count {
            text += "t "
            let start = text.utf16.count
            text += words[k % words.count] + " " + words[(k + 1) % words.count]
            entities.append(Entity(.spoiler, offset: start, length: text.utf16.count - start))
            text += k % 7 == 0 ? "\n" : " "
        }
        return Message(text: text, entities: entities)
    }

    @Test func piecesMakeTheLayoutsJSONAndStaySmall() {
        let message = Self.longMessage(spoilers: 4000)
        for engine in [LayoutEngine(), LayoutEngine(wrapWidth: 30)] {
            for redact in [false, true] {
                let whole = engine.layout(message, includeGraphemes: false).jsonBytes(redact: redact)
                var joined: [UInt8] = []
                var largest = 0
                engine.writeJSON(of: message, redact: redact) { piece in
                    joined += piece
                    largest = max(largest, piece.count)
                }
                #expect(joined == whole)
                #expect(whole.count > 4 << 16, "long enough to need pieces")
                #expect(largest < (1 << 16) + (1 << 14))
            }
        }
    }

    @Test func aLayoutsJSONInPiecesIsItsJSON() {
        let layout = LayoutEngine(wrapWidth: 20).layout(Self.longMessage(spoilers: 3000), includeGraphemes: false)
        var joined: [UInt8] = []
        var largest = 0
        layout.writeJSON(id: Array("7".utf8), redact: false) { piece in
            joined += piece
            largest = max(largest, piece.count)
        }
        #expect(joined == layout.jsonBytes(id: Array("7".utf8)))
        #expect(largest < (1 << 16) + (1 << 15))
    }

    @Test func shortMessagesComeInOnePiece() {
        forAll({ LayoutJSONStreamingTests.longMessage(spoilers: Int($0.next() % 5)) }, count: 20) { message in
            var pieces: [[UInt8]] = []
            LayoutEngine().writeJSON(of: message, redact: false) { pieces.append($0) }
            return pieces == [LayoutEngine().layout(message).jsonBytes()]
        }
    }
}
