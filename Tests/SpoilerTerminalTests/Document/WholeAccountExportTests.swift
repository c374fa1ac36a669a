import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// `spoiler read` of a whole-account Telegram Desktop export (`chats.list[].messages`,
/// `left_chats.list[].messages`) a chunk at a time: the chats' messages, one after the
/// other, read as the whole export's chat log does. It was read whole: a 257 MB account took
/// 28 s to its first frame and 8.4 GB of memory.
@Suite struct WholeAccountExportTests {
    /// One message object of an export, with `text` (JSON-escaped) shown and `hidden` in a
    /// spoiler when given.
    static func message(id: Int, text: String, hidden: String?) -> String {
        let head =
            #"{"id": \#(id), "type": "message", "date": "2026-11-01T19:02:45", "date_unixtime": "1793559765", "#
            + #""from": "Bo", "from_id": "user1002", "#
        guard let hidden else {
            return head + #""text": "\#(text)", "text_entities": [{"type": "plain", "text": "\#(text)"}]}"#
        }
        return head + #""text": ["\#(text) ", {"type": "spoiler", "text": "\#(hidden)"}], "#
            + #""text_entities": [{"type": "plain", "text": "\#(text) "}, {"type": "spoiler", "text": "\#(hidden)"}]}"#
    }

    /// A whole-account export: other sections first (a contact list whose entries name
    /// `messages`), then chats and left chats, some with no messages, their names and texts
    /// holding brackets, braces, quotes and the keys the scan follows.
    static func export(_ rng: inout SplitMix64) -> String {
        let texts = [
            "shown words", #"a ] b } c [ d { e"#, #"quote \" and \\ back"#, "messages", "list", "chats", "é 漢字 😀",
        ]
        var id = 0
        func chats(_ count: Int) -> String {
            (0..<count).map { c in
                let messages = (0..<Int(rng.next() % 12)).map { _ in
                    id += 1
                    let text = texts[Int(rng.next() % UInt64(texts.count))]
                    return message(id: id, text: text, hidden: rng.next() % 2 == 0 ? "secret" : nil)
                }
                let name = c % 3 == 1 ? "messages" : "Chat ] \(c)"
                return #"{"name": "\#(name)", "type": "personal_chat", "id": \#(1000 + c), "messages": [\#n"#
                    + messages.joined(separator: ",\n") + "\n]}"
            }.joined(separator: ",\n")
        }
        return #"{"about": "messages", "contacts": {"about": "list", "list": [{"first_name": "messages"}]}, "#
            + #""chats": {"about": "chats", "list": [\#(chats(Int(rng.next() % 6) + 1))]}, "#
            + #""left_chats": {"about": "x", "list": [\#(chats(Int(rng.next() % 3)))]}}"#
    }

    static func document(_ bytes: [UInt8], minimum: Int) -> ChunkedDocument {
        ChunkedDocument(bytes: bytes, rule: .exportMessages, minimumBytes: minimum, separator: "\n\n") { chunk, _ in
            ChunkedDocument.chatLog(ofExportChunk: chunk) { Message(text: "[could not be read: \($0)]") }
        }
    }

    /// The chunks' logs joined as the reader shows them (the separator between two), their
    /// entities moved to their places.
    static func joined(_ document: ChunkedDocument) -> Message {
        var text = ""
        var units = 0
        var entities: [Entity] = []
        var k = 0
        while let chunk = document.chunk(at: k) {
            if k > 0 {
                text += document.separator
                units += document.separator.utf16.count
            }
            for var e in chunk.message.entities {
                e.offset += units
                entities.append(e)
            }
            text += chunk.message.text
            units += chunk.message.text.utf16.count
            k += 1
        }
        return Message(text: text, entities: entities)
    }

    @Test func aWholeAccountReadInChunksReadsAsTheWholeExport() {
        var chunked = 0
        forAll(
            { rng -> (String, Int) in (WholeAccountExportTests.export(&rng), Int(rng.next() % 600) + 1) }, count: 300
        ) { export, minimum in
            let bytes = Array(export.utf8)
            guard let whole = try? ChatLog(export: bytes).message else {
                Issue.record("the whole export does not read")
                return false
            }
            let document = WholeAccountExportTests.document(bytes, minimum: minimum)
            let count = document.chunkCount
            if count > 1 { chunked += 1 }
            guard whole.text.isEmpty || count > 0 else {
                Issue.record("no chunk")
                return false
            }
            let joined = WholeAccountExportTests.joined(document)
            guard joined.text == whole.text && joined.entities == whole.entities else {
                let (chunks, all) = (joined.text.debugDescription, whole.text.debugDescription)
                Issue.record("the chunks read \(chunks), the whole \(all)")
                return false
            }
            return !joined.text.contains("could not be read")
        }
        #expect(chunked > 150)
    }

