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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spoiler-chunked-\(markdown)-\(UUID().uuidString).\(markdown ? "md" : "txt")")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spoiler-chunked-\(UUID().uuidString).json")
        try json.write(to: url, atomically: false, encoding: .utf8)
        return url.path
    }

    @Test(arguments: ["plain", "markdownv2", "html", "markdown", "export", "botapi"])
    func theChunkedReaderPrintsWhatTheWholeOnePrints(_ format: String) throws {
        let path =
            switch format {
            case "export": ReadChunkedCommandTests.fixture("export/telegram-export-result.json")
            case "botapi": try ReadChunkedCommandTests.botAPIMessage()
            default: try ReadChunkedCommandTests.document(markdown: format == "markdown", html: format == "html")
            }
        defer { if format != "export" { try? FileManager.default.removeItem(atPath: path) } }
        let args = ["read", "--from", format, "--color", "never", path]
        let whole = try runSpoiler(args, environment: ["COLUMNS": "60", "SPOILER_READ_CHUNKED": "1000000000"])
        let chunked = try runSpoiler(args, environment: ["COLUMNS": "60", "SPOILER_READ_CHUNKED": "0"])
        #expect(whole.status == 0 && chunked.status == 0, "\(whole.err)\(chunked.err)")
        #expect(whole.out.count > 200)
        // The dust differs (each chunk is a scene of its own); where it is does not.
        func masked(_ s: String) -> String {
            String(String.UnicodeScalarView(s.unicodeScalars.map { (0x2800...0x28FF).contains($0.value) ? "#" : $0 }))
        }
        #expect(masked(chunked.out) == masked(whole.out))
        // And it does differ: the chunks were read as chunks (the export is one chunk; a
        // Bot API message is printed whole).
        if format != "export" && format != "botapi" { #expect(chunked.out != whole.out) }
        if format == "export" {
            #expect(chunked.out.contains("Ana · 2026-11-01 19:01") && !chunked.out.contains("the butler"))
        } else {
            #expect(!chunked.out.contains("||") && !chunked.out.contains("h3x3") && !chunked.out.contains("tg-spoiler"))
            #expect(!chunked.out.contains("could not be read"))
            if format != "markdown" {
                #expect(!chunked.out.contains("still hidden") && !chunked.out.contains("secret"))
            }
        }
    }
}
