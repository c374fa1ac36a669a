import SpoilerKit
import Testing

/// The high-level entry points, through `import SpoilerKit` alone.
@Suite("SpoilerKit")
struct SpoilerKitTests {
    @Test("A string in a format parses to a message")
    func parsesInEveryFormat() throws {
        let plain = try Message(parsing: "hi ||there||")
        #expect(plain == Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]))
        let v2 = try Message(parsing: "*hi* ||there||", as: .markdownV2)
        #expect(v2.entities.map(\.type) == [.bold, .spoiler])
        let html = try Message(parsing: "<b>hi</b> <tg-spoiler>there</tg-spoiler>", as: .html)
        #expect(html == v2)
        let markdown = try Message(parsing: "**hi** ||there||", as: .markdown)
        #expect(markdown == v2)
        let bot = try Message(
            parsing: #"{"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}"#, as: .botAPI)
        #expect(bot == plain)
    }

    @Test("A parse error names its line, column and byte offset")
    func parseErrorPosition() {
        #expect(throws: ParseError.self) { try Message(parsing: "ok\na ||b", as: .markdownV2) }
        do {
            _ = try Message(parsing: "ok\na ||b", as: .markdownV2)
        } catch {
            #expect(error.position?.line == 2)
            #expect(error.position?.utf8Offset == 5)
            #expect(error.reason == "Can't find end of Spoiler entity at byte offset 5")
        }
    }

    @Test("The lowerCamelCase cases keep the command line's spelling")
    func rawValues() {
        #expect(InputFormat.markdownV2.rawValue == "markdownv2")
        #expect(InputFormat.botAPI.rawValue == "botapi")
        #expect(OutputFormat.markdownV2.rawValue == "markdownv2")
    }

    @Test("The parsers and serializers a user guesses first are public")
    func guessedNames() throws {
        let m = try MarkdownV2Parser.parse("*hi* ||there||")
        #expect(HTMLSerializer.serialize(m) == "<b>hi</b> <tg-spoiler>there</tg-spoiler>")
        #expect(try HTMLParser.parse(HTMLSerializer.serialize(m)) == m)
        #expect(MarkdownV2Serializer.serialize(m) == "*hi* ||there||")
        #expect(try PlainParser.parse("hi ||there||").entities.count == 1)
        #expect(PlainSerializer.serialize(m) == "hi ||there||")
        #expect(try MarkdownParser.parse("**hi** ||there||") == m)
        #expect(MarkdownSerializer.serialize(m) == "**hi** ||there||")
        #expect(try BotAPIParser.parse(Array(m.jsonString.utf8)) == m)
    }

    @Test("Bytes given to a parser are checked for UTF-8 first")
    func parserChecksUTF8() {
        #expect(throws: ParseError.invalidUTF8(at: 2, in: [0x61, 0x62, 0xFF])) {
            try PlainParser.parse([0x61, 0x62, 0xFF])
        }
    }

    @Test("A message comes out in every format")
    func formatsEveryWay() throws {
        let m = try Message(parsing: "hi ||there||")
        #expect(m.formatted(as: .html) == "hi <tg-spoiler>there</tg-spoiler>")
        #expect(m.formatted(as: .markdownV2) == "hi ||there||")
        #expect(m.formatted(as: .markdown) == "hi ||there||")
        #expect(m.formatted(as: .plain) == "hi there")
        #expect(m.formatted(as: .plainMarkup) == "hi ||there||")
        #expect(m.formatted(as: .json) == #"{"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}"#)
    }

    @Test("A message lays out at a width, one box per hidden word")
    func layoutAtWidth() throws {
        let layout = try Message(parsing: "the butler ||did it||").layout(width: 12)
        #expect(layout.words.map(\.text) == ["did", "it"])
        #expect(layout.words.map(\.line) == [1, 1], "'the butler' fills the first line")
        #expect(layout.words.map(\.column) == [0, 4])
        #expect(layout.words[0].rect == SpoilerRect(x: 0, y: 16, width: 24, height: 16))
        let unwrapped = try Message(parsing: "the butler ||did it||").layout()
        #expect(unwrapped.words.map(\.column) == [11, 15])
        let wide = try Message(parsing: "a ||b||").layout(cell: SpoilerSize(width: 10, height: 20))
        #expect(wide.words[0].rect == SpoilerRect(x: 20, y: 0, width: 10, height: 20))
    }
}
