import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// `spoiler read` of a long Markdown file a chunk at a time, where fenced code runs on for
/// longer than a chunk may be: the chunk is cut at a line break inside it and the part after
/// is parsed after the fence's opening line, so that every part is the same code and the
/// chunks read as the whole file does; a line the scan takes for a fence and the parse does
/// not (inside an HTML block) never turns what follows into code.
@Suite struct LongFenceChunkTests {
    /// Lines that go inside fenced code, some of them markup outside it.
    static let codeLines = [
        "let x = 1", "||shown in code||", "*not emphasis*", "", "    indented", "``", "`inline`", "~~", "é 漢字 😀",
        "<div>", "# not a heading", "``` not a closing fence", "\t tab",
    ]
    /// Blocks between the fences.
    static let blocks = [
        "a ||secret|| word", "*em* and ||more secret||", "# Heading ||secret h||", "plain words", "x ||secret\nz|| w",
        "<div>\n```\n</div>", "``` a`b\n||secret after a line that opens no fence||",
    ]
    /// Fences that open code: backticks and tildes, with and without an info string.
    static let fences = [("```", "```"), ("```swift", "```"), ("~~~", "~~~"), ("````c++ x", "````"), ("  ```", "```")]

    /// A document of blocks and fenced code, the code often longer than a chunk.
    static func document(_ rng: inout SplitMix64) -> String {
        var text = ""
        for _ in 0..<Int(rng.next() % 6 + 1) {
            if rng.next() % 2 == 0 {
                let (open, close) = fences[Int(rng.next() % UInt64(fences.count))]
                // (A first line: a block of no text would be a chunk of none, shown as an
                // empty row, which the whole has not.)
                text += open + "\nfirst\n"
                for _ in 0..<Int(rng.next() % 60) {
                    text += codeLines[Int(rng.next() % UInt64(codeLines.count))] + (rng.next() % 9 == 0 ? "\r\n" : "\n")
                }
                // (Sometimes never closed: the end of the document closes it. Its last line is
                // then not blank, which a whole file's parse keeps in the code and a chunk's,
                // of a text without the file's last line break, does not.)
                if rng.next() % 8 == 0 {
                    while text.hasSuffix("\n") { text.removeLast() }
                    return text + "\nend\n"
                }
                text += close + "\n"
            } else {
                text += blocks[Int(rng.next() % UInt64(blocks.count))] + "\n"
            }
            text += "\n"
        }
        return text
    }

    static func parse(_ bytes: [UInt8]) throws -> Message {
        try MessageParser.parse(bytes, from: .markdown, options: ParseOptions())
    }

    static func markdown(_ bytes: [UInt8], min: Int, max: Int) -> ChunkedDocument {
        ChunkedDocument(bytes: bytes, rule: .markdownBlocks, minimumBytes: min, maximumBytes: max, separator: "\n\n") {
            (chunk, part) throws(ParseError) in
            try ChunkedDocument.message(ofChunk: chunk, part: part, format: .markdown, options: ParseOptions())
        }
    }

    /// The chunks' texts joined as the reader shows them: a line break before a chunk that
    /// goes on with the block before it, a blank line before any other; with the kind of
    /// each unit (`s` under a spoiler, `c` in code, `.` neither, the joins `.`), and how
    /// many chunks went on with the block before them.
    static func joined(_ document: ChunkedDocument) -> (text: String, kinds: String, joins: Int) {
        var text = ""
        var kinds = ""
        var joins = 0
        var k = 0
        while let chunk = document.chunk(at: k) {
            if k > 0 {
                let separator = chunk.joinsPrevious ? "\n" : "\n\n"
                text += separator
                kinds += String(repeating: ".", count: separator.utf16.count)
            }
            if chunk.joinsPrevious { joins += 1 }
            text += chunk.message.text
            kinds += LongFenceChunkTests.kinds(chunk.message)
            k += 1
        }
        return (text, kinds, joins)
    }

    /// Whether every `secret` of the text read is under a spoiler.
    static func showsNoSecret(_ read: (text: String, kinds: String, joins: Int)) -> Bool {
        let text = Array(read.text.utf16)
        let kinds = Array(read.kinds.utf8)
        let secret = Array("secret".utf16)
        guard text.count >= secret.count else { return true }
        for k in 0...(text.count - secret.count) where Array(text[k..<(k + secret.count)]) == secret {
            if kinds[k] != UInt8(ascii: "s") { return false }
        }
        return true
    }

