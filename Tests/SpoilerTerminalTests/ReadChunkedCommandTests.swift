import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler read` of a file read a chunk at a time (`SPOILER_READ_CHUNKED=0`: every file)
/// prints what the reader of the whole file prints, for each input kind.
@Suite struct ReadChunkedCommandTests {
    static func fixture(_ path: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/\(path)").path
    }

    /// `text` written to a new temporary file named `name`-UUID.`ext`; the caller removes it.
    static func temporaryFile(_ text: String, name: String, ext: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).\(ext)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// `spoiler args` run twice, the file read whole and a chunk at a time, in `columns`
    /// columns.
    static func wholeAndChunked(_ args: [String], columns: Int) throws -> (whole: ProcessResult, chunked: ProcessResult)
    {
        let whole = try runSpoiler(args, environment: ["COLUMNS": "\(columns)", "SPOILER_READ_CHUNKED": "1000000000"])
        let chunked = try runSpoiler(args, environment: ["COLUMNS": "\(columns)", "SPOILER_READ_CHUNKED": "0"])
        return (whole, chunked)
    }

    /// `s` with every braille cell (dust) as `#`: the dust differs from one reading to the
    /// next (each chunk is a scene of its own); where it is does not.
    static func masked(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.map { (0x2800...0x28FF).contains($0.value) ? "#" : $0 }))
    }

    /// A text of paragraphs with hidden words, written to a temporary file: plain text
    /// (and MarkdownV2, which reads it alike), HTML (its `||` pairs as `<tg-spoiler>` tags)
    /// or Markdown.
    static func document(markdown: Bool, html: Bool = false) throws -> String {
        var text = ""
        for p in 0..<120 {
            if markdown && p % 10 == 0 { text += "## Part \(p)\n\n" }
            if markdown && p % 25 == 3 { text += "```\ncode \(p)\n\nstill code\n```\n\n" }
            text += (0..<(8 + p % 40)).map { $0 % 7 == 3 ? "||h\(p)x\($0)||" : "w\(p)x\($0)" }.joined(separator: " ")
            if p % 4 == 0 { text += "\nand a second line" }
            // Plain text: spoilers across blank lines, which a chunk must not cut.
            if !markdown && p % 9 == 5 { text += " ||across \(p)\n\nstill hidden \(p)||" }
            text += "\n\n"
        }
        if !markdown {
            // A spoiler longer than a chunk may be (64 KB), blank lines and all.
            text += "||" + (0..<9000).map { $0 % 50 == 49 ? "secret\n\n" : "secret " }.joined() + "|| shown\n"
        }
        if html {
            var tagged = ""
            var opens = true
            var rest = text[...]
            while let r = rest.range(of: "||") {
                tagged += rest[..<r.lowerBound] + (opens ? "<tg-spoiler>" : "</tg-spoiler>")
                opens.toggle()
                rest = rest[r.upperBound...]
            }
            text = tagged + rest
        }
        return try temporaryFile(text, name: "spoiler-chunked-\(markdown)", ext: markdown ? "md" : "txt").path
    }

    /// A Bot API message of paragraphs with hidden words (ASCII: offsets are bytes).
    static func botAPIMessage() throws -> String {
        var text = ""
        var entities: [String] = []
        for p in 0..<120 {
            for w in 0..<(8 + p % 40) {
                if w > 0 { text += " " }
                let word = w % 7 == 3 ? "h\(p)x\(w)" : "w\(p)x\(w)"
                if w % 7 == 3 {
                    entities.append(#"{"type":"spoiler","offset":\#(text.count),"length":\#(word.count)}"#)
                }
                text += word
            }
            text += "\n\n"
        }
        let escaped = text.replacing("\n", with: "\\n")
        let json = #"{"text":"\#(escaped)","entities":[\#(entities.joined(separator: ","))]}"#
        return try temporaryFile(json, name: "spoiler-chunked", ext: "json").path
    }

    /// A whole-account export of three chats and a left one, a few messages each (`h`
    /// words hidden), written to a temporary file.
    static func accountExport() throws -> String {
        var id = 0
        func chat(_ c: Int, messages: Int) -> String {
            let list = (0..<messages).map { m in
                id += 1
                let hidden = m % 3 == 0 ? "h\(c)x\(m)" : nil
                return WholeAccountExportTests.message(id: id, text: "w\(c)x\(m) words", hidden: hidden)
            }
            return #"{"name": "Chat \#(c)", "type": "personal_chat", "id": \#(c), "messages": [\#n"#
                + list.joined(separator: ",\n") + "\n]}"
        }
        let export =
            #"{"chats": {"list": [\#(chat(0, messages: 40)), \#(chat(1, messages: 1)), \#(chat(2, messages: 0)), "#
            + #"\#(chat(3, messages: 60))]}, "left_chats": {"list": [\#(chat(4, messages: 30))]}}"#
        return try temporaryFile(export, name: "spoiler-chunked-account", ext: "json").path
    }

    @Test(arguments: ["plain", "markdownv2", "html", "markdown", "export", "account", "botapi"])
    func theChunkedReaderPrintsWhatTheWholeOnePrints(_ format: String) throws {
        let path =
            switch format {
            case "export": ReadChunkedCommandTests.fixture("export/telegram-export-result.json")
            case "account": try ReadChunkedCommandTests.accountExport()
            case "botapi": try ReadChunkedCommandTests.botAPIMessage()
            default: try ReadChunkedCommandTests.document(markdown: format == "markdown", html: format == "html")
            }
        defer { if format != "export" { try? FileManager.default.removeItem(atPath: path) } }
        let args = ["read", "--from", format == "account" ? "export" : format, "--color", "never", path]
        let (whole, chunked) = try ReadChunkedCommandTests.wholeAndChunked(args, columns: 60)
        #expect(whole.status == 0 && chunked.status == 0, "\(whole.err)\(chunked.err)")
        #expect(whole.out.count > 200)
        #expect(ReadChunkedCommandTests.masked(chunked.out) == ReadChunkedCommandTests.masked(whole.out))
        // And it does differ: the chunks were read as chunks (the export is one chunk; a
        // Bot API message is printed whole).
        if format != "export" && format != "botapi" { #expect(chunked.out != whole.out) }
        if format == "export" {
            #expect(chunked.out.contains("Ana · 2026-11-01 19:01") && !chunked.out.contains("the butler"))
        } else if format == "account" {
            // Every chat's messages, none of their hidden words.
            #expect(chunked.out.contains("w0x0 words") && chunked.out.contains("w4x29 words"))
            #expect(!chunked.out.contains("h0x0") && !chunked.out.contains("h3x3"))
            #expect(!chunked.out.contains("could not"))
        } else {
            #expect(!chunked.out.contains("||") && !chunked.out.contains("h3x3") && !chunked.out.contains("tg-spoiler"))
            #expect(!chunked.out.contains("could not be read"))
            if format != "markdown" {
                #expect(!chunked.out.contains("still hidden") && !chunked.out.contains("secret"))
            }
        }
    }

    /// An HTML file with a `<tg-spoiler>` longer than a chunk may be (64 KB), inside a `<b>`
    /// with a link around part of it: a chunk is cut inside it, and every chunk reads as the
    /// whole file does, the spoiler hidden.
    @Test func anHTMLSpoilerLongerThanAChunkReadsAsTheWholeFile() throws {
        let chunked = try ReadChunkedCommandTests.longSpoilerReadsAsTheWholeFile(
            format: "html", ext: "html",
            opening: "<b>Bold <a href=\"https://example.com/a?b=1&amp;c=2\">link <tg-spoiler>",
            line: { "secret &amp; secret \($0) secret" + ($0 % 9 == 8 ? "\n\n" : "\n") },
            closing: "</tg-spoiler> shown</a></b> after\n\n")
        #expect(!chunked.contains("<"))
    }

    /// A MarkdownV2 file with a spoiler longer than a chunk may be (64 KB), inside bold and
    /// underline with italic inside it: chunks are cut inside it, and every chunk reads as
    /// the whole file does, the spoiler hidden. Before, the chunks cut inside it said they
    /// could not be read.
    @Test func aMarkdownV2SpoilerLongerThanAChunkReadsAsTheWholeFile() throws {
        let chunked = try ReadChunkedCommandTests.longSpoilerReadsAsTheWholeFile(
            format: "markdownv2", ext: "txt", opening: "*Bold __under ||",
            line: { "secret \\_ _secret_ \($0) secret" + ($0 % 9 == 8 ? "\n\n" : $0 % 5 == 4 ? "\r\n" : "\n") },
            closing: "|| shown__ x* after\n\n")
        #expect(!chunked.contains("||") && !chunked.contains("__") && !chunked.contains("*"))
    }

    /// A Markdown file with fenced code longer than a chunk may be (64 KB), blank lines and
    /// all: chunks are cut inside it, each part read after the fence's opening line, and the
    /// file reads as the whole does: the code's `||` shown as it is, no blank row where a
    /// chunk was cut, the spoilers around the code hidden. Before, the code was one chunk
    /// (a 13 MB block took seconds and gigabytes to show).
    @Test func aMarkdownFenceLongerThanAChunkReadsAsTheWholeFile() throws {
        var text = ""
        for p in 0..<30 {
            text += (0..<12).map { $0 % 5 == 2 ? "||h\(p)x\($0)||" : "w\(p)x\($0)" }.joined(separator: " ") + "\n\n"
        }
        text += "```swift\n"
        for k in 0..<4000 { text += "let s\(k) = \"||code \(k)||\"\n" + (k % 9 == 8 ? "\n" : "") }
        text += "```\n\n"
        for p in 0..<30 {
            text += (0..<12).map { $0 % 5 == 2 ? "||g\(p)x\($0)||" : "v\(p)x\($0)" }.joined(separator: " ") + "\n\n"
        }
        #expect(text.utf8.count > 110_000)
        let url = try ReadChunkedCommandTests.temporaryFile(text, name: "spoiler-fence", ext: "md")
        defer { try? FileManager.default.removeItem(at: url) }
        let args = ["read", "--from", "markdown", "--color", "never", url.path]
        let (whole, chunked) = try ReadChunkedCommandTests.wholeAndChunked(args, columns: 60)
        #expect(whole.status == 0 && chunked.status == 0, "\(whole.err)\(chunked.err)")
        #expect(ReadChunkedCommandTests.masked(chunked.out) == ReadChunkedCommandTests.masked(whole.out))
        #expect(
            chunked.out.contains("let s0 = \"||code 0||\"") && chunked.out.contains("let s3999 = \"||code 3999||\""))
        #expect(!chunked.out.contains("could not be read") && !chunked.out.contains("```"))
        #expect(!chunked.out.contains("h0x2") && !chunked.out.contains("g29x7") && chunked.out.contains("v29x11"))
    }

    /// Reads a file of 30 paragraphs, `opening`, 4,000 lines made by `line` (a spoiler's,
    /// over 120 KB), `closing` and 30 more paragraphs, whole and a chunk at a time, and
    /// checks that both show the same screen (dust masked), with no word of the spoiler
    /// (`secret`) and no chunk that could not be read. Returns the chunked read's output.
    static func longSpoilerReadsAsTheWholeFile(
        format: String, ext: String, opening: String, line: (Int) -> String, closing: String
    ) throws -> String {
        var text = ""
        for p in 0..<30 { text += (0..<12).map { "w\(p)x\($0)" }.joined(separator: " ") + "\n\n" }
        text += opening
        for k in 0..<4000 { text += line(k) }
        text += closing
        for p in 0..<30 { text += (0..<12).map { "v\(p)x\($0)" }.joined(separator: " ") + "\n\n" }
        #expect(text.utf8.count > 120_000)
        let url = try ReadChunkedCommandTests.temporaryFile(text, name: "spoiler-long", ext: ext)
        defer { try? FileManager.default.removeItem(at: url) }
        let args = ["read", "--from", format, "--color", "never", url.path]
        let (whole, chunked) = try ReadChunkedCommandTests.wholeAndChunked(args, columns: 60)
        #expect(whole.status == 0 && chunked.status == 0, "\(whole.err)\(chunked.err)")
        #expect(ReadChunkedCommandTests.masked(chunked.out) == ReadChunkedCommandTests.masked(whole.out))
        #expect(chunked.out != whole.out)
        #expect(!chunked.out.contains("could not be read") && !chunked.out.contains("secret"))
        #expect(chunked.out.contains("shown") && chunked.out.contains("v29x11") && chunked.out.contains("w0x0"))
        return chunked.out
    }

    /// A MarkdownV2 file with a spoiler never closed cannot be parsed whole: the chunks
    /// inside it say so, with the spoiler's place in the file, and show none of its text.
    @Test func aMarkdownV2SpoilerNeverClosedIsSaidToBe() throws {
        var text = (0..<1000).map { "w\($0)" }.joined(separator: " ") + "\n\nw3 "
        let opensAt = text.utf8.count
        text += "||"
        for line in 0..<4000 { text += "secret \(line) secret" + (line % 9 == 8 ? "\n\n" : "\n") }
        let url = try ReadChunkedCommandTests.temporaryFile(text, name: "spoiler-open", ext: "txt")
        defer { try? FileManager.default.removeItem(at: url) }
        let args = ["read", "--from", "markdownv2", "--color", "never", url.path]
        let whole = try runSpoiler(args, environment: ["COLUMNS": "400", "SPOILER_READ_CHUNKED": "1000000000"])
        let reason = "3:4: Can't find end of Spoiler entity at byte offset \(opensAt)"
        #expect(whole.status != 0 && whole.err.contains("\(url.path):\(reason)"), "\(whole.err)")
        let said = "could not be read: \(url.path):\(reason)"
        let chunked = try runSpoiler(args, environment: ["COLUMNS": "400", "SPOILER_READ_CHUNKED": "0"])
        #expect(chunked.status == 0, "\(chunked.err)")
        #expect(!chunked.out.contains("secret"))
        #expect(chunked.out.contains("w0 w1 w2") && chunked.out.contains("w999"))
        let lines = chunked.out.split(separator: "\n")
        #expect(lines.filter { $0.contains("could not be read") }.count > 1)
        #expect(
            lines.allSatisfy { !$0.contains("could not be read") || $0.contains(said) },
            "\(chunked.out.prefix(2000))")
    }

    /// Plain text under `--spoiler-reasons`: a spoiler with a reason, longer than a chunk,
    /// whose lines hold `|`s of their own. The chunks after the first start inside it, and
    /// their text before a `|` is no reason (the whole file's parse takes the first `|`
    /// only): each chunk reads as the whole file does, no word of the spoiler left out.
    @Test func aSpoilerWithAReasonLongerThanAChunkKeepsEveryWord() throws {
        var text = (0..<200).map { "filler line \($0) with some words" }.joined(separator: "\n")
        text += "\n||why|secret start\n"
        for line in 0..<4000 { text += "hidden \(line) a|b more hidden words here\n" }
        text += "end of spoiler||\n" + (0..<200).map { "tail line \($0)" }.joined(separator: "\n") + "\n"
        #expect(text.utf8.count > 150_000)
        let url = try ReadChunkedCommandTests.temporaryFile(text, name: "spoiler-reasons", ext: "txt")
        defer { try? FileManager.default.removeItem(at: url) }
        let args = ["read", "--spoiler-reasons", "--color", "never", url.path]
        let (whole, chunked) = try ReadChunkedCommandTests.wholeAndChunked(args, columns: 200)
        #expect(whole.status == 0 && chunked.status == 0, "\(whole.err)\(chunked.err)")
        let masked = ReadChunkedCommandTests.masked
        let wholeLines = masked(whole.out).split(separator: "\n", omittingEmptySubsequences: false)
        let chunkedLines = masked(chunked.out).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(chunkedLines.count == wholeLines.count)
        let differing = zip(chunkedLines, wholeLines).enumerated().filter { $0.element.0 != $0.element.1 }
        let shown = differing.prefix(3).map { "\($0.offset): \($0.element)" }
        #expect(differing.isEmpty, "first differing lines: \(shown)")
        #expect(!chunked.out.contains("hidden") && !chunked.out.contains("why"))
        #expect(chunked.out.contains("filler line 0 ") && chunked.out.contains("tail line 199"))
    }

    /// A chunk that does not parse says where, as the whole file's parse does: its line and
    /// column and its byte offset in the file, not in the chunk.
    @Test(arguments: [
        ("para 2500 oops </b> stray", "4999:16: Unexpected end tag at byte offset 163842"),
        // The offset in the middle of the reason (the `</b>` closes what the tracker keeps
        // open: else every chunk after it is inside a tag never closed, and says so).
        (
            "para 2500 <b>oops</i> stray</b>",
            #"4999:18: Unmatched end tag at byte offset 163844, expected "</b>", found "</i>""#
        ),
    ])
    func aChunkThatDoesNotParseSaysWhereInTheFile(paragraph: String, place: String) throws {
        var paragraphs = (1...3000).map { "para \($0) <b>bold</b> words here and more words to fill the line" }
        paragraphs[2499] = paragraph
        let url = try ReadChunkedCommandTests.temporaryFile(
            paragraphs.joined(separator: "\n\n") + "\n", name: "spoiler-stray", ext: "html")
        defer { try? FileManager.default.removeItem(at: url) }
        let args = ["read", "--from", "html", "--color", "never", url.path]
        let (whole, chunked) = try ReadChunkedCommandTests.wholeAndChunked(args, columns: 400)
        #expect(whole.status != 0 && chunked.status == 0, "\(chunked.err)")
        let said = "\(url.path):\(place)"
        #expect(whole.err.contains(said), "\(whole.err)")
        #expect(chunked.out.contains("[could not be read: \(said)]"), "\(chunked.out.prefix(300))")
        #expect(chunked.out.contains("para 2999 bold words"))
    }

    /// An HTML file with a `<tg-spoiler>` never closed cannot be parsed whole: the chunks
    /// inside it say so, with the tag's place in the file, and show none of its text.
    @Test func anHTMLSpoilerNeverClosedIsSaidToBe() throws {
        // Paragraphs of more than a chunk's least length (4 KB) before it, a chunk of their own.
        var text = (0..<1000).map { "w\($0)" }.joined(separator: " ") + "\n\nw3 <tg-spoiler>"
        for line in 0..<4000 { text += "secret \(line) secret" + (line % 9 == 8 ? "\n\n" : "\n") }
        let url = try ReadChunkedCommandTests.temporaryFile(text, name: "spoiler-open", ext: "html")
        defer { try? FileManager.default.removeItem(at: url) }
        let args = ["read", "--from", "html", "--color", "never", url.path]
        let whole = try runSpoiler(args, environment: ["COLUMNS": "400", "SPOILER_READ_CHUNKED": "1000000000"])
        #expect(whole.status != 0 && whole.err.contains("Can't find end tag"))
        let chunked = try runSpoiler(args, environment: ["COLUMNS": "400", "SPOILER_READ_CHUNKED": "0"])
        #expect(chunked.status == 0, "\(chunked.err)")
        #expect(!chunked.out.contains("secret"))
        #expect(chunked.out.contains("w0 w1 w2") && chunked.out.contains("w999"))
        let said = "could not be read: \(url.path):3:4: Can't find end tag corresponding to start tag \"tg-spoiler\""
        let lines = chunked.out.split(separator: "\n")
        #expect(lines.filter { $0.contains("could not be read") }.count > 1)
        #expect(
            lines.allSatisfy { !$0.contains("could not be read") || $0.contains(said) },
            "\(chunked.out.prefix(2000))")
    }
}
