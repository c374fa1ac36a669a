import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerRender
import SpoilerTerminal
import Testing

/// ``ChunkedDocument/init(path:format:options:)``: a file of any format read a chunk at a
/// time, as `spoiler read` reads it, from the library alone.
@Suite struct ChunkedDocumentFormatsTests {
    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String) throws -> String {
        try ReadChunkedCommandTests.temporaryFile(text, name: "chunked", ext: "txt").path
    }

    /// 3,000 paragraphs of shown words with a spoiler of two `secret`s each, written as
    /// `spoiler` writes one, the two a blank line apart where `across` is set (so that the
    /// chunks, cut after blank lines, must be cut inside spoilers): about 250 KB, four
    /// chunks or more.
    static func document(across: Bool, spoiler: (String) -> String) -> String {
        (0..<3000).map { k in
            "shown words \(k) " + spoiler(across ? "secret\n\nsecret" : "secret secret") + " shown again\n\n"
        }.joined()
    }

    /// Each text format's chunks hide every word of its spoilers and none outside them;
    /// Markdown's spoilers stay inside a paragraph, as its blocks do.
    @Test(arguments: [
        (InputFormat.plain, "||", "||", true), (.markdownV2, "*x\n\n||", "||*", true), (.markdown, "||", "||", false),
        (.html, "<tg-spoiler>", "</tg-spoiler>", true),
    ])
    func aTextFormatIsReadInChunksThatHideWhatTheWholeHides(
        format: InputFormat, open: String, close: String, across: Bool
    ) throws {
        let text = ChunkedDocumentFormatsTests.document(across: across) { open + $0 + close }
        let path = try ChunkedDocumentFormatsTests.temporaryFile(text)
        defer { unlink(path) }
        let document = try #require(try ChunkedDocument(path: path, format: format))
        #expect(document.chunkCount >= 4)
        let hidden = try LongEntityChunkTests.hiddenSecrets(in: document, marks: [open, close])
        #expect(hidden == 6000)
    }

    /// One chat's export is read a few messages a chunk, each under its sender; an export
    /// with no message (a whole account's with one empty chat) and the formats read whole
    /// give nil (``WholeAccountExportTests`` reads accounts with messages).
    @Test func anExportIsReadInChunksOfMessages() throws {
        let messages = (1...3000).map { k in
            #"{"id": \#(k), "type": "message", "date": "2026-11-01T19:02:45", "date_unixtime": "1793559765", "#
                + #""from": "Bo", "from_id": "user1002", "text": ["shown ", {"type": "spoiler", "text": "secret"}], "#
                + #""text_entities": [{"type": "plain", "text": "shown "}, {"type": "spoiler", "text": "secret"}]}"#
        }
        let export =
            #"{"name": "Movie night", "type": "private_group", "id": 1, "messages": ["#
            + messages.joined(separator: ",\n") + "]}\n"
        let path = try ChunkedDocumentFormatsTests.temporaryFile(export)
        defer { unlink(path) }
        let document = try #require(try ChunkedDocument(path: path, format: .export))
        #expect(document.chunkCount > 1)
        #expect(try #require(document.chunk(at: 0)).message.text.contains("Bo"))
        #expect(try LongEntityChunkTests.hiddenSecrets(in: document, marks: []) == 3000)

        let account = #"{"chats": {"list": [{"name": "x", "messages": []}]}}"#
        let accountPath = try ChunkedDocumentFormatsTests.temporaryFile(account)
        defer { unlink(accountPath) }
        for format in [InputFormat.export, .botAPI, .matrix] {
            let none = try ChunkedDocument(path: accountPath, format: format)
            #expect(none == nil, "\(format)")
        }
    }

    /// A file that is not there is a system error with the call that failed.
    @Test func aMissingFileIsAnError() {
        #expect(throws: TerminalError.self) {
            _ = try ChunkedDocument(path: "/nonexistent/\(UUID().uuidString)", format: .plain)
        }
    }

    /// Under `--spoiler-reasons`, a chunk that starts inside a spoiler takes none of its own
    /// text as the spoiler's reason: its `|` is text, and the spoiler has no reason.
    @Test func aChunkInsideASpoilerTakesNoReasonFromItsText() throws {
        var options = ParseOptions()
        options.spoilerReasons = true
        let reopened = try ChunkedDocument.message(
            ofChunk: Array("||not a|reason|| after".utf8), part: ChunkedDocument.Part(isLast: true, reopenedBytes: 2),
            format: .plain, options: options)
        #expect(reopened.text == "not a|reason after")
        let spoiler = try #require(reopened.entities.first { $0.type == .spoiler })
        #expect(spoiler.offset == 0 && spoiler.length == 12 && spoiler.reason == nil)
        // A chunk that starts with a spoiler of its own reads its reason.
        let own = try ChunkedDocument.message(
            ofChunk: Array("||a reason|text|| after".utf8), part: ChunkedDocument.Part(isLast: true),
            format: .plain, options: options)
        #expect(own.text == "text after")
        #expect(own.entities.first { $0.type == .spoiler }?.reason == "a reason")
    }
}

/// ``SpoilerTerminalView/init(document:size:frame:preset:sceneOptions:seed:configure:)``:
/// a file opened with ``ChunkedDocument/init(path:format:options:)`` shown in a view with
/// nothing else given, each hidden word on the screen under dust and none of its letters.
@Suite struct DocumentViewConvenienceTests {
    @Test func everyHiddenWordOnTheScreenIsUnderDust() throws {
        let text = (0..<400).map { "shown \($0) ||secret|| words ||hidden one|| end\n\n" }.joined()
        let path = try ChunkedDocumentFormatsTests.temporaryFile(text)
        defer { unlink(path) }
        let document = try #require(try ChunkedDocument(path: path, format: .plain))
        var view = SpoilerTerminalView(
            document: document, size: TerminalSize(columns: 30, rows: 12),
            frame: ANSIFrameOptions(capability: .none, glyphs: .braille))
        let first = view.frame(at: 0)
        let boxes = view.layout.words.filter {
            $0.line >= view.firstVisibleRow && $0.line < view.firstVisibleRow + first.height
        }
        #expect(boxes.count >= 8)
        var dusty = Set<Int>()
        for step in 0..<30 {
            let canvas = view.frame(at: Double(step) / 30)
            for (k, box) in boxes.enumerated() {
                let (start, columns) = (box.column ?? 0, box.columns ?? 0)
                for column in start..<(start + columns) {
                    let symbol = canvas[column, box.line - view.firstVisibleRow].symbol
                    #expect(!(0x61...0x7A).contains(symbol), "word \(k) shows a letter at \(step)")
                    if (0x2801...0x28FF).contains(symbol) { dusty.insert(k) }
                }
            }
            let screen = (0..<canvas.height).map { row in
                String(
                    String.UnicodeScalarView(
                        (0..<canvas.width).compactMap { Unicode.Scalar(canvas[$0, row].symbol) }))
            }
            #expect(screen.contains { $0.contains("shown") } && !screen.contains { $0.contains("secret") })
        }
        #expect(dusty.count == boxes.count, "\(boxes.count - dusty.count) hidden words never showed dust")
    }
}
