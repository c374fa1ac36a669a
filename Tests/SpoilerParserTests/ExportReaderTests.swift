import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// Every item of `bytes` read in chunks of `chunkSize`, as one line each.
func readExport(_ bytes: [UInt8], chunkSize: Int) throws(ParseError) -> [ExportItem] {
    let reader = ExportReader()
    var items: [ExportItem] = []
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + chunkSize)
        try reader.feed(Array(bytes[start..<end]), into: &items)
        start = end
    }
    try reader.finish(into: &items)
    return items
}

func exportLines(_ items: [ExportItem]) -> String {
    items.map { item in
        let head = "id=\(item.id ?? "nil") chat=\(item.chatID ?? "nil") #\(item.index) "
        switch item.result {
        case .success(let m): return head + m.jsonString
        case .failure(let e): return head + "error: " + e.reason
        }
    }.joined(separator: "\n") + "\n"
}

func exportError(_ text: String) -> ParseError? {
    do {
        _ = try readExport(Array(text.utf8), chunkSize: 5)
        return nil
    } catch {
        return error
    }
}

@Suite struct ExportReaderTests {
    @Test func sampleExport() throws {
        let bytes = Array(try fixtureData("export/telegram-export-result.json"))
        let items = try readExport(bytes, chunkSize: 1 << 16)
        expectMatchesFixture(exportLines(items), "export/telegram-export-result.expected.txt")
        // The service message (id 1, empty text) is skipped; the others keep their ids.
        #expect(items.map(\.id) == ["2", "3", "4", "5"])
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func anyChunkingGivesTheSameItems(chunkSize: Int) throws {
        let bytes = Array(try fixtureData("export/telegram-export-result.json"))
        #expect(try readExport(bytes, chunkSize: chunkSize) == readExport(bytes, chunkSize: bytes.count))
    }

    @Test func partTypesMapToBotAPIEntities() throws {
        let json = #"""
            {"messages": [{"id": 9, "type": "message", "text": "ignored when text_entities is there",
              "text_entities": [
                {"type": "link", "text": "https://a.b"}, " ",
                {"type": "mention_name", "text": "Ana", "user_id": 1001}, " ",
                {"type": "phone", "text": "+1 555"}, " ",
                {"type": "pre", "text": "x", "language": ""}, " ",
                {"type": "blockquote", "text": "q", "collapsed": true}, " ",
                {"type": "strikethrough", "text": "s"}, " ",
                {"type": "future_type", "text": "f"}, " ",
                {"type": "bold", "text": ""},
                {"type": "plain", "text": "end"}]}]}
            """#
        let items = try readExport(Array(json.utf8), chunkSize: 3)
        let m = try #require(try items.first?.result.get())
        #expect(m.text == "https://a.b Ana +1 555 x q s f end")
        #expect(
            m.entities.map(\.type) == [.url, .textMention, .phoneNumber, .pre, .expandableBlockquote, .strikethrough])
        #expect(m.entities[1].userID == 1001)
        #expect(m.entities[3].language == nil)
    }

    @Test func textAsStringOrMixedArray() throws {
        let json = #"""
            {"messages": [
              {"id": 1, "type": "message", "text": "just text"},
              {"id": 2, "type": "message", "text": ["a ", {"type": "spoiler", "text": "😀b"}, " c"]},
              {"id": 3, "type": "message", "text": ""},
              {"id": 4, "type": "service", "action": "pin_message", "text": "pinned"},
              {"id": 5, "type": "message", "text": 12},
              {"id": 6, "type": "message", "text_entities": [{"type": "text_link", "text": "x"}]}]}
            """#
        let items = try readExport(Array(json.utf8), chunkSize: 16)
        expectMatchesFixture(exportLines(items), "export/text-shapes.expected.txt")
    }

    @Test func wholeAccountExportCarriesChatIDs() throws {
        let json = #"""
            {"about": "x", "chats": {"about": "y", "list": [
              {"name": "A", "type": "personal_chat", "id": 11, "messages": [
                {"id": 1, "type": "message", "text": "one"}, {"id": 2, "type": "message", "text": "two"}]},
              {"name": "B", "type": "private_group", "id": 12, "messages": [
                {"id": 1, "type": "message", "text": [{"type": "spoiler", "text": "three"}]}]}]},
             "left_chats": {"list": [{"id": 13, "messages": [{"id": 7, "type": "message", "text": "four"}]}]},
             "contacts": {"list": [{"messages": "not a chat"}]}}
            """#
        let items = try readExport(Array(json.utf8), chunkSize: 10)
        #expect(items.map(\.chatID) == ["11", "11", "12", "13"])
        #expect(items.map(\.id) == ["1", "2", "1", "7"])
        #expect(try items[2].result.get() == Message(text: "three", entities: [Entity(.spoiler, offset: 0, length: 5)]))
    }

    @Test(arguments: [
        ("{\"messages\": [\n  {\"id\": 1,, }]}", 2, 12, "invalid JSON: "),
        (
            "{\"messages\": [{\"id\": 1, \"text\": \"a\"}", 1, 37,
            "the export ends in the middle of a value (truncated?)"
        ),
        ("[1, 2]", 1, 1, "the top level must be an object"),
        ("", 1, 1, "invalid JSON: the export is empty"),
        ("{\"messages\": [{\"text\": \"a\u{1}\"}]}", 1, 26, "invalid JSON: "),
    ])
    func syntaxErrorsNameLineAndColumn(json: String, line: Int, column: Int, reason: String) throws {
        let e = try #require(exportError(json))
        #expect(e.reason.contains(reason), "\(e.reason)")
        // One position, in `position`: the reason does not repeat it.
        #expect(!e.reason.contains("line \(line)"), "\(e.reason)")
        #expect(e.position?.line == line, "\(e.reason)")
        #expect(e.position?.column == column, "\(e.reason)")
    }

    @Test func anObjectWithoutMessagesIsNotAnExport() throws {
        let e = try #require(exportError(#"{"name": "no messages"}"#))
        #expect(e.reason.hasPrefix("not a Telegram Desktop export: expected an object with 'messages'"))
        #expect(e.position == nil)
    }

    @Test func messagesBeforeASyntaxErrorComeOut() throws {
        let reader = ExportReader()
        var items: [ExportItem] = []
        let bytes = Array(#"{"messages": [{"id": 1, "text": "a"}, {"id": 2, "text": "b"}, {"id" 3}]}"#.utf8)
        #expect(throws: ParseError.self) { try reader.feed(bytes, into: &items) }
        #expect(items.map(\.id) == ["1", "2"])
    }

    @Test func invalidUTF8InAStringIsAnError() throws {
        var bytes = Array(#"{"messages": [{"id": 1, "text": "a"#.utf8)
        bytes += [0xFF]
        bytes += Array(#""}]}"#.utf8)
        #expect(throws: ParseError.self) { try readExport(bytes, chunkSize: 4) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = "{\"messages\": [{\"x\": " + String(repeating: "[", count: 100_000)
        #expect(exportError(deep)?.reason.contains("nesting deeper than 512 levels") == true)
    }

    /// A generated export of 20,000 messages, fed in 64 KiB chunks that are made as they
    /// are fed: each message comes out in the feed that completes it, so the reader never
    /// holds more than the message it is reading.
    @Test func bigExportStreams() throws {
        let reader = ExportReader()
        var pending = Array(#"{"name": "big", "type": "personal_chat", "id": 1, "messages": ["#.utf8)
        var complete = 0
        var received = 0
        var spoilers = 0
        let total = 20_000
        for i in 1...total {
            let message =
                #"{"id": \#(i), "type": "message", "text": ["msg \#(i) ", {"type": "spoiler", "text": "secret \#(i)"}]}"#
            pending += Array(message.utf8)
            pending += Array((i < total ? ",\n" : "]}\n").utf8)
            complete += 1
            if pending.count >= 1 << 16 || i == total {
                var items: [ExportItem] = []
                try reader.feed(pending, into: &items)
                for item in items {
                    received += 1
                    let m = try item.result.get()
                    spoilers += m.entities.count
                    #expect(item.id == String(received))
                }
                // Everything fed so far has come out: nothing is held back.
                #expect(received == complete)
                pending.removeAll(keepingCapacity: true)
            }
        }
        var last: [ExportItem] = []
        try reader.finish(into: &last)
        #expect(last.isEmpty)
        #expect(received == total)
        #expect(spoilers == total)
    }
}

@Suite struct ExportPositionTests {
    /// Errors deep in a long export, after every kind of UTF-8 sequence and many lines,
    /// get the same line, column and UTF-16 offset as counting byte by byte.
    @Test(arguments: [1, 5, 8, 13, 4096])
    func positionsAfterManyChunks(chunkSize: Int) throws {
        var text = "{\"messages\": [\n"
        for i in 0..<200 {
            text += "{\"id\": \(i), \"text\": \"é 漢 😀 \(String(repeating: "x", count: i % 17))\"},\n"
        }
        text += "  {\"id\": 1,, }]}"
        let bytes = Array(text.utf8)
        do {
            _ = try readExport(bytes, chunkSize: chunkSize)
            Issue.record("accepted malformed JSON")
        } catch {
            let bad = bytes.count - 5  // the second comma
            let expected = TextPosition(utf8Offset: bad, in: bytes)
            #expect(error.position == expected)
            #expect(error.position?.line == 202)
            #expect(error.position?.column == 12)
        }
    }
}
