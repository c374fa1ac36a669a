import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// `spoiler read` of a long HTML file a chunk at a time, where one entity runs on for longer
/// than a chunk may be: the chunk is cut inside it, and each part is parsed between the
/// start tags of what is open at its start and the end tags of what is open at its end, so
/// the chunks read as the whole file does; a tag never closed is said to be so.
@Suite struct LongEntityChunkTests {
    /// Words, references and characters that go inside the long entities.
    static let words = [
        "word", "secret", "&amp;", "&lt;b&gt;", "&#8364;", "&#x1F600;", "&quot", "a&b", "é", "漢字", "😀", "\n",
        "\n\n", "\r\n", "  ", "x", "&ampx", "&#12345678901",
    ]
    /// Start tags that can be opened again, with the end tag of each.
    static let reopenable: [(String, String)] = [
        ("<tg-spoiler>", "</tg-spoiler>"), (#"<span class="tg-spoiler">"#, "</span>"), ("<b>", "</b>"),
        ("<STRONG >", "</strong>"), ("<i>", "</>"), ("<u>", "</u >"), ("<s>", "</s>"), ("<del>", "</del>"),
        (#"<a href="http://example.com/?a=1&amp;b=>">"#, "</a>"), (#"<a href="tg://user?id=42">"#, "</a>"),
        ("<code>", "</code>"), ("<pre>", "</pre>"), ("<blockquote expandable>", "</blockquote>"),
        (#"<tg-emoji emoji-id="5368324170671202286">"#, "</tg-emoji>"),
        (#"<a title='x > y' href="https://t.me/x">"#, "</a>"),
    ]
    /// Short pieces that must not be cut inside: an `<a>` that takes its text as its link,
    /// and a `<pre>` around a `<code>` with a language.
    static let short = [
        "<a>http://t.me/short</a>", #"<pre><code class="language-swift">let x</code></pre>"#,
        #"<pre><code class="language-c">a b c d</code>e</pre>"#,
        #"<pre>a <code class="language-c">b c d e</code></pre>"#,
        "<b></b>", "<i>i</i>",
    ]

    /// A document of words and entities, some of them nested and longer than a chunk.
    static func document(_ rng: inout SplitMix64) -> String {
        func words(_ count: Int, _ rng: inout SplitMix64) -> String {
            (0..<count).map { _ in
                LongEntityChunkTests.words[Int(rng.next() % UInt64(LongEntityChunkTests.words.count))]
            }
            .joined(separator: rng.next() % 2 == 0 ? " " : "")
        }
        func entity(_ depth: Int, _ rng: inout SplitMix64) -> String {
            let (open, close) = reopenable[Int(rng.next() % UInt64(reopenable.count))]
            // Text between the pieces: a run of tags with no text to cut between is cut after
            // twice the maximum as before (it cannot be read), which these do not test.
            var inner = "ab "
            for _ in 0..<Int(rng.next() % 4 + 1) {
                inner += " ab "
                switch rng.next() % 4 {
                case 0 where depth < 3: inner += entity(depth + 1, &rng)
                case 1: inner += short[Int(rng.next() % UInt64(short.count))]
                default: inner += words(Int(rng.next() % 60 + 1), &rng)
                }
            }
            // (Code holds no tags: what is inside is its text.)
            if open == "<code>" || open == "<pre>" { inner = words(Int(rng.next() % 60 + 1), &rng) }
            return open + inner + close
        }
        var text = ""
        for _ in 0..<Int(rng.next() % 6 + 1) {
            text += rng.next() % 3 == 0 ? words(Int(rng.next() % 20), &rng) : entity(0, &rng)
            text += rng.next() % 2 == 0 ? "\n\n" : " "
        }
        return text
    }

    /// Each UTF-16 unit's entities, as the reader uses them: type, link, language.
    static func coverage(_ message: Message) -> [Set<String>] {
        var marks = [Set<String>](repeating: [], count: message.text.utf16.count)
        for e in message.entities {
            let mark = "\(e.type) \(e.url ?? "") \(e.language ?? "") \(e.userID.map(String.init) ?? "")"
            for k in max(0, e.offset)..<min(marks.count, e.offset + e.length) { marks[k].insert(mark) }
        }
        return marks
    }

    /// Checks every chunk of `document` as the reader reads it: it parses (no "could not
    /// be read"), shows none of `marks`, and each `secret` in it is hidden and each `shown`
    /// not, both under every entity type of `under`. Returns how many `secret`s it found.
    static func hiddenSecrets(
        in document: ChunkedDocument, marks: [String], under: Set<EntityType> = []
    ) throws -> Int {
        var hidden = 0
        for k in 0..<document.chunkCount {
            let m = try #require(document.chunk(at: k)).message
            #expect(!m.text.contains("could not be read") && !marks.contains { m.text.contains($0) }, "chunk \(k)")
            let units = Array(m.text.utf16)
            var covered = [Set<EntityType>](repeating: [], count: units.count)
            for e in m.entities {
                for u in e.offset..<(e.offset + e.length) { covered[u].insert(e.type) }
            }
            for (word, isHidden) in [("secret", true), ("shown", false)] {
                let w = Array(word.utf16)
                for u in 0..<max(0, units.count - w.count + 1) where units[u..<(u + w.count)].elementsEqual(w) {
                    #expect(covered[u].contains(.spoiler) == isHidden, "chunk \(k): \(word) at \(u)")
                    #expect(covered[u].isSuperset(of: under), "chunk \(k): \(word) at \(u)")
                    if isHidden { hidden += 1 }
                }
            }
        }
        return hidden
    }

    /// Checks that no chunk of `document` shows `word` outside a spoiler, and returns how
    /// many chunks say `reason` (that they cannot be read).
    static func unreadableChunks(in document: ChunkedDocument, hiding word: String, reason: String) throws -> Int {
        var unreadable = 0
        let w = Array(word.utf16)
        for k in 0..<document.chunkCount {
            let m = try #require(document.chunk(at: k)).message
            let units = Array(m.text.utf16)
            let covered = LongEntityChunkTests.hidden(m)
            let shown = (0..<max(0, units.count - w.count + 1)).filter {
                !covered[$0] && units[$0..<($0 + w.count)].elementsEqual(w)
            }
            #expect(shown.isEmpty, "chunk \(k) shows \(shown.count) hidden: \(String(m.text.prefix(80)))")
            if m.text.contains(reason) { unreadable += 1 }
        }
        return unreadable
    }

    /// Whether each UTF-16 unit of `message` is inside a spoiler.
    static func hidden(_ message: Message) -> [Bool] {
        var covered = [Bool](repeating: false, count: message.utf16Length)
        for e in message.entities where e.type == .spoiler {
            for u in e.offset..<(e.offset + e.length) { covered[u] = true }
        }
        return covered
    }

    /// The chunks' texts joined by the line breaks they were cut after, with each unit's
    /// entities (those line breaks take the whole's, as in ``joinedChunks(of:_:whole:)``).
    static func joined(_ document: ChunkedDocument, _ bytes: [UInt8], whole: Message) -> (String, [Set<String>]) {
        joinedChunks(of: document, bytes, whole: whole, coverage: coverage)
    }

    static func html(_ bytes: [UInt8], rule: ChunkBoundaryScanner.Rule = .htmlText, min: Int, max: Int)
        -> ChunkedDocument
    {
        ChunkedDocument(bytes: bytes, rule: rule, minimumBytes: min, maximumBytes: max, separator: "\n") {
            chunk, _ in
            (try? HTMLParser.parse(chunk)) ?? Message(text: "[could not be read]")
        }
    }

    /// Checks that documents made by `document`, cut into chunks of at most 128 to 277 bytes
    /// by `chunked` (bytes, least and greatest chunk length), read as their whole parse
    /// (`parse`) does, and that more than 100 of the 800 were cut inside an entity.
    static func longEntitiesReadAsTheWhole(
        document: @escaping (inout SplitMix64) -> String, parse: ([UInt8]) throws -> Message,
        chunked: ([UInt8], Int, Int) -> ChunkedDocument
    ) {
        var cutInside = 0
        forAll(
            { rng -> ([UInt8], Int, Int) in
                let bytes = Array(document(&rng).utf8)
                // (At least twice the longest run the pieces make that has no place where what
                // is open can be opened again, which would be cut as before.)
                let max = Int(rng.next() % 150) + 128
                return (bytes, Int(rng.next() % UInt64(max)) + 1, max)
            }, count: 800
        ) { bytes, min, max in
            let whole: Message
            do {
                whole = try parse(bytes)
            } catch {
                Issue.record(
                    "the whole does not parse: \(error): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                return false
            }
            let document = chunked(bytes, min, max)
            let (text, marks) = LongEntityChunkTests.joined(document, bytes, whole: whole)
            if document.chunkCount > 1 && bytes.count > 2 * max { cutInside += 1 }
            guard text == whole.text && marks == LongEntityChunkTests.coverage(whole) else {
                let input = String(decoding: bytes, as: UTF8.self).debugDescription
                Issue.record("min \(min) max \(max): \(input) read \(text.debugDescription)")
                return false
            }
            return true
        }
        #expect(cutInside > 100)
    }

    /// A `<pre>` around a `<code class="language-swift">` and a line after it: no chunk is
    /// cut right after the line break that follows `</code>` (the chunk before is parsed
    /// without that line break, so `</code>` and the `</pre>` put after it gave the `pre` the
    /// code's language, which the whole does not have). Found by the `html-chunks` fuzz target.
    @Test func noCutRightAfterTheLineBreakAfterAnEndTag() throws {
        let text =
            "<pre><code class=\"language-swift\">let a = 2" + String(repeating: "\n", count: 60)
            + "2</code>\n\n&amp;</pre>\n\n<u>u</u>"
        let bytes = Array(text.utf8)
        let whole = try HTMLParser.parse(bytes)
        let document = LongEntityChunkTests.html(bytes, min: 16, max: 74)
        #expect(document.chunkCount > 1)
        let (read, marks) = LongEntityChunkTests.joined(document, bytes, whole: whole)
        #expect(read == whole.text && marks == LongEntityChunkTests.coverage(whole))
    }

    @Test func htmlEntitiesLongerThanAChunkReadAsTheWhole() {
        LongEntityChunkTests.longEntitiesReadAsTheWhole(
            document: LongEntityChunkTests.document, parse: { try HTMLParser.parse($0) },
            chunked: { LongEntityChunkTests.html($0, min: $1, max: $2) })
    }

    /// A spoiler of many chunks, as the reader reads it: every chunk parses, each word of it
    /// is hidden, and the text after it is not.
    @Test func aSpoilerOfManyChunksIsHiddenInEveryChunk() throws {
        let inside = (0..<2000).map { $0 % 13 == 12 ? "secret\n\n" : "secret " }.joined()
        let bytes = Array(("before\n\n<b>bold <tg-spoiler>" + inside + "</tg-spoiler> shown</b> after\n").utf8)
        let document = LongEntityChunkTests.html(bytes, min: 100, max: 1000)
        #expect(document.chunkCount > 10)
        #expect(try LongEntityChunkTests.hiddenSecrets(in: document, marks: ["<"]) == 2000)
    }

    /// A spoiler of many chunks with no text to cut between (a character between tags on
    /// each line): no place where its tags can be opened again comes in twice a chunk, and
    /// the chunks cut inside it say they cannot be read. Parsed as they were, without the
    /// tags around them, they showed its words.
    @Test func aSpoilerWithNoPlaceToCutIsNotShown() throws {
        let inside = String(repeating: "<b>q</b>\n", count: 400)
        let bytes = Array(("before\n\n<tg-spoiler>" + inside + "</tg-spoiler>\n\nlater\n").utf8)
        #expect(try HTMLParser.parse(bytes).entities.contains { $0.type == .spoiler && $0.length > 400 })
        let document = ChunkedDocument(
            bytes: bytes, rule: .htmlText, minimumBytes: 10, maximumBytes: 300, separator: "\n"
        ) { chunk, _ in
            (try? HTMLParser.parse(chunk)) ?? Message(text: "[could not be read]")
        } failed: { error in
            Message(text: "[could not be read: \(error.reason)]")
        }
        #expect(document.chunkCount > 4)
        let unreadable = try LongEntityChunkTests.unreadableChunks(
            in: document, hiding: "q", reason: "HTML cannot be read a chunk at a time inside it")
        #expect(unreadable > 2)
        #expect(document.chunk(at: 0)?.message.text == "before")
    }

    /// MarkdownV2 lines that end in a backslash (which escapes the line break, or the
    /// carriage return before it): a chunk cut where it must be is never cut after one, so
    /// no chunk shows a backslash the whole text's parse takes as an escape.
    @Test func aMarkdownV2LineEndingInABackslashIsNotCutAfter() throws {
        let lines = (0..<60).map { k in "line \(k) words" + (k % 3 == 0 ? "\\" : "") + (k % 2 == 0 ? "\r\n" : "\n") }
        let bytes = Array(lines.joined().utf8)
        let whole = try MarkdownV2Parser.parse(bytes)
        for max in [16, 23, 40, 64] {
            let document = ChunkedDocument(
                bytes: bytes, rule: .markdownV2Text, minimumBytes: 4, maximumBytes: max, separator: "\n"
            ) { chunk, _ in
                (try? MarkdownV2Parser.parse(chunk)) ?? Message(text: "[could not be read]")
            }
            #expect(document.chunkCount > 10)
            let (text, _) = joinedChunks(of: document, bytes, whole: whole)
            #expect(text == whole.text, "max \(max)")
            #expect(!text.contains("\\"))
        }
    }

    /// A tag never closed makes the whole file's parse fail: the chunks inside it say so,
    /// naming the tag and where it opens, and show none of its text.
    @Test func aTagNeverClosedIsSaidToBe() throws {
        let inside = (0..<600).map { $0 % 11 == 10 ? "secret\n\n" : "secret " }.joined()
        let text = "shown first\n\n<tg-spoiler>" + inside
        let bytes = Array(text.utf8)
        #expect(throws: ParseError.self) { try HTMLParser.parse(bytes) }
        let document = ChunkedDocument(
            bytes: bytes, rule: .htmlText, minimumBytes: 10, maximumBytes: 500, separator: "\n"
        ) { chunk, _ in
            (try? HTMLParser.parse(chunk)) ?? Message(text: "[could not be read]")
        } failed: { error in
            Message(text: "[could not be read: \(error.position.map { "\($0)" } ?? "?"): \(error.reason)]")
        }
        #expect(document.chunkCount > 5)
        #expect(document.chunk(at: 0)?.message.text == "shown first\n")
        for k in 1..<document.chunkCount {
            let m = try #require(document.chunk(at: k)).message
            #expect(m.text == #"[could not be read: 3:1: Can't find end tag corresponding to start tag "tg-spoiler"]"#)
        }
    }

    /// End in a long MarkdownV2 or HTML file whose last megabyte begins inside a spoiler
    /// (opened before it, across blank lines): the chunks the reader gets for the end, before
    /// the index is built and after, show none of its words.
    @Test(arguments: [ChunkBoundaryScanner.Rule.htmlText, .markdownV2Text])
    func theEndOfAFileThatBeginsInsideASpoilerShowsNoneOfIt(rule: ChunkBoundaryScanner.Rule) throws {
        let (open, close) = rule == .htmlText ? ("<tg-spoiler>", "</tg-spoiler>") : ("||", "||")
        var text = ""
        while text.utf8.count < 2_300_000 { text += "word word word word word word word word word word\n\n" }
        text += open
        while text.utf8.count < 3_000_000 { text += "secret secret secret secret\n\n" }
        text += "secret" + close + " shown\n\n"
        while text.utf8.count < 3_400_000 { text += "tail tail tail tail tail tail\n\n" }
        let bytes = Array(text.utf8)
        let format: InputFormat = rule == .htmlText ? .html : .markdownV2
        let document = ChunkedDocument(bytes: bytes, rule: rule, separator: "\n") { chunk, _ in
            (try? MessageParser.parse(chunk, from: format)) ?? Message(text: "[could not be read]")
        }
        /// The words "secret" outside a spoiler in the chunks from `last` back to `first`
        /// (the first found from the end, while they are provisional).
        func shown(from last: Int, to first: Int) -> Int {
            var count = 0
            for k in stride(from: last, through: first, by: -1) {
                guard let m = document.chunk(at: k)?.message else { break }
                let units = Array(m.text.utf16)
                var covered = [Bool](repeating: false, count: units.count)
                for e in m.entities where e.type == .spoiler {
                    for u in e.offset..<(e.offset + e.length) { covered[u] = true }
                }
                let word = Array("secret".utf16)
                for u in 0..<max(0, units.count - word.count + 1)
                where !covered[u] && units[u..<(u + word.count)].elementsEqual(word) {
                    count += 1
                }
            }
            return count
        }
        // (The spoiler runs from 1.1 MB before the end: about 280 chunks of 4 KB.)
        if let last = document.lastChunkFromEnd() { #expect(shown(from: last, to: 1 << 48) == 0) }
        _ = document.chunkCount
        let last = try #require(document.lastChunkFromEnd())
        #expect(shown(from: last, to: max(0, last - 400)) == 0)
    }
}