    /// The kind of each UTF-16 unit of `message`'s text, as ``joined(_:)`` marks it.
    static func kinds(_ message: Message) -> String {
        var marks = Array(repeating: UInt8(ascii: "."), count: message.text.utf16.count)
        for e in message.entities where e.type == .pre || e.type == .spoiler {
            let mark = e.type == .spoiler ? UInt8(ascii: "s") : UInt8(ascii: "c")
            for u in max(0, e.offset)..<min(marks.count, e.offset + e.length) where marks[u] != UInt8(ascii: "s") {
                marks[u] = mark
            }
        }
        return String(decoding: marks, as: UTF8.self)
    }

    /// `kinds` with the code's marks on line breaks taken off: the reader draws no entity
    /// over the line break that joins two chunks, where the whole has one line of code
    /// after another.
    static func withoutCodeOnLineBreaks(_ kinds: String, text: String) -> String {
        String(zip(kinds, text.utf16).map { kind, unit in unit == 0x0A && kind == "c" ? "." : kind })
    }

    @Test func fencedCodeLongerThanAChunkReadsAsTheWhole() throws {
        var joinsSeen = 0
        forAll(
            { rng -> ([UInt8], Int, Int) in
                let bytes = Array(LongFenceChunkTests.document(&rng).utf8)
                // (At least 64 more than the least, so that only code is longer than a chunk
                // may be: a paragraph cut at a line break reads as two.)
                let min = Int(rng.next() % 64) + 1
                return (bytes, min, min + 64 + Int(rng.next() % 100))
            }, count: 800
        ) { bytes, min, max in
            guard let whole = try? LongFenceChunkTests.parse(bytes) else { return false }
            let read = LongFenceChunkTests.joined(LongFenceChunkTests.markdown(bytes, min: min, max: max))
            joinsSeen += read.joins
            let wholeKinds = LongFenceChunkTests.kinds(whole)
            // After a line of backticks in an HTML block, which the scan takes for a fence, it
            // follows other fences out of step with the parse: chunks it cuts inside what it
            // takes for code cannot be read, and further on it may take code for text and
            // text for code (a known limit; the tests below check what is guarded).
            let inStep = !String(decoding: bytes, as: UTF8.self).contains("<div>\n```")
            guard
                !inStep
                    || (LongFenceChunkTests.showsNoSecret(read) && read.text == whole.text
                        && LongFenceChunkTests.withoutCodeOnLineBreaks(read.kinds, text: read.text)
                            == LongFenceChunkTests.withoutCodeOnLineBreaks(wholeKinds, text: whole.text))
            else {
                Issue.record(
                    """
                    min \(min) max \(max): \(String(decoding: bytes, as: UTF8.self).debugDescription)
                    whole \(whole.text.debugDescription) \(wholeKinds)
                    read  \(read.text.debugDescription) \(read.kinds)
                    """)
                return false
            }
            return true
        }
        #expect(joinsSeen > 500)
    }

    /// 3,000 lines of Swift in one fence, over 100 KB: cut into chunks of at most about 4 KB,
    /// each part is Swift code (its language kept), the code's `||` shown as it is, and the
    /// spoilers before and after it hidden.
    @Test func aLongFenceIsCutIntoPartsOfTheSameCode() throws {
        var text = "a ||hidden before|| word\n\n```swift\n"
        for k in 0..<3000 { text += "let s\(k) = \"||not hidden \(k)||\"\n" + (k % 100 == 99 ? "\n" : "") }
        text += "```\n\nafter ||hidden after||\n"
        let bytes = Array(text.utf8)
        let document = LongFenceChunkTests.markdown(bytes, min: 1024, max: 4096)
        let whole = try LongFenceChunkTests.parse(bytes)
        let read = LongFenceChunkTests.joined(document)
        #expect(document.chunkCount > 25)
        #expect(read.joins == document.chunkCount - 2)
        #expect(read.text == whole.text)
        #expect(read.text.contains("||not hidden 2999||"))
        for k in 1..<(document.chunkCount - 1) {
            let chunk = try #require(document.chunk(at: k))
            #expect(chunk.bytes.count <= 4096 + 64)
            #expect(chunk.message.entities.contains { $0.type == .pre && $0.language == "swift" })
            #expect(!chunk.message.entities.contains { $0.type == .spoiler })
        }
        let last = try #require(document.chunk(at: document.chunkCount - 1))
        #expect(last.message.text == "after hidden after" && last.message.entities.map(\.type) == [.spoiler])
    }

