import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// `spoiler read` of a long MarkdownV2 or HTML file a chunk at a time cuts it only after a
/// blank line where no entity is open: an entity across a blank line stays in one chunk,
/// which parses as the whole file does, instead of two chunks that cannot be read.
@Suite struct EntityChunkTests {
    /// A paragraph's pieces in each syntax, some with entities that run across a blank line.
    static let markdownV2Pieces = [
        "word", "words and more", "*bold*", "_italic_", "__under__", "~strike~", "||hidden||", "`co|de*`",
        "[link](http://example.com/a_b)", "*a\n\nb*", "||across\n\nthe blank||", "_it *and\n\nbold*_",
        "```\npre *x*\n\nstill pre\n```", "\\*", "\\_", "é 漢字",
    ]
    static let htmlPieces = [
        "word", "words and more", "<b>bold</b>", "<i>italic</i>", "<u>under</u>", "<s>strike</s>",
        "<tg-spoiler>hidden</tg-spoiler>", "<code>co/de</code>", #"<a href="http://example.com/a">link</a>"#,
        "<b>a\n\nb</b>", "<tg-spoiler>across\n\nthe blank</tg-spoiler>", "<i>it <b>and\n\nbold</b></i>",
        #"<span class="tg-spoiler">span\n\nspoiler</span>"#, "&lt;", "é 漢字",
    ]

    static func document(_ rng: inout SplitMix64, pieces: [String]) -> [UInt8] {
        var text = ""
        for p in 0..<Int(rng.next() % 120) {
            if p > 0 { text += rng.next() % 3 == 0 ? "\n\n" : " " }
            text += pieces[Int(rng.next() % UInt64(pieces.count))]
        }
        return Array(text.utf8)
    }

    @Test(arguments: [ChunkBoundaryScanner.Rule.markdownV2Text, .htmlText])
    func entitiesAcrossBlankLinesStayInOneChunk(rule: ChunkBoundaryScanner.Rule) throws {
        let format: InputFormat = rule == .htmlText ? .html : .markdownV2
        let pieces = rule == .htmlText ? EntityChunkTests.htmlPieces : EntityChunkTests.markdownV2Pieces
        forAll({ rng in (EntityChunkTests.document(&rng, pieces: pieces), Int(rng.next() % 48) + 1) }, count: 800) {
            bytes, min in
            guard let whole = try? MessageParser.parse(bytes, from: format) else {
                Issue.record("the whole document does not parse: \(String(decoding: bytes, as: UTF8.self))")
                return false
            }
            let document = ChunkedDocument(
                bytes: bytes, rule: rule, minimumBytes: min, maximumBytes: 1 << 20, separator: "\n"
            ) { chunk, _ in
                (try? MessageParser.parse(chunk, from: format)) ?? Message(text: "[could not be read]")
            }
            let (text, marks) = joinedChunks(of: document, bytes, whole: whole)
            guard text == whole.text && marks == entityCoverage(whole) else {
                Issue.record("min \(min): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                return false
            }
            return true
        }
    }
}
