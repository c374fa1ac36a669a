import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// `spoiler read` of a long HTML file shows its end at once (End), before the index of its
/// chunks gets there: the chunks from the first blank line of the last megabyte are found
/// from the end when the scan from there to the end of the file closes every tag it opens
/// and closes none it did not (so that nothing is open at that line), and once the index
/// is built they are its last chunks, as they were.
@Suite struct HTMLTailTests {
    /// About `bytes` of paragraphs with bold, links, references and spoilers (each
    /// spoiler's word is `secret`, every other word is not), and 300 KB before the end one
    /// spoiler of 200 KB across blank lines: the chunks are cut inside it.
    static func document(bytes: Int) -> [UInt8] {
        var text = ""
        var p = 0
        func paragraph() {
            text += "p\(p) word <b>bold</b> <tg-spoiler>secret</tg-spoiler> shown &amp; "
            text += #"<a href="http://t.me/x">link</a> <i>it <tg-spoiler>secret</tg-spoiler></i> end"#
            text += p % 5 == 0 ? "\nsecond line\n\n" : "\n\n"
            p += 1
        }
        while text.utf8.count < bytes - 300_000 { paragraph() }
        text += "<tg-spoiler>"
        while text.utf8.count < bytes - 100_000 { text += "secret secret secret\n\nsecret secret\n" }
        text += "secret</tg-spoiler> shown\n\n"
        while text.utf8.count < bytes { paragraph() }
        return Array(text.utf8)
    }

    static func chunked(_ bytes: [UInt8]) -> ChunkedDocument {
        ChunkedDocument(bytes: bytes, rule: .htmlText, separator: "\n") { chunk, _ in
            (try? MessageParser.parse(chunk, from: .html)) ?? Message(text: "[could not be read]")
        }
    }

    /// How many times `word` is in `message` where it is hidden (or not).
    static func count(_ word: String, hidden: Bool, in message: Message) -> Int {
        let units = Array(message.text.utf16)
        var covered = [Bool](repeating: false, count: units.count)
        for e in message.entities where e.type == .spoiler {
            for u in e.offset..<(e.offset + e.length) { covered[u] = true }
        }
        let w = Array(word.utf16)
        return (0..<max(0, units.count - w.count + 1)).count { u in
            covered[u] == hidden && units[u..<(u + w.count)].elementsEqual(w)
        }
    }

    @Test func theEndOfALongHTMLFileShowsAtOnceAndIsTheIndexs() throws {
        let bytes = Self.document(bytes: 3_200_000)
        let document = Self.chunked(bytes)
        _ = document.chunk(at: 0)
        let last = try #require(document.lastChunkFromEnd())
        #expect(last >= 1 << 48 && !document.isIndexed && document.settledIndex(of: last) == nil)
        // Every chunk found from the end, before the index gets there.
        var fromEnd: [ReaderChunk] = []
        while last - fromEnd.count >= 1 << 48, let chunk = document.chunk(at: last - fromEnd.count) {
            fromEnd.append(chunk)
        }
        #expect(!document.isIndexed)
        #expect(fromEnd.count > 10)
        #expect(fromEnd.first?.bytes.upperBound == bytes.count)
        let tailStart = try #require(fromEnd.last?.bytes.lowerBound)
        #expect(bytes.count - tailStart <= 1 << 20)
        var secrets = 0
        for chunk in fromEnd {
            #expect(Self.count("secret", hidden: false, in: chunk.message) == 0)
            #expect(Self.count("shown", hidden: true, in: chunk.message) == 0)
            #expect(!chunk.message.text.contains("<") && !chunk.message.text.contains("could not be read"))
            secrets += Self.count("secret", hidden: true, in: chunk.message)
        }
        // The long spoiler (about 27,700 of them) is in the tail, cut into several chunks.
        #expect(secrets > 27_700)
        // Once the index is built, the same chunks are its last.
        let chunks = document.chunkCount
        #expect(document.settledIndex(of: last) == chunks - 1)
        for (k, chunk) in fromEnd.enumerated() {
            #expect(document.chunk(at: chunks - 1 - k) == chunk)
        }
    }

    /// Random documents (``LongEntityChunkTests/document(_:)``: entities longer than a chunk,
    /// nested, links, code, references, blank lines inside entities), read in small blocks
    /// so that each behaves as a large file does: wherever the end is found from the end,
    /// its chunks are the index's last ones, each as it was (in about one in six).
    @Test func theEndFoundFromTheEndIsTheIndexsForAnyDocument() {
        var found = 0
        var parsed = 0
        forAll(
            { rng -> (String, Int) in
                var text = ""
                while text.utf8.count < 6000 {
                    text += LongEntityChunkTests.document(&rng) + "\n\n"
                    if rng.next() % 2 == 0 { text += "plain words between\n\n" }
                }
                return (text, Int(rng.next() % 1500) + 500)
            }, count: 400
        ) { text, block in
            let bytes = Array(text.utf8)
            guard (try? HTMLParser.parse(bytes)) != nil else { return true }
            parsed += 1
            let document = ChunkedDocument(
                bytes: bytes, rule: .htmlText, minimumBytes: 64, maximumBytes: 256, blockBytes: block, separator: "\n"
            ) { chunk, _ in
                (try? HTMLParser.parse(chunk)) ?? Message(text: "[could not be read]")
            }
            _ = document.chunk(at: 0)
            guard let last = document.lastChunkFromEnd(), last >= 1 << 48 else { return true }
            found += 1
            var fromEnd: [ReaderChunk] = []
            while last - fromEnd.count >= 1 << 48, let chunk = document.chunk(at: last - fromEnd.count) {
                fromEnd.append(chunk)
            }
            let chunks = document.chunkCount
            guard document.settledIndex(of: last) == chunks - 1 else {
                Issue.record("block \(block): the chunks found from the end are not the index's")
                return false
            }
            for (k, chunk) in fromEnd.enumerated() where document.chunk(at: chunks - 1 - k) != chunk {
                Issue.record("block \(block): chunk \(k) from the end is not the index's")
                return false
            }
            return true
        }
        #expect(found > 50, "\(found) of \(parsed) found from the end")
    }

    /// A file whose parse fails in its last megabyte (an end tag with nothing open, or not
    /// the innermost open tag's, or a tag never closed) is not read from its end: the index
    /// says where it fails.
    @Test(arguments: ["stray</b> end\n\n", "<b>bold</i></b>\n\n", "<b>bold\n\n"])
    func aTagTheParseRejectsWaitsForTheIndex(stray: String) throws {
        var bytes = Self.document(bytes: 3_200_000)
        bytes += Array(stray.utf8)
        let document = Self.chunked(bytes)
        _ = document.chunk(at: 0)
        #expect(document.lastChunkFromEnd() == nil && !document.isIndexed)
        let chunks = document.chunkCount
        #expect(document.lastChunkFromEnd() == chunks - 1)
    }
}
