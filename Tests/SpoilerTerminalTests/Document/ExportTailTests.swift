import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerLayout
import SpoilerTerminal
import Synchronization
import Testing

/// End in a long Telegram Desktop export: the last messages are found from the end of the
/// file at once (``ChunkedDocument/lastChunkFromEnd()``), and once the index gets there
/// they are the index's own chunks, in their places.
@Suite struct ExportTailTests {
    /// Messages in the test's export: about 2.8 MB, over the two megabytes an export needs
    /// for its end to be found from the end. The last one's number ends in 9, so that it
    /// holds two hidden words.
    static let messages = 14_000
    /// A string as JSON writes it.
    static func quoted(_ s: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendQuoted(s, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text of message `i`: brackets, quotes, backslashes and escaped line breaks
    /// followed by what would start a message, in plain text and in spoilers.
    static func parts(_ i: Int) -> [(text: String, hidden: Bool)] {
        switch i % 5 {
        case 0: return [("m\(i) plain {\"x\": [1]} \\ end", false)]
        case 1: return [("m\(i) see ", false), ("s\(i) secret", true), (" after\n  {\n   \"id\": 9,", false)]
        case 2: return [("m\(i) ", false), ("s\(i) hidden ] } [ {", true)]
        case 3: return [("m\(i) café 秘密 👍🏽 \"quoted\"", false)]
        default: return [("m\(i) ", false), ("s\(i) a", true), (" and ", false), ("t\(i) b", true)]
        }
    }

    /// The text the test's parse makes of message `i`: `||` around the hidden parts.
    static func marked(_ i: Int) -> String {
        parts(i).map { $0.hidden ? "||\($0.text)||" : $0.text }.joined()
    }

    /// An export of `count` messages indented as Telegram Desktop writes it (one space a
    /// level), with `trailer` after the `messages` array.
    static func export(count: Int, trailer: String = "", indented: Bool = true) -> [UInt8] {
        var out = "{\n \"name\": \"Chat {with} [brackets]\",\n \"type\": \"personal_chat\",\n \"id\": 7,\n"
        out += " \"messages\": [\n"
        for i in 0..<count {
            let ps = parts(i)
            out += "  {\n   \"id\": \(i),\n   \"type\": \"message\",\n   \"date\": \"2026-01-01T10:00:00\",\n"
            out += "   \"from\": \"Ana\",\n"
            if ps.count == 1 && !ps[0].hidden {
                out += "   \"text\": \(quoted(ps[0].text))\n"
            } else {
                out += "   \"text\": [\n"
                out +=
                    ps.map { p in
                        p.hidden
                            ? "    {\n     \"type\": \"spoiler\",\n     \"text\": \(quoted(p.text))\n    }"
                            : "    \(quoted(p.text))"
                    }.joined(separator: ",\n") + "\n"
                out += "   ]\n"
            }
            out += i == count - 1 ? "  }\n" : "  },\n"
        }
        out += " ]\(trailer)\n}\n"
        if !indented {
            // The same JSON without its indentation and line breaks (none are in strings).
            out = out.split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
        }
        return Array(out.utf8)
    }

    /// A chunk's message: its messages' texts, a line each, spoilers as `||`.
    static let parse: ChunkedDocument.Parse = { bytes, _ in
        var body = bytes
        while let last = body.last, last == 0x2C || last == 0x20 || last == 0x0A { body.removeLast() }
        let json = Array(#"{"messages":["#.utf8) + body + Array("]}".utf8)
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
            let messages = object["messages"] as? [[String: Any]]
        else { return Message(text: "[could not be read]") }
        let lines = messages.map { m -> String in
            if let s = m["text"] as? String { return s }
            let items = m["text"] as? [Any] ?? []
            return items.map { item -> String in
                if let s = item as? String { return s }
                let o = item as? [String: Any] ?? [:]
                return "||\(o["text"] as? String ?? "")||"
            }.joined()
        }
        return DocumentViewTests.parse(lines.joined(separator: "\n"))
    }

    static func document(_ bytes: [UInt8]) -> ChunkedDocument {
        ChunkedDocument(bytes: bytes, rule: .exportMessages, separator: "\n\n", parse: parse)
    }

    /// The texts of every message the chunks `0..<count` show, in order.
    static func shownTexts(_ document: ChunkedDocument) -> [String] {
        (0..<document.chunkCount).flatMap { document.chunk(at: $0)!.message.text.split(separator: "\n") }
            .map(String.init)
    }

    /// The last chunk is found without the index; the chunks from the end answer at once
    /// and are, once the index is complete, the index's chunks at the places it gives, and
    /// every message is shown once, in order.
    @Test func theLastChunksFoundFromTheEndAreTheIndexs() throws {
        let count = Self.messages
        let bytes = Self.export(count: count)
        #expect(bytes.count > 2 << 20)
        let document = Self.document(bytes)
        #expect(document.chunk(at: 0) != nil)
        let last = try #require(document.lastChunkFromEnd())
        #expect(!document.isIndexed)
        #expect(document.settledIndex(of: last) == nil)
        // The last message's text, hidden part and all.
        let lastChunk = try #require(document.chunk(at: last))
        let expectedLast = DocumentViewTests.parse(Self.marked(count - 1)).text
        #expect(lastChunk.message.text.hasSuffix(expectedLast))
        #expect(lastChunk.bytes.upperBound == bytes.count - "\n ]\n}\n".utf8.count)
        #expect(document.chunk(at: last + 1) == nil)
        // Forty chunks from the end, read before the index is built.
        let fromEnd = (0..<40).map { document.chunk(at: last - $0)! }
        #expect(!document.isIndexed)
        #expect(zip(fromEnd.dropFirst(), fromEnd).allSatisfy { $0.bytes.upperBound <= $1.bytes.lowerBound })

        let chunks = document.chunkCount
        #expect(document.settledIndex(of: last) == chunks - 1)
        for (k, chunk) in fromEnd.enumerated() {
            let settled = try #require(document.settledIndex(of: last - k))
            #expect(settled == chunks - 1 - k)
            #expect(document.chunk(at: settled) == chunk)
        }
        let expected = (0..<count).flatMap { DocumentViewTests.parse(Self.marked($0)).text.split(separator: "\n") }
        #expect(Self.shownTexts(document) == expected.map(String.init))
    }

    /// A chunk above those found from the end waits for the index, then is the index's.
    @Test func aChunkAboveTheTailIsTheIndexs() throws {
        let document = Self.document(Self.export(count: Self.messages))
        _ = document.chunk(at: 0)
        let last = try #require(document.lastChunkFromEnd())
        var k = last
        while let chunk = document.chunk(at: k), !document.isIndexed {
            #expect(chunk.bytes.lowerBound > 0)
            k -= 1
        }
        // The walk went above the tail, which completed the index.
        #expect(document.isIndexed)
        let settled = try #require(document.settledIndex(of: k))
        #expect(document.chunk(at: k) == document.chunk(at: settled))
        #expect(document.settledIndex(of: last) == document.chunkCount - 1)
    }

    /// The index built on a worker while the end is found: whichever gets there first, the
    /// chunks are the same and every message is shown once. (The worker may be too near
    /// the end for the end to be found from it: then End waits for the index.)
    @Test(arguments: 0..<6)
    func anIndexBuiltInTheBackgroundSettlesTheTail(run: Int) throws {
        let count = Self.messages
        let document = Self.document(Self.export(count: count))
        _ = document.chunk(at: 0)
        // Even runs find the end first, and the worker starts from the scan that cuts there.
        let first = run % 2 == 0 ? document.lastChunkFromEnd() : nil
        if run % 2 == 0 { #expect(first != nil) }
        document.indexInBackground()
        usleep(UInt32(300 * run))
        let last = first ?? document.lastChunkFromEnd()
        let lastChunk = last.flatMap { document.chunk(at: $0) }
        let chunks = document.chunkCount
        if let last {
            #expect(document.settledIndex(of: last) == chunks - 1)
            #expect(document.chunk(at: chunks - 1) == lastChunk)
        }
        #expect(document.lastChunkFromEnd() == chunks - 1)
        let expected = (0..<count).flatMap { DocumentViewTests.parse(Self.marked($0)).text.split(separator: "\n") }
        #expect(Self.shownTexts(document) == expected.map(String.init))
    }

    /// What cannot be found from the end is not: an export without indentation, a small
    /// file, a last message over a megabyte.
    @Test func noTailWhereTheEndCannotBeFoundSo() throws {
        let flat = Self.document(Self.export(count: Self.messages, indented: false))
        _ = flat.chunk(at: 0)
        #expect(flat.lastChunkFromEnd() == nil)

        let small = Self.document(Self.export(count: 500))
        _ = small.chunk(at: 0)
        #expect(small.lastChunkFromEnd() == nil)

        var long = Self.export(count: Self.messages)
        let tail = long.lastIndex(of: UInt8(ascii: "m"))!
        long.insert(contentsOf: Array(repeating: UInt8(ascii: "z"), count: 1 << 20), at: tail)
        let longLast = Self.document(long)
        _ = longLast.chunk(at: 0)
        #expect(longLast.lastChunkFromEnd() == nil)
    }

    /// A file whose last member is another array of objects at the messages' indentation,
    /// over a megabyte: its objects are found from the end, but the index never gives them
    /// a place, and the view then goes to the end of the messages.
    @Test func aTailThatIsNotTheMessagesIsLeftForTheIndexsEnd() throws {
        let object = "  {\n   \"id\": 1,\n   \"text\": \"not a message\"\n  }"
        let other = ",\n \"other\": [\n" + Array(repeating: object, count: 30_000).joined(separator: ",\n") + "\n ]"
        let document = Self.document(Self.export(count: Self.messages, trailer: other))
        var view = SpoilerTerminalView(
            document: document, size: DocumentViewTests.size, options: DocumentViewTests.options(),
            layout: DocumentViewTests.layout, scene: DocumentViewTests.scene)
        _ = view.frame(at: 0)
        view.key(.end, at: 0.1)
        let early = DocumentViewTests.textRows(view.frame(at: 0.1))
        #expect(early.contains { $0.contains("not a message") })
        let last = try #require(document.lastChunkFromEnd())
        #expect(document.settledIndex(of: last) == nil)
        let chunks = document.chunkCount
        #expect(document.settledIndex(of: last) == nil)
        #expect(document.lastChunkFromEnd() == chunks - 1)
        let rows = DocumentViewTests.textRows(view.frame(at: 0.2))
        #expect(rows.contains { $0.contains("m\(Self.messages - 1)") })
        #expect(!rows.contains { $0.contains("not a message") })
        #expect(view.readFraction == 1)
    }
}

extension ExportTailTests {
    /// End in the reader: the last message shows at once, before the index is built; a
    /// word revealed there stays revealed once the index puts the chunks in their places
    /// (whether the window had moved away from it first or not), and the screen does not
    /// move when they are placed.
    @Test(arguments: [false, true])
    func endShowsTheLastMessageAtOnceAndItsRevealsSettle(scrolledFirst: Bool) throws {
        let document = Self.document(Self.export(count: Self.messages))
        let last = "m\(Self.messages - 1) "
        let hidden = "s\(Self.messages - 1) a"
        var view = SpoilerTerminalView(
            document: document, size: TerminalSize(columns: 60, rows: 16), options: DocumentViewTests.options(),
            layout: DocumentViewTests.layout, scene: DocumentViewTests.scene)
        _ = view.frame(at: 0)
        view.key(.end, at: 0.1)
        let atEnd = DocumentViewTests.textRows(view.frame(at: 0.1))
        #expect(!document.isIndexed)
        #expect(view.readFraction == 1)
        // The last message: its number, then two hidden words.
        #expect(atEnd.contains { $0.contains(last) })
        #expect(!atEnd.contains { $0.contains(hidden) })
        // Reveal the last message's first hidden word by a click on it.
        let row = try #require(atEnd.firstIndex { $0.contains(last) })
        let column = try #require(atEnd[row].range(of: last)).upperBound.utf16Offset(in: atEnd[row])
        view.handle(.mouse(MouseEvent(kind: .press, button: 0, column: column + 1, row: row)), at: 0.2)
        let revealed = DocumentViewTests.textRows(view.frame(at: 3))
        #expect(revealed.contains { $0.contains(hidden) })
        var t = 3.0
        if scrolledFirst {
            // Far enough up for the window to move (and keep the reveal by its chunk).
            for _ in 0..<20 {
                t += 0.05
                view.key(.pageUp, at: t)
                _ = view.frame(at: t)
            }
            #expect(!DocumentViewTests.textRows(view.frame(at: t)).contains { $0.contains(last) })
            #expect(!document.isIndexed)
        }
        _ = document.chunkCount
        t += 0.1
        let settled = DocumentViewTests.textRows(view.frame(at: t))
        if !scrolledFirst { #expect(settled == revealed) }
        for _ in 0..<6 {
            t += 0.05
            view.key(.pageUp, at: t)
            _ = view.frame(at: t)
        }
        view.key(.end, at: t + 0.1)
        let back = DocumentViewTests.textRows(view.frame(at: t + 3))
        #expect(back.contains { $0.contains(hidden) })
        #expect(!back.contains { $0.contains("t\(Self.messages - 1) b") })
    }
}

/// End in a long text or Markdown document: the chunks after the first blank line of the
/// last megabyte are found at once, and are the index's own once it gets there; in
/// Markdown a blank line inside fenced code there is not a place to cut, and the view then
/// goes to the index's end.
@Suite struct TextTailTests {
    /// Paragraphs `p0 …` to `p{count-1} …` of a few words, some hidden; with `fence`, a fenced
    /// code block with blank lines in it from paragraph `fence` on, to the end.
    static func text(paragraphs count: Int, fence: Int? = nil, fenceEnd: Int? = nil, crlf: Bool = false) -> [UInt8] {
        var out = ""
        for p in 0..<count {
            if p == fence { out += "```\n" }
            if p == fenceEnd { out += "```\n\n" }
            out +=
                "p\(p) "
                + (0..<(6 + p % 30)).map { $0 % 5 == 2 ? "||h\(p)x\($0)||" : "w\(p)x\($0)" }
                .joined(separator: " ")
            out += p % 3 == 0 ? "\nsecond line of p\(p)\n\n" : "\n\n"
        }
        if fence != nil && fenceEnd == nil { out += "```\n" }
        return Array((crlf ? out.replacing("\n", with: "\r\n") : out).utf8)
    }

    static func document(_ bytes: [UInt8], rule: ChunkBoundaryScanner.Rule) -> ChunkedDocument {
        ChunkedDocument(bytes: bytes, rule: rule, separator: rule == .markdownBlocks ? "\n\n" : "\n") { bytes, _ in
            DocumentViewTests.parse(String(decoding: bytes, as: UTF8.self))
        }
    }

    @Test(arguments: [
        (ChunkBoundaryScanner.Rule.paragraphs, false), (.paragraphs, true), (.markdownBlocks, false),
        (.markdownBlocks, true),
    ])
    func theLastChunksOfATextAreTheIndexs(rule: ChunkBoundaryScanner.Rule, crlf: Bool) throws {
        let bytes = Self.text(paragraphs: 16_000, crlf: crlf)
        #expect(bytes.count > 2 << 20)
        let document = Self.document(bytes, rule: rule)
        _ = document.chunk(at: 0)
        let last = try #require(document.lastChunkFromEnd())
        #expect(!document.isIndexed && document.settledIndex(of: last) == nil)
        let lastChunk = try #require(document.chunk(at: last))
        #expect(lastChunk.message.text.contains("p15999 "))
        #expect(lastChunk.bytes.upperBound == bytes.count)
        let fromEnd = (0..<30).map { document.chunk(at: last - $0)! }
        #expect(!document.isIndexed)
        let chunks = document.chunkCount
        #expect(document.settledIndex(of: last) == chunks - 1)
        for (k, chunk) in fromEnd.enumerated() {
            #expect(document.chunk(at: chunks - 1 - k) == chunk)
        }
        // The chunks cover the text, each byte once.
        let ranges = (0..<chunks).map { document.chunk(at: $0)!.bytes }
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == bytes.count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }

    /// Plain text and MarkdownV2 are never read from their end: a blank line of the last
    /// megabyte may be inside a spoiler opened before it, which only the index can tell
    /// (``LongEntityChunkTests/theEndOfAFileThatBeginsInsideASpoilerShowsNoneOfIt(rule:)``).
    /// HTML tells by its end tags (``HTMLTailTests``).
    @Test(arguments: [ChunkBoundaryScanner.Rule.plainText, .markdownV2Text])
    func textsWithSpoilersWaitForTheIndex(rule: ChunkBoundaryScanner.Rule) throws {
        let bytes = Self.text(paragraphs: 16_000, crlf: false)
        let document = Self.document(bytes, rule: rule)
        _ = document.chunk(at: 0)
        #expect(document.lastChunkFromEnd() == nil && !document.isIndexed)
        let chunks = document.chunkCount
        #expect(document.lastChunkFromEnd() == chunks - 1)
        #expect(try #require(document.chunk(at: chunks - 1)).message.text.contains("p15999 "))
    }

    /// A fence open over the whole of the last megabyte: the blank line found from the end
    /// is inside it, and the line that closes it would read, from there, as one that opens
    /// code: End waits for the index, which does not cut there, and the view goes to its end,
    /// where the code is shown as code (the index cuts it where it runs on for longer than a
    /// chunk, each part after a cut read after the fence: ``LongFenceChunkTests``).
    @Test func aBlankLineInsideFencedCodeIsNotAPlaceToCut() throws {
        let bytes = Self.text(paragraphs: 16_000, fence: 8_000)
        let document = ChunkedDocument(bytes: bytes, rule: .markdownBlocks, separator: "\n\n") {
            (chunk, part) throws(ParseError) in
            try ChunkedDocument.message(ofChunk: chunk, part: part, format: .markdown, options: ParseOptions())
        }
        var view = SpoilerTerminalView(
            document: document, size: DocumentViewTests.size, options: DocumentViewTests.options(),
            layout: DocumentViewTests.layout, scene: DocumentViewTests.scene)
        _ = view.frame(at: 0)
        view.key(.end, at: 0.1)
        _ = view.frame(at: 0.1)
        #expect(document.lastChunkFromEnd() == nil || document.isIndexed)
        let chunks = document.chunkCount
        #expect(document.lastChunkFromEnd() == chunks - 1)
        // The chunks inside the fenced code start after a cut inside it, and go on with it.
        let open = try #require(bytes.firstRange(of: Array("```".utf8))).lowerBound
        let close = try #require(bytes.lastIndex(of: UInt8(ascii: "`")))
        let inside = (0..<chunks).filter { (open + 1...close).contains(document.chunk(at: $0)!.bytes.lowerBound) }
        #expect(inside.count > 5)
        #expect(inside.allSatisfy { document.chunk(at: $0)!.joinsPrevious })
        _ = view.frame(at: 0.2)
        #expect(view.readFraction == 1)
        let rows = DocumentViewTests.textRows(view.frame(at: 0.3))
        #expect(rows.contains { $0.contains("||h15999x2||") } && !rows.contains { $0.contains("could not") })
    }

    /// Fenced code that opens before the last megabyte and closes in it, paragraphs with
    /// spoilers after it: read from the first blank line of the last megabyte (inside the
    /// code), the closing line would open code and the paragraphs after it show their
    /// spoilers. End waits for the index instead, and the end shows them hidden.
    @Test func aFenceClosedInTheLastMegabyteMakesEndWaitForTheIndex() throws {
        let bytes = Self.text(paragraphs: 16_000, fence: 8_000, fenceEnd: 15_990)
        let document = ChunkedDocument(bytes: bytes, rule: .markdownBlocks, separator: "\n\n") {
            (chunk, part) throws(ParseError) in
            try ChunkedDocument.message(ofChunk: chunk, part: part, format: .markdown, options: ParseOptions())
        }
        _ = document.chunk(at: 0)
        #expect(document.lastChunkFromEnd() == nil && !document.isIndexed)
        let chunks = document.chunkCount
        let last = try #require(document.chunk(at: chunks - 1))
        #expect(last.message.text.contains("p15999 ") && !last.message.text.contains("||"))
        let units = Array(last.message.text.utf16)
        let hidden = last.message.entities.filter { $0.type == .spoiler }.map {
            String(decoding: units[$0.offset..<($0.offset + $0.length)], as: UTF16.self)
        }
        #expect(hidden.contains("h15999x2"))
    }
}
