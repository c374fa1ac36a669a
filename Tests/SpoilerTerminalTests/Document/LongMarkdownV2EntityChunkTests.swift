import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// `spoiler read` of a long MarkdownV2 file a chunk at a time, where one entity runs on for
/// longer than a chunk may be: the chunk is cut inside it, between two characters of text,
/// and each part is parsed after the markers that open what is open at its start and before
/// those that close what is open at its end, so the chunks read as the whole file does;
/// where what is open cannot be opened again (a link's text, code, a quotation) the chunks
/// on either side say they cannot be read; an entity never closed is said to be so.
@Suite struct LongMarkdownV2EntityChunkTests {
    /// Words and escapes that go inside the long entities.
    static let words = [
        "word", "secret", "\\*", "\\_", "\\|", "\\\\", "\\.", "é", "漢字", "😀", "\n", "\n\n", "\r\n", "  ", "x",
        "a\\-b", "\\>",
    ]
    /// Markers that can be opened again.
    static let reopenable = ["*", "_", "__", "~", "||"]
    /// Short pieces that are not cut inside (or are cut as before: they do not run on so long).
    static let short = [
        "[link](http://example.com/a_b)", "`co|de*`", "```swift\nlet x\n```", "**", "_i_",
        "![👍](tg://emoji?id=5368324170671202286)",
    ]

    /// A document of words and entities, some of them nested and longer than a chunk.
    static func document(_ rng: inout SplitMix64) -> String {
        func words(_ count: Int, _ rng: inout SplitMix64) -> String {
            (0..<count).map { _ in
                LongMarkdownV2EntityChunkTests.words[
                    Int(rng.next() % UInt64(LongMarkdownV2EntityChunkTests.words.count))]
            }
            .joined(separator: rng.next() % 2 == 0 ? " " : "")
        }
        func entity(_ depth: Int, _ open: [String], _ rng: inout SplitMix64) -> String {
            // Not a marker already open (it would close it). Italic inside underline and
            // underline inside italic are reopened with an empty entity between their markers.
            let choices = reopenable.filter { !open.contains($0) }
            guard let marker = choices.isEmpty ? nil : choices[Int(rng.next() % UInt64(choices.count))] else {
                return words(3, &rng)
            }
            var inner = "ab "
            for _ in 0..<Int(rng.next() % 4 + 1) {
                inner += " ab "
                switch rng.next() % 4 {
                case 0 where depth < 3: inner += entity(depth + 1, open + [marker], &rng)
                case 1: inner += short[Int(rng.next() % UInt64(short.count))]
                default: inner += words(Int(rng.next() % 60 + 1), &rng)
                }
            }
            // (Text on both sides of each marker, as MarkdownV2 writers put it.)
            return marker + inner + " ab" + marker
        }
        var text = ""
        for _ in 0..<Int(rng.next() % 6 + 1) {
            text += rng.next() % 3 == 0 ? words(Int(rng.next() % 20), &rng) : entity(0, [], &rng)
            text += rng.next() % 2 == 0 ? "\n\n" : " "
        }
        return text
    }

    static func markdownV2(_ bytes: [UInt8], min: Int, max: Int) -> ChunkedDocument {
        ChunkedDocument(bytes: bytes, rule: .markdownV2Text, minimumBytes: min, maximumBytes: max, separator: "\n") {
            chunk, _ in
            (try? MarkdownV2Parser.parse(chunk)) ?? Message(text: "[could not be read]")
        } failed: { error in
            Message(text: "[could not be read: \(error.position.map { "\($0)" } ?? "?"): \(error.reason)]")
        }
    }

    @Test func entitiesLongerThanAChunkReadAsTheWhole() {
        LongEntityChunkTests.longEntitiesReadAsTheWhole(
            document: LongMarkdownV2EntityChunkTests.document, parse: { try MarkdownV2Parser.parse($0) },
            chunked: { LongMarkdownV2EntityChunkTests.markdownV2($0, min: $1, max: $2) })
    }

