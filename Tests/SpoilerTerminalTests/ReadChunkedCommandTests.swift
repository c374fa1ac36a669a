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

    /// A text of paragraphs with hidden words, written to a temporary file.
    static func document(markdown: Bool) throws -> String {
        var text = ""
        for p in 0..<120 {
            if markdown && p % 10 == 0 { text += "## Part \(p)\n\n" }
            if markdown && p % 25 == 3 { text += "```\ncode \(p)\n\nstill code\n```\n\n" }
            text += (0..<(8 + p % 40)).map { $0 % 7 == 3 ? "||h\(p)x\($0)||" : "w\(p)x\($0)" }.joined(separator: " ")
            if p % 4 == 0 { text += "\nand a second line" }
            text += "\n\n"
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spoiler-chunked-\(markdown)-\(UUID().uuidString).\(markdown ? "md" : "txt")")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test(arguments: ["plain", "markdown", "export"])
    func theChunkedReaderPrintsWhatTheWholeOnePrints(_ format: String) throws {
        let path =
            format == "export"
            ? ReadChunkedCommandTests.fixture("export/telegram-export-result.json")
            : try ReadChunkedCommandTests.document(markdown: format == "markdown")
        defer { if format != "export" { try? FileManager.default.removeItem(atPath: path) } }
        let args = ["read", "--from", format, "--color", "never", path]
        let whole = try runSpoiler(args, environment: ["COLUMNS": "60", "SPOILER_READ_CHUNKED": "1000000000"])
        let chunked = try runSpoiler(args, environment: ["COLUMNS": "60", "SPOILER_READ_CHUNKED": "0"])
        #expect(whole.status == 0 && chunked.status == 0, "\(whole.err)\(chunked.err)")
        #expect(whole.out.count > 200)
        #expect(chunked.out == whole.out)
        if format == "export" {
            #expect(chunked.out.contains("Ana · 2026-11-01 19:01") && !chunked.out.contains("the butler"))
        } else {
            #expect(!chunked.out.contains("||") && !chunked.out.contains("h3x3"))
        }
    }
}
