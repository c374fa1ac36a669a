import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// Message → Markdown, and back.
@Suite struct MarkdownSerializerTests {
    func markdown(_ m: Message) -> String { MessageSerializer.serialize(m, to: .markdown) }
    func roundTrip(_ m: Message) throws -> Message { try MessageParser.parse(markdown(m), from: .markdown) }

    @Test func writesEachEntity() {
        let m = Message(
            text: "bold italic gone hidden code link",
            entities: [
                Entity(.bold, offset: 0, length: 4), Entity(.italic, offset: 5, length: 6),
                Entity(.strikethrough, offset: 12, length: 4), Entity(.spoiler, offset: 17, length: 6),
                Entity(.code, offset: 24, length: 4), Entity(.textLink, offset: 29, length: 4, url: "https://t.me/x"),
            ])
        #expect(markdown(m) == "**bold** *italic* ~~gone~~ ||hidden|| `code` [link](<https://t.me/x>)")
    }

    @Test func writesBlocks() throws {
        let m = Message(
            text: "intro\n\nlet x = 1\n\nquoted\nlines",
            entities: [
                Entity(.pre, offset: 7, length: 9, language: "swift"), Entity(.blockquote, offset: 18, length: 12),
            ])
        #expect(markdown(m) == "intro\n\n```swift\nlet x = 1\n```\n\n> quoted\n> lines")
        #expect(try roundTrip(m) == m)
    }

    static let literalTexts: [String] = [
        "a*b_c`d[e]f<g>h|i~j&k\\l!m", "# not a heading", "- not a list", "+ nor this", "1. not ordered",
        "2) nor this", "> not a quote", "    not code", "===", "---", "***", "  leading spaces", "trailing  ",
        "\ttab", "||not a spoiler||", "~~not struck~~",
        "`not code`", "[not](a link)", "see http://x.com/a and www.y.org", "<b>not html</b>", "&amp; stays",
        "line one\nline two", "para\n\npara",
        "CRLF\r\nline", "😀 日本語 e\u{301}", "a | b | c\n--|--", "| a |\n|---|\n| b |", "```\nnot fenced\n```",
        "1986\\. year", "x\\", "[ ] not a task", "- [x] nor this",
    ]

    @Test(arguments: literalTexts)
    func textWithoutEntitiesRoundTrips(_ text: String) throws {
        let m = Message(text: text)
        let back = try roundTrip(m)
        #expect(
            back == m, "\(markdown(m).debugDescription) read back as \(back.text.debugDescription) \(back.entities)")
    }

    /// GFM's autolink extension finds addresses after the text is assembled, so no escape
    /// keeps one from becoming a link: it reads back as an `email` entity.
    @Test func emailAddressesReadBackAsEmailEntities() throws {
        let m = Message(text: "mail a@b.co")
        #expect(try roundTrip(m) == Message(text: "mail a@b.co", entities: [Entity(.email, offset: 5, length: 6)]))
    }

    /// Entities over the same text may come back in another order (`***x***` is read as
    /// italic around bold); the order among them carries no meaning.
    func normalized(_ m: Message) -> Message {
        Message(
            text: m.text,
            unsortedEntities: m.entities.sorted {
                ($0.offset, -$0.length, $0.type.rawValue) < ($1.offset, -$1.length, $1.type.rawValue)
            })
    }

    @Test func entitiesFromMarkdownRoundTrip() throws {
        let docs = [
            "**bold ||hidden|| text**", "||**a** b||", "||[link](http://u)|| and `code`", "*i* **b** ~~s~~",
            "a **b *c* d** e", "[**bold link**](http://x.y/z?a=1&b=(2))", "x `a``b` y", "<http://auto.link>",
            "<a@b.co>", "> quote with ||spoiler||", "```python\nprint(1)\n```", "text\n\n> quote\n\nmore",
            "`` `tick` ``",
        ]
        for doc in docs {
            let m = try MessageParser.parse(doc, from: .markdown)
            let back = try roundTrip(m)
            #expect(back == m, "\(doc.debugDescription) → \(markdown(m).debugDescription) → \(back)")
        }
    }

    /// Random messages whose entities cover whole words, nest without crossing and never
    /// nest in one of their own type: all representable, so all must read back unchanged.
    @Test func randomRepresentableMessagesRoundTrip() throws {
        let words = [
            "a", "bc", "d*e", "f_g", "(h)", "i|j", "k~", "[l]", "<m>", "n&o", "#p", "1.", "-q", "é", "😀", "r`s", "t\\u",
            "v:w", "x.y",
        ]
        let types: [EntityType] = [.bold, .italic, .strikethrough, .spoiler, .textLink, .code]
        try forAll(
            { rng -> Message in
                let n = Int(rng.next() % 8) + 1
                var text = ""
                var starts: [Int] = []
                var ends: [Int] = []
                for i in 0..<n {
                    if i > 0 { text += rng.next() % 5 == 0 ? "\n" : " " }
                    starts.append(text.utf16.count)
                    text += words[Int(rng.next() % UInt64(words.count))]
                    ends.append(text.utf16.count)
                }
                var entities: [Entity] = []
                // Build nested ranges: each entity picks a word range inside its parent's.
                func add(_ lo: Int, _ hi: Int, depth: Int, used: Set<EntityType>) {
                    guard depth < 3, lo < hi, rng.next() % 3 != 0 else { return }
                    let a = lo + Int(rng.next() % UInt64(hi - lo))
                    let b = a + 1 + Int(rng.next() % UInt64(hi - a))
                    let choices = types.filter { !used.contains($0) }
                    let type = choices[Int(rng.next() % UInt64(choices.count))]
                    var e = Entity(type, offset: starts[a], length: ends[b - 1] - starts[a])
                    if type == .textLink { e.url = "https://example.org/" + String(a) }
                    if type == .code {
                        let covered = text.utf16.dropFirst(starts[a]).prefix(ends[b - 1] - starts[a])
                        if covered.contains(10) { return }
                    }
                    entities.append(e)
                    if type != .code && type != .textLink { add(a, b, depth: depth + 1, used: used.union([type])) }
                    if b < hi { add(b, hi, depth: depth, used: used) }
                }
                add(0, n, depth: 0, used: [])
                return Message(text: text, entities: entities)
            }, count: 300
        ) { m in
            let back = try roundTrip(m)
            if normalized(back) != normalized(m) {
                print("round trip failed:\n\(m)\n\(markdown(m).debugDescription)\n\(back)")
            }
            return normalized(back) == normalized(m)
        }
    }
}