    /// A spoiler of many chunks inside bold, italic and underline, as the reader reads it:
    /// every chunk parses, each word of it is hidden and under all three, and the text after
    /// it is not hidden. Before, every chunk inside it said it could not be read.
    @Test func aSpoilerOfManyChunksIsHiddenInEveryChunk() throws {
        let inside = (0..<2000).map { $0 % 13 == 12 ? "secret\n\n" : $0 % 7 == 6 ? "secret\n" : "secret " }.joined()
        let bytes = Array(("before\n\n*bold __under _it ||" + inside + "secret|| shown_ ok__ x* after\n").utf8)
        let document = LongMarkdownV2EntityChunkTests.markdownV2(bytes, min: 100, max: 1000)
        #expect(document.chunkCount > 10)
        let hidden = try LongEntityChunkTests.hiddenSecrets(
            in: document, marks: ["*", "|"], under: [.bold, .underline, .italic])
        #expect(hidden == 2001)
    }

    /// A spoiler of many chunks inside a link's text (whose URL comes after it): no place
    /// where it can be opened again comes, and the chunks cut inside it say they cannot be
    /// read, showing none of its words.
    @Test func aSpoilerInsideALinkIsNotShown() throws {
        let inside = (0..<600).map { $0 % 11 == 10 ? "secret\n" : "secret " }.joined()
        let bytes = Array(("before\n\n[||" + inside + "||](https://example.com)\n\nlater\n").utf8)
        #expect(try MarkdownV2Parser.parse(bytes).entities.contains { $0.type == .spoiler && $0.length > 400 })
        let document = LongMarkdownV2EntityChunkTests.markdownV2(bytes, min: 4, max: 300)
        #expect(document.chunkCount > 4)
        let unreadable = try LongEntityChunkTests.unreadableChunks(
            in: document, hiding: "secret", reason: "MarkdownV2 cannot be read a chunk at a time inside it")
        #expect(unreadable > 2)
        #expect(document.chunk(at: 0)?.message.text == "before\n")
    }

    /// An entity never closed makes the whole file's parse fail: the chunks inside it say
    /// so, naming the entity and where it opens, as the whole parse does, and show none of
    /// its text.
    @Test func anEntityNeverClosedIsSaidToBe() throws {
        let inside = (0..<600).map { $0 % 11 == 10 ? "secret\n\n" : "secret " }.joined()
        let bytes = Array(("shown first\n\n*bold ||" + inside).utf8)
        var wholeError = ""
        do throws(ParseError) {
            _ = try MarkdownV2Parser.parse(bytes)
            Issue.record("the whole parses")
        } catch {
            wholeError = error.reason
        }
        let document = LongMarkdownV2EntityChunkTests.markdownV2(bytes, min: 10, max: 500)
        #expect(document.chunkCount > 5)
        #expect(document.chunk(at: 0)?.message.text == "shown first\n")
        for k in 1..<document.chunkCount {
            let m = try #require(document.chunk(at: k)).message
            #expect(m.text == "[could not be read: 3:7: \(wholeError)]")
        }
    }

    /// A quotation whose `||` before its end makes it expandable, then a spoiler that runs on
    /// for many chunks: the `||` opens no spoiler, so the text after the quotation is not
    /// taken as hidden (nor the spoiler's as shown).
    @Test func anExpandableQuotationsMarkOpensNoSpoiler() throws {
        let inside = (0..<800).map { $0 % 9 == 8 ? "secret\n" : "secret " }.joined()
        let bytes = Array((">quoted\n>more||\nplain words here\n\n||" + inside + "secret|| shown after\n").utf8)
        let whole = try MarkdownV2Parser.parse(bytes)
        #expect(whole.entities.contains { $0.type == .expandableBlockquote })
        let document = LongMarkdownV2EntityChunkTests.markdownV2(bytes, min: 10, max: 400)
        let (text, marks) = LongEntityChunkTests.joined(document, bytes, whole: whole)
        #expect(text == whole.text)
        #expect(marks == LongEntityChunkTests.coverage(whole))
        #expect(document.chunkCount > 5)
    }
}