    /// An account indented as Telegram Desktop writes one (a message a line here), its
    /// last chats under `left_chats`, read in blocks of 16 KB so that it behaves as a large
    /// file does: End finds the last chunks from the end of the file at once, and once the
    /// index is built they are its last, each as it was.
    @Test func theEndOfAWholeAccountIsFoundFromTheEnd() throws {
        var id = 0
        func chats(_ range: Range<Int>) -> String {
            range.map { c in
                let messages = (0..<300).map { m in
                    id += 1
                    let hidden = m % 4 == 0 ? "secret" : nil
                    return "     " + WholeAccountExportTests.message(id: id, text: "shown \(c) \(m)", hidden: hidden)
                }
                return "   {\n    \"name\": \"Chat \(c)\",\n    \"id\": \(c),\n    \"messages\": [\n"
                    + messages.joined(separator: ",\n") + "\n    ]\n   }"
            }.joined(separator: ",\n")
        }
        let export =
            "{\n \"about\": \"x\",\n \"chats\": {\n  \"about\": \"y\",\n  \"list\": [\n\(chats(0..<7))\n  ]\n },\n"
            + " \"left_chats\": {\n  \"list\": [\n\(chats(7..<9))\n  ]\n }\n}\n"
        let bytes = Array(export.utf8)
        let document = ChunkedDocument(
            bytes: bytes, rule: .exportMessages, minimumBytes: 2048, maximumBytes: 65536, blockBytes: 16384,
            separator: "\n\n"
        ) { chunk, _ in
            ChunkedDocument.chatLog(ofExportChunk: chunk) { Message(text: "[could not be read: \($0)]") }
        }
        _ = document.chunk(at: 0)
        let last = try #require(document.lastChunkFromEnd())
        #expect(last >= 1 << 48 && !document.isIndexed)
        var fromEnd: [ReaderChunk] = []
        while last - fromEnd.count >= 1 << 48, let chunk = document.chunk(at: last - fromEnd.count) {
            fromEnd.append(chunk)
        }
        #expect(!document.isIndexed && fromEnd.count > 3)
        #expect(fromEnd.first?.message.text.hasSuffix("shown 8 299") == true)
        let chunks = document.chunkCount
        #expect(document.settledIndex(of: last) == chunks - 1)
        for (k, chunk) in fromEnd.enumerated() {
            #expect(document.chunk(at: chunks - 1 - k) == chunk)
            #expect(!chunk.message.text.contains("could not be read"))
        }
    }

    /// From a file, as `spoiler read` opens one: a whole account of 4 chats and a left one,
    /// 2,000 messages each: several chunks, each chat's first message starting one, every
    /// spoiler hidden.
    @Test func aWholeAccountFileOpensAChunkAtATime() throws {
        var id = 0
        let chats = (0..<5).map { c in
            let messages = (0..<2000).map { _ in
                id += 1
                return WholeAccountExportTests.message(id: id, text: "shown", hidden: "secret")
            }
            return #"{"name": "Chat \#(c)", "type": "personal_chat", "id": \#(c), "messages": ["#
                + messages.joined(separator: ",\n") + "]}"
        }
        let export =
            #"{"chats": {"list": [\#(chats[0..<4].joined(separator: ",\n"))]}, "#
            + #""left_chats": {"list": [\#(chats[4])]}}"#
        let path = try ChunkedDocumentFormatsTests.temporaryFile(export)
        defer { unlink(path) }
        let document = try #require(try ChunkedDocument(path: path, format: .export))
        #expect(document.chunkCount > 5)
        #expect(try LongEntityChunkTests.hiddenSecrets(in: document, marks: ["{", "]"]) == 10_000)
        // Each chat's first message starts a chunk.
        let starts = (0..<document.chunkCount).map { document.chunk(at: $0)!.bytes.lowerBound }
        for c in 0..<5 {
            let first = try #require(export.utf8.firstRange(of: #""id": \#(c * 2000 + 1), "#.utf8)).lowerBound
            let offset = export.utf8.distance(from: export.utf8.startIndex, to: first) - 1
            #expect(starts.contains(offset), "chat \(c)")
        }
    }
}
