import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

@Suite struct BotAPIParserTests {
    func botapi(_ json: String) throws(ParseError) -> Message {
        try MessageParser.parse(json, from: .botAPI)
    }

    func error(_ json: String) -> ParseError? {
        do {
            _ = try botapi(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func textAndEntities() throws {
        let m = try botapi(#"{"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}"#)
        #expect(m == Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]))
        #expect(try botapi(#"{"text":"plain"}"#) == Message(text: "plain"))
    }

    @Test func botAPIMessageFixture() throws {
        let bytes = Array(try fixtureData("botapi/message.json"))
        let m = try MessageParser.parse(bytes, from: .botAPI)
        expectMatchesFixture(m.jsonString + "\n", "botapi/message.expected.json")
    }

    @Test func captionsRepliesAndUpdatesAreUnwrapped() throws {
        let expected = Message(text: "a😀b", entities: [Entity(.bold, offset: 1, length: 2)])
        #expect(
            try botapi(#"{"caption":"a😀b","caption_entities":[{"type":"bold","offset":1,"length":2}]}"#) == expected)
        #expect(
            try botapi(
                #"{"ok":true,"result":{"message_id":7,"caption":"a😀b","caption_entities":[{"type":"bold","offset":1,"length":2}]}}"#
            ) == expected)
        #expect(
            try botapi(#"{"update_id":1,"message":{"text":"a😀b","entities":[{"type":"bold","offset":1,"length":2}]}}"#)
                == expected)
    }

    @Test func entitiesComeOutInCanonicalOrderWithTheirFields() throws {
        let m = try botapi(
            #"""
            {"text":"see docs x 🍿","entities":[
              {"type":"custom_emoji","offset":11,"length":2,"custom_emoji_id":"5368324170671202286"},
              {"type":"pre","offset":9,"length":1,"language":"swift"},
              {"type":"text_link","offset":4,"length":4,"url":"https://example.org","language":"dropped"},
              {"type":"bold","offset":0,"length":8},
              {"type":"text_mention","offset":0,"length":3,"user":{"id":42,"is_bot":false,"first_name":"A"}}]}
            """#)
        #expect(m.entities.map(\.type) == [.bold, .textMention, .textLink, .pre, .customEmoji])
        #expect(m.entities[1].userID == 42)
        #expect(m.entities[2].url == "https://example.org")
        #expect(m.entities[2].language == nil)
        #expect(m.entities[3].language == "swift")
        #expect(m.entities[4].customEmojiID == "5368324170671202286")
    }

    @Test(arguments: [
        (#"{"text":"abc","entities":[{"type":"blink","offset":0,"length":1}]}"#, "entity 0: unknown type 'blink'"),
        (#"{"text":"abc","entities":[{"offset":0,"length":1}]}"#, "entity 0: 'type' is required"),
        (
            #"{"text":"abc","entities":[{"type":"bold","offset":0,"length":1},{"type":"italic","offset":2,"length":2}]}"#,
            "entity 1 (italic): offset 2 + length 2 is past the end of the text (3 UTF-16 code units)"
        ),
        (
            #"{"text":"abc","entities":[{"type":"bold","offset":-1,"length":1}]}"#,
            "entity 0 (bold): offset -1 is negative"
        ),
        (
            #"{"text":"abc","entities":[{"type":"bold","offset":0,"length":0}]}"#,
            "entity 0 (bold): length 0 is not positive"
        ),
        (
            #"{"text":"abc","entities":[{"type":"bold","offset":0.5,"length":1}]}"#,
            "entity 0 (bold): 'offset' must be a whole number"
        ),
        (
            #"{"text":"abc","entities":[{"type":"bold","offset":"0","length":1}]}"#,
            "entity 0 (bold): 'offset' must be a number"
        ),
        (#"{"text":"abc","entities":[{"type":"bold","offset":0}]}"#, "entity 0 (bold): 'length' is required"),
        (
            #"{"text":"a😀b","entities":[{"type":"bold","offset":2,"length":1}]}"#,
            "entity 0 (bold): offset 2 splits a surrogate pair"
        ),
        (
            #"{"text":"a😀b","entities":[{"type":"bold","offset":0,"length":2}]}"#,
            "entity 0 (bold): offset 0 + length 2 = 2 splits a surrogate pair"
        ),
        (
            #"{"text":"abc","entities":[{"type":"text_link","offset":0,"length":1}]}"#,
            "entity 0 (text_link): 'url' is required"
        ),
        (
            #"{"text":"abc","entities":[{"type":"text_link","offset":0,"length":1,"url":3}]}"#,
            "entity 0 (text_link): 'url' must be a string"
        ),
        (
            #"{"text":"abc","entities":[{"type":"text_mention","offset":0,"length":1}]}"#,
            "entity 0 (text_mention): 'user_id' is required"
        ),
        (
            #"{"text":"abc","entities":[{"type":"custom_emoji","offset":0,"length":1}]}"#,
            "entity 0 (custom_emoji): 'custom_emoji_id' is required"
        ),
        (
            #"{"text":"abc","entities":[{"type":"date_time","offset":0,"length":1}]}"#,
            "entity 0 (date_time): 'unix_time' is required"
        ),
        (#"{"text":"abc","entities":[7]}"#, "entity 0: expected an object with 'type', 'offset' and 'length'"),
        (#"{"text":"abc","entities":{}}"#, "'entities' must be an array"),
        (#"{"text":5}"#, "'text' must be a string"),
        (#"{"chat":{}}"#, "the object has no 'text' or 'caption'"),
        (#"[1]"#, "expected a JSON object with 'text' and 'entities' (a Bot API message)"),
    ])
    func badEntitiesAndShapesNameTheReason(json: String, reason: String) {
        #expect(error(json)?.reason == reason)
    }

    @Test func malformedJSONGivesLineAndColumn() throws {
        let e = try #require(error("{\"text\":\"abc\",\n  \"entities\": [1,]}"))
        #expect(e.kind == .invalidJSON)
        #expect(e.position?.line == 2)
        #expect(e.position?.column == 18)
        #expect(e.reason.hasPrefix("invalid JSON: "))
        #expect(!e.reason.contains("line 2"), "the position is said once, by position")
    }

    @Test func invalidUTF8NamesTheByteOffset() throws {
        let bytes: [UInt8] = Array(#"{"text":"a"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        do {
            _ = try MessageParser.parse(bytes, from: .botAPI)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.kind == .invalidUTF8)
            #expect(error.position?.utf8Offset == 10)
        }
    }

    @Test func everyEntityTypeRoundTripsThroughJSON() throws {
        var entities: [Entity] = []
        for (i, type) in EntityType.allCases.enumerated() {
            var e = Entity(type, offset: i, length: 1)
            switch type {
            case .textLink: e.url = "https://example.org/\(i)"
            case .pre: e.language = "c"
            case .customEmoji: e.customEmojiID = "\(i)"
            case .textMention: e.userID = Int64(i)
            case .dateTime:
                e.unixTime = 1_700_000_000
                e.tdlibDateFlags = 3
                e.dateTimeFormat = "r"
            default: break
            }
            entities.append(e)
        }
        let m = Message(text: String(repeating: "x", count: entities.count), entities: entities)
        #expect(try botapi(m.jsonString) == m)
    }
}

/// Random bytes, biased towards JSON and markup characters and broken UTF-8: every front
/// end here either returns a message whose entities are in bounds, or throws; none traps.
@Suite struct FrontEndRobustnessTests {
    static let pieces: [[UInt8]] = [
        Array(#"{"text":"#.utf8), Array(#""entities":["#.utf8), Array(#"{"type":"bold","offset":"#.utf8),
        Array(#""length":"#.utf8), Array(#"{"messages":["#.utf8), Array(#"{"id":1,"text":["#.utf8),
        Array(#"{"type":"spoiler","text":"x"}"#.utf8), Array("0123".utf8), Array("-1".utf8), Array("\"".utf8),
        Array("||".utf8), Array("`".utf8), Array("\\".utf8), Array("😀".utf8), Array("é".utf8), [0xFF], [0xE2, 0x82],
        Array(",".utf8), Array("]".utf8), Array("}".utf8), Array(":".utf8), Array("\n".utf8), Array("1e999".utf8),
    ]

    static func randomBytes(_ rng: inout SplitMix64) -> [UInt8] {
        (0..<Int(rng.next() % 24)).flatMap { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }
    }

    @Test func noFrontEndTraps() {
        forAll(Self.randomBytes, count: 3000) { bytes in
            for format in [InputFormat.plain, .botAPI] {
                if let m = try? MessageParser.parse(bytes, from: format) {
                    let n = m.utf16Length
                    if !m.entities.allSatisfy({ $0.offset >= 0 && $0.length > 0 && $0.end <= n }) { return false }
                }
            }
            let reader = ExportReader()
            var items: [ExportItem] = []
            try? reader.feed(bytes, into: &items)
            try? reader.finish(into: &items)
            return true
        }
    }
}