    /// A fence whose opening line is longer than the scan keeps (4 KB of info string): the
    /// parts after a cut are opened with its fence alone, the same code without its language.
    @Test func aFenceWithALongInfoStringIsOpenedAgainWithoutIt() throws {
        var text = "```" + String(repeating: "i", count: 5000) + "\n"
        for k in 0..<1000 { text += "code ||\(k)||\n" }
        text += "```\n"
        let bytes = Array(text.utf8)
        let document = LongFenceChunkTests.markdown(bytes, min: 1024, max: 4096)
        #expect(LongFenceChunkTests.joined(document).text == (try LongFenceChunkTests.parse(bytes)).text)
        let second = try #require(document.chunk(at: 1))
        #expect(second.joinsPrevious)
        #expect(second.message.entities.contains { $0.type == .pre && $0.language == nil })
        let first = try #require(document.chunk(at: 0))
        #expect(
            first.message.entities.contains { $0.type == .pre && $0.language == String(repeating: "i", count: 5000) })
    }

    /// A line of backticks inside an HTML block is no fence to the parse, though the scan,
    /// which does not follow HTML blocks, takes it for one: the chunks the scan cuts inside
    /// what it takes for code cannot be read on their own (what is code there only the whole
    /// file's parse knows), and say so, with the line; none shows a secret. (Were they parsed
    /// as code, each would show its spoilers' text; parsed as they are, a line that closes
    /// real code would open it.)
    @Test func aFenceLineInsideAnHTMLBlockShowsNoSecret() throws {
        var text = "<div>\n```\n</div>\n\n"
        for k in 0..<2000 { text += "- item ||secret \(k)||\n" }
        let bytes = Array(text.utf8)
        let document = LongFenceChunkTests.markdown(bytes, min: 1024, max: 4096)
        let read = LongFenceChunkTests.joined(document)
        #expect(document.chunkCount > 10)
        #expect(read.joins == 0)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        let first = try #require(document.chunk(at: 0))
        #expect(first.message.text.hasPrefix("<div>\n```\n</div>\n\n• item secret 0"))
        let second = try #require(document.chunk(at: 1))
        #expect(second.message.text.hasPrefix("[could not be read: This line looks like the start of fenced code"))
        #expect(second.message.entities.isEmpty)
        // Where the line is: line 2, column 1.
        let located = ChunkedDocument(
            bytes: bytes, rule: .markdownBlocks, minimumBytes: 1024, maximumBytes: 4096, separator: "\n\n"
        ) {
            (chunk, part) throws(ParseError) in
            try ChunkedDocument.message(ofChunk: chunk, part: part, format: .markdown, options: ParseOptions())
        } failed: { error in
            Message(text: error.position.map { "\($0.line):\($0.column)" } ?? "?")
        }
        #expect(located.chunk(at: 1)?.message.text == "2:1")
    }

    /// Fenced code in a list item (`- ```sh`), which the scan does not follow, with a blank
    /// line inside: the chunk cut at that blank line would read the line that closes the
    /// code as one that opens it, and the text after it as code. The parse of the chunk
    /// before says code is open at its end: the chunk after says it cannot be read, and
    /// shows no secret. (Before, it showed the secret after the code as it is.)
    @Test func aChunkCutInsideCodeTheScanDoesNotFollowShowsNoSecret() throws {
        var text = ""
        for k in 0..<40 { text += "paragraph \(k) ||secret \(k)||\n\n" }
        // (The first chunk at least as long as the text before the code: it is cut at the
        // blank line inside the code.)
        let before = text.utf8.count
        text += "- ```sh\n  code line\n\n  ||shown in code||\n  ```\n\nafter ||secret after||\n"
        let bytes = Array(text.utf8)
        let document = LongFenceChunkTests.markdown(bytes, min: before + 4, max: 4096)
        let read = LongFenceChunkTests.joined(document)
        #expect(document.chunkCount == 2)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        let last = try #require(document.chunk(at: 1))
        #expect(last.message.text.hasPrefix("[could not be read: Fenced code that this reading could not follow"))
        let first = try #require(document.chunk(at: 0))
        #expect(first.message.text.hasSuffix("• code line") || first.message.text.hasSuffix("code line"))
    }

    /// After a line of backticks in an HTML block, which the scan takes for a fence, a chunk
    /// is cut at a line break inside a paragraph, inside a spoiler (`x ||secret\nz|| w`):
    /// the chunk before the cut cannot be read either (read alone, it showed `||secret`).
    /// Found by the `markdown-chunks` fuzz target.
    @Test func theChunkBeforeACutAfterALineTakenForAFenceShowsNoSecret() throws {
        let text =
            "<div>\n```\n</div>\n\n> quoted ||secret q||\n\n*em* and ||more secret||\n\nplain words\n\n"
            + "x ||secret\nz|| w\n\n*em* and ||more secret||\n\na ||secret|| word\n\na ||secret|| word\n\n"
            + "```swift\nfirst\n``\nend\n"
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 6, max: 70)
        let read = LongFenceChunkTests.joined(document)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        #expect(document.chunk(at: 0)?.message.text.hasPrefix("[could not be read: A paragraph runs on") == true)
    }

    /// A paragraph longer than a chunk may be, cut at a line break inside a spoiler: the
    /// chunks on both sides of the cut cannot be read (read alone, each showed the spoiler's
    /// `||` and text), and those before and after them read as ever.
    @Test func aParagraphCutInsideASpoilerShowsNoSecret() throws {
        var text = "first paragraph ||secret 0||\n\n"
        // (The spoiler from line 100 to line 180; the chunk is cut after 4 KB, about line 140.)
        for k in 0..<200 {
            text += (k == 100 ? "||secret " : "") + "line \(k) of a long paragraph" + (k == 180 ? "||" : "") + "\n"
        }
        text += "\nlast paragraph ||secret 1||\n"
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 16, max: 4096)
        let read = LongFenceChunkTests.joined(document)
        #expect(document.chunkCount >= 3)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        let unreadable = (0..<document.chunkCount).filter {
            document.chunk(at: $0)?.message.text.hasPrefix("[could not be read: A paragraph runs on") == true
        }
        #expect(unreadable.count == 2)
        #expect(read.text.contains("first paragraph secret 0") && read.text.contains("last paragraph secret 1"))
        #expect(!read.text.contains("line 140 of"))
    }

    /// Fenced code in a list item whose closing line (`  ````) the scan takes for an opening
    /// one: the chunk that holds that line comes after one that ends inside code, so its
    /// parse alone is out of step, and cannot vouch for that fence; the chunks cut inside
    /// what the scan takes for code cannot be read. (Vouched for, they were read as code and
    /// showed a heading's spoiler.) Found by the `markdown-chunks` fuzz target.
    @Test func aFenceHeldOnlyByAChunkReadOutOfStepShowsNoSecret() throws {
        let item = "- ```sh\n  code ||in a list||\n\n  more\n  ```\n\n"
        let text =
            "> quoted ||secret q||\n\nx ||secret\nz|| w\n\n*em* and ||more secret||\n\nx ||secret\nz|| w\n\n" + item
            + "plain words\n\nplain words\n\nx ||secret\nz|| w\n\n# Heading ||secret h||\n\nx ||secret\nz|| w\n\n"
            + "# Heading ||secret h||\n\n" + item + "x ||secret\nz|| w\n\n"
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 6, max: 70)
        let read = LongFenceChunkTests.joined(document)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        #expect(read.joins == 0)
    }

    /// Fenced code in a list item whose closing line the scan takes for an opening one,
    /// then, further on, fenced code at the top of the document: the chunk after the one
    /// that cannot be read starts inside that code, though the chunk before it, read alone
    /// out of step, ends outside code; and the scan, out of step, takes a later line for a
    /// fence whose chunk vouches for it only because it is read out of step too. Every
    /// chunk from the list item on cannot be read (read so, the last showed the text after
    /// the code as code, with its spoiler). Found by the `markdown-chunks` fuzz target once
    /// it looked for a `secret` shown in every document.
    @Test func chunksAfterOneReadOutOfStepShowNoSecret() throws {
        let text =
            "*em* and ||more secret||\n\nx ||secret\nz|| w\n\n*em* and ||more secret||\n\nx ||secret\nz|| w\n\n"
            + "- ```sh\n  code ||in a list||\n\n  more\n  ```\n\na ||secret|| word\n\n"
            + "```\nfirst\nlet x = 1\nlet x = 1\né 漢字 😀\r\nlet x = 1\n||shown in code||\né 漢字 😀\n```\n\n"
            + "``` a`b\n||secret after a line that opens no fence||\n\nplain words\n\n"
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 6, max: 70)
        let read = LongFenceChunkTests.joined(document)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        #expect(document.chunkCount == 8)
        // The chunks before the list item read as ever.
        #expect(document.chunk(at: 3)?.message.text == "x secret\nz w")
        for k in 5..<8 {
            #expect(document.chunk(at: k)?.message.text.hasPrefix("[could not be read: ") == true)
        }
    }

    /// A line of backticks in an HTML block, which the scan takes for a fence, then fenced
    /// code with a line of tildes in it: the scan, out of step, takes the tildes for a fence
    /// and cuts the code after them. The chunk that holds them reads in step and ends inside
    /// code, but code the backticks before opened: the cut cannot be parsed after the tildes
    /// (so parsed, the tildes' code ran on past the backticks that close the real code, and
    /// the paragraph after it showed its spoiler as code). Found by the `markdown-chunks`
    /// fuzz target.
    @Test func aFenceLineInsideCodeOpenedByAnotherHoldsNoCut() throws {
        let text =
            "a ||secret|| word\n\n<div>\n```\n</div>\n\n# Heading ||secret h||\n\n```\nfirst\n~~~ x\n``\n"
            + String(repeating: "``` not a closing fence\r\n", count: 50) + "```\n\na ||secret|| word\n\n"
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 6, max: 70)
        let read = LongFenceChunkTests.joined(document)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        #expect(read.joins == 0)
    }
}
