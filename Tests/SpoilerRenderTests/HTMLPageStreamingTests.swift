import SpoilerCore
import SpoilerRender
import Testing

/// The HTML page is written a piece at a time (issue 17): a page for a long message never
/// sits whole in memory, and its pieces are the page.
@Suite struct HTMLPageStreamingTests {
    /// A message of `count` spoilers of two words each, with some bold text between.
    static func longMessage(spoilers count: Int) -> Message {
        var text = ""
        var entities: [Entity] = []
        for k in 0..<count {
            let start = text.utf16.count
            text += "é\(k) 👍x "
            entities.append(Entity(.spoiler, offset: start, length: text.utf16.count - start - 1))
            let plain = text.utf16.count
            text += "a<b "
            entities.append(Entity(.bold, offset: plain, length: 3))
        }
        return Message(text: text, entities: entities)
    }

    @Test func aLongPageComesInBoundedPiecesThatMakeThePage() {
        let message = Self.longMessage(spoilers: 5_000)
        for options in [
            HTMLOptions(),
            {
                var o = HTMLOptions(); o.redact = true; o.embed = true; return o
            }(),
        ] {
            var whole: [UInt8] = []
            HTMLRenderer.render(message, options: options, into: &whole)
            var joined: [UInt8] = []
            var largest = 0
            var pieces = 0
            HTMLRenderer.render(message, options: options) { piece in
                joined += piece
                largest = max(largest, piece.count)
                pieces += 1
            }
            let joinedIsWhole = joined == whole
            #expect(joinedIsWhole)
            // A piece is passed on once it holds 64 KB: one step (a word's item, a tag or
            // the runtime script) more at most.
            #expect(largest < (1 << 16) + 40_000)
            #expect(pieces > whole.count / (1 << 17))
        }
    }

    @Test func theWordListHoldsEveryHiddenWordInOrder() {
        let message = Message(
            text: "a bc\u{301} d e",
            entities: [Entity(.spoiler, offset: 2, length: 3), Entity(.spoiler, offset: 6, length: 1)])
        var page: [UInt8] = []
        HTMLRenderer.render(message, into: &page)
        let s = String(decoding: page, as: UTF8.self)
        // "bć" (2 graphemes) under spoiler 0, "d" under spoiler 1; "a" and "e" are text.
        #expect(s.contains("\"words\":[{\"s\":0,\"g\":2,\"t\":\"YmPMgQ==\"},{\"s\":1,\"g\":1,\"t\":\"ZA==\"}]});"))
    }

    /// The spoilers are read in place when the entities are in order, through a sorted
    /// copy otherwise: both give the same page.
    @Test func entitiesInOrderOrNotGiveTheSamePage() {
        let sorted = Self.longMessage(spoilers: 300)
        var entities = sorted.entities
        // The first bold goes last: the entities are out of order, the spoilers are not.
        let bold = entities.remove(at: entities.firstIndex { $0.type == .bold }!)
        let boldOnly = entities.filter { $0.type != .bold } + [bold]
        let inOrder = Message(text: sorted.text, entities: boldOnly)
        let outOfOrder = Message(text: sorted.text, unsortedEntities: boldOnly)
        var a: [UInt8] = []
        var b: [UInt8] = []
        HTMLRenderer.render(inOrder, into: &a)
        HTMLRenderer.render(outOfOrder, into: &b)
        #expect(inOrder.entities != outOfOrder.entities)
        let samePage = a == b
        #expect(samePage)
        #expect(String(decoding: a, as: UTF8.self).contains("{\"s\":299,"))
    }
}
