import Foundation
import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

@Suite("HTML serializer")
struct HTMLSerializerTests {
    static func roundTrips(_ message: Message) -> Bool {
        readsBack(
            message, serialize: HTMLSerializer.serialize,
            parse: { bytes throws(ParseError) in try HTMLParser.parse(bytes) })
    }

    /// Properly nested entities of every type, the same type nested in itself and code with
    /// entities inside, which HTML (unlike MarkdownV2) can say.
    static func randomMessage(_ rng: inout SplitMix64) -> Message {
        var message = MessageGenerator.randomMessage(&rng)
        let bounds = MessageGenerator.boundaries(of: message.text)
        var extra: [Entity] = []
        for e in message.entities where rng.next() % 4 == 0 {
            // A second entity inside an existing one, of any type (code and pre included).
            let inside = bounds.filter { $0 >= e.offset && $0 <= e.end }
            guard inside.count >= 2 else { continue }
            let a = inside[Int(rng.next() % UInt64(inside.count - 1))]
            let later = inside.filter { $0 > a }
            let b = later[Int(rng.next() % UInt64(later.count))]
            if let inner = MessageGenerator.randomEntity(&rng, offset: a, length: b - a, excluded: []) {
                extra.append(inner)
            }
        }
        // Nested entities must not cross: keep only extras inside one entity and crossing none.
        var entities = message.entities
        for x in extra
        where !entities.contains(where: { y in
            (y.offset < x.offset && x.offset < y.end && y.end < x.end)
                || (x.offset < y.offset && y.offset < x.end && x.end < y.end)
        }) {
            entities.append(x)
        }
        message = Message(text: message.text, unsortedEntities: TDLibEntityOrder.sorted(entities))
        return message
    }

    @Test("Generated messages read back the same")
    func property() {
        forAll(Self.randomMessage, count: 2000) { Self.roundTrips($0) }
    }

    @Test("Every accepted TDLib vector reads back the same")
    func conformanceMessages() {
        var count = 0
        for vector in ConformanceTests.vectors where vector.ok {
            #expect(Self.roundTrips(Message(text: vector.text ?? "", unsortedEntities: vector.entities)), "\(vector)")
            count += 1
        }
        #expect(count == 271)
    }

    @Test("Escapes markup in text and attributes")
    func escaping() {
        let message = Message(
            text: "a<b>&\"c\" 😀",
            entities: [Entity(.textLink, offset: 0, length: 3, url: "https://t.me/?a=1&b=\"2\"")])
        #expect(
            HTMLSerializer.serialize(message)
                == "<a href=\"https://t.me/?a=1&amp;b=&quot;2&quot;\">a&lt;b</a>&gt;&amp;&quot;c&quot; 😀")
        #expect(Self.roundTrips(message))
    }

    @Test("pre with and without a language, with code of the same range")
    func preAndCode() {
        let message = Message(
            text: "xy",
            entities: [
                Entity(.pre, offset: 0, length: 1, language: "swift"), Entity(.code, offset: 0, length: 1),
                Entity(.pre, offset: 1, length: 1), Entity(.code, offset: 1, length: 1),
            ])
        #expect(
            HTMLSerializer.serialize(message)
                == "<pre><code class=\"language-swift\"><code>x</code></code></pre><pre><code>y</code></pre>")
        #expect(Self.roundTrips(message))
    }

    @Test("Splits crossing entities")
    func crossing() throws {
        let message = Message(
            text: "abc", entities: [Entity(.bold, offset: 0, length: 2), Entity(.spoiler, offset: 1, length: 2)])
        let html = HTMLSerializer.serialize(message)
        #expect(html == "<b>a<tg-spoiler>b</tg-spoiler></b><tg-spoiler>c</tg-spoiler>")
        #expect(
            try HTMLParser.parse(Array(html.utf8)).entities
                == [
                    Entity(.bold, offset: 0, length: 2), Entity(.spoiler, offset: 1, length: 1),
                    Entity(.spoiler, offset: 2, length: 1),
                ])
    }

    @Test("Leaves out what has no tag")
    func unwritable() {
        let message = Message(
            text: "@user #tag",
            entities: [
                Entity(.mention, offset: 0, length: 5), Entity(.hashtag, offset: 6, length: 4),
                Entity(.customEmoji, offset: 0, length: 1, customEmojiID: "x"),
            ])
        #expect(HTMLSerializer.serialize(message) == "@user #tag")
        #expect(MarkdownV2Serializer.serialize(message) == "@user \\#tag")
    }
}