extension LongMarkdownV2EntityChunkTests {
    /// A line longer than twice a chunk with no place to cut but right after a line break a
    /// backslash escapes: the chunk is not cut there (it is parsed without its last line
    /// break, and the backslash would show), but a byte later. Found by the
    /// `markdownv2-chunks` fuzz target.
    @Test func aChunkIsNotCutAfterAnEscapedLineBreak() throws {
        let line = "safePo\u{10}s" + String(repeating: "\\", count: 11) + "$" + String(repeating: "\\", count: 67)
        let text = line + "X\\\n\n\n1[x](xn-%0ai)\0\0\0" + String(repeating: "\n", count: 28)
        let bytes = Array(text.utf8)
        // (As a file is read: the line break that ends it is no part of the message.)
        let whole = try MarkdownV2Parser.parse(Array(bytes.dropLast()))
        #expect(whole.text.contains("X\n\n\n1x"))
        let document = LongMarkdownV2EntityChunkTests.markdownV2(bytes, min: 1, max: 9)
        let (joined, marks) = LongEntityChunkTests.joined(document, bytes, whole: whole)
        #expect(joined == whole.text + "\n")
        #expect(marks.prefix(whole.utf16Length) == LongEntityChunkTests.coverage(whole)[...])
    }

    /// A text of controls with no place to cut but inside its last line break, written
    /// `\r\n`: the chunk is not cut between the two (the chunk before would keep its
    /// carriage return as text). Found by the `markdownv2-chunks` fuzz target.
    @Test func aChunkIsNotCutInsideALineBreak() throws {
        let bytes: [UInt8] = [0, 0, 0, 0, 0, 0, 3, 0, 0x0D, 0x0D, 0x0D, 0x0D, 0x0A]
        // (As a file is read: the line break that ends it is no part of the message.)
        let whole = try MarkdownV2Parser.parse(Array(bytes.dropLast(2)))
        let document = LongMarkdownV2EntityChunkTests.markdownV2(bytes, min: 2, max: 4)
        let texts = (0..<document.chunkCount).compactMap { document.chunk(at: $0)?.message.text }
        // The chunks show the three carriage returns the whole does, not the line break's.
        let returns = texts.map { $0.unicodeScalars.filter { $0 == "\r" }.count }.reduce(0, +)
        #expect(returns == 3, "\(texts)")
        #expect(whole.text.unicodeScalars.filter { $0 == "\r" }.count == 3)
    }

    /// Backticks read as TDLib's parser reads them, from the first: six in a row inside pre
    /// close it and open another, which the last three close; one in a link's URL is the
    /// URL's. The index read the six as one close, took the last three for a pre never
    /// closed, and cut the file where the whole parse had pre open (and took the backtick in
    /// a URL for code, cutting nowhere after it): those chunks could not be read. Found by
    /// the `markdownv2-chunks` fuzz target.
    @Test func backticksInARowCloseAndOpenAsTheParserReadsThem() throws {
        let links = String(repeating: "[l](http://e.com/`a) w w w\n\n", count: 6)
        for text in ["```\n``````\n```", "a `b ````c``` d`` e\n\nf", "```\nx `y` z\n```\n\ng", links] {
            let bytes = Array(text.utf8)
            let whole = try MarkdownV2Parser.parse(bytes)
            for max in text == links ? [30, 40] : [1, 4, 9] {
                let document = ChunkedDocument(
                    bytes: bytes, rule: .markdownV2Text, minimumBytes: 1, maximumBytes: max, separator: "\n"
                ) { chunk, _ in
                    (try? MarkdownV2Parser.parse(chunk)) ?? Message(text: "[did not parse]")
                } failed: { _ in
                    Message(text: "[could not be read]")
                }
                let texts = (0..<document.chunkCount).compactMap { document.chunk(at: $0)?.message.text }
                #expect(!texts.contains("[did not parse]"), "\(text.debugDescription), max \(max): \(texts)")
                // Each link's paragraph a chunk of its own, cut after its blank line.
                if text == links { #expect(texts.prefix(6).allSatisfy { $0 == "l w w w\n" }, "\(texts)") }
                if !texts.contains("[could not be read]") {
                    #expect(LongEntityChunkTests.joined(document, bytes, whole: whole).0 == whole.text)
                }
            }
        }
    }
}
