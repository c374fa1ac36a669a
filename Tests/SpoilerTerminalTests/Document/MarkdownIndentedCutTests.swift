import SpoilerCore
import SpoilerParser
import Testing

@testable import SpoilerTerminal

/// `spoiler read` of Markdown a chunk at a time, where a chunk would start with a line that
/// reads alone otherwise than in the whole: a list item's paragraph indented by four after
/// a blank line (alone: code), a lazy line indented by four in a paragraph or a quotation
/// (alone: code), a line that starts with `<` in a paragraph (alone: an HTML block). Read
/// so, each showed its spoiler's text as it is. The scan cuts after a blank line only
/// before a line indented by less than four, and a chunk that runs on without one before
/// the last line that begins within its first four columns (not with `<`); a chunk that
/// must still start with such a line says it cannot be read, unless it goes on with the
/// indented code the chunk before ends in.
@Suite struct MarkdownIndentedCutTests {
    static let blocks = [
        "- item one\n\n    ||secret one|| continues\n\n- item two\n\n    ||secret two|| continues\n\n",
        "a paragraph line\n    ||secret|| lazy line indented\nmore text here\n    ||secret|| again\n",
        "- item one\n  ||secret|| in item\n    ||secret|| indented more\n- item two ||secret||\n",
        "> quote ||secret||\n    ||secret|| lazy\n> more\n",
        "a paragraph\n<span>||secret||</span> inline html\nmore\n<b>||secret||</b>\n",
        "- item\n\n\t||secret|| after a tab\n\n",
    ]

    /// Chunks of a few dozen bytes, cut wherever the scan may: no secret shows.
    @Test(arguments: blocks)
    func noChunkShowsASecretOfAnIndentedOrHTMLLine(_ block: String) {
        let text = "intro ||secret|| word\n\n" + String(repeating: block, count: 6)
        for (min, max) in [(6, 40), (10, 70), (20, 120), (6, 25)] {
            let document = LongFenceChunkTests.markdown(Array(text.utf8), min: min, max: max)
            let read = LongFenceChunkTests.joined(document)
            #expect(LongFenceChunkTests.showsNoSecret(read), "\(min)–\(max): \(read.text.debugDescription)")
        }
    }

    /// A long list whose items go on with paragraphs indented by four, in chunks of a few
    /// hundred bytes: cut only before its items, every chunk reads (none says it cannot),
    /// and no secret shows.
    @Test func aLongListIsCutBeforeItsItemsAndReads() {
        var text = ""
        for k in 0..<60 {
            text += "- item \(k)\n\n    ||secret \(k)|| first paragraph\n\n    second ||secret|| paragraph\n\n"
        }
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 200, max: 400)
        let read = LongFenceChunkTests.joined(document)
        #expect(document.chunkCount > 10)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        #expect(!read.text.contains("could not be read"))
        var k = 0
        while let chunk = document.chunk(at: k) {
            if k > 0 { #expect(chunk.message.text.hasPrefix("• item"), "chunk \(k): \(chunk.message.text.prefix(30))") }
            k += 1
        }
    }

    /// Every line of a list item indented by four for longer than a chunk may be: the chunk
    /// cut inside it says it cannot be read, with its place, rather than show the paragraph
    /// as code.
    @Test func aChunkThatMustStartIndentedByFourSaysItCannotBeRead() throws {
        var text = "- item\n\n"
        for k in 0..<30 { text += "    ||secret \(k)|| a long paragraph of the item\n" }
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 20, max: 200)
        let read = LongFenceChunkTests.joined(document)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        let second = try #require(document.chunk(at: 1))
        #expect(second.message.text.hasPrefix("[could not be read: A block runs on here for more than 200 bytes"))
    }

    /// An indented code block longer than a chunk may be: each chunk cut inside it starts
    /// with a line indented by four, after a chunk that ends in that code (as a line
    /// indented by four after it reads), and reads as code, every line of it shown as it is.
    @Test func anIndentedCodeBlockLongerThanAChunkReads() {
        var text = "intro ||secret|| word\n\n"
        for k in 0..<40 { text += "    ||shown in code|| line \(k)\n" }
        text += "\nafter ||secret after||\n"
        let document = LongFenceChunkTests.markdown(Array(text.utf8), min: 20, max: 200)
        let read = LongFenceChunkTests.joined(document)
        #expect(document.chunkCount > 4)
        #expect(LongFenceChunkTests.showsNoSecret(read))
        #expect(!read.text.contains("could not be read"))
        #expect(read.text.components(separatedBy: "||shown in code||").count == 41)
        let shown = Array("||shown in code||".utf16)
        let units = Array(read.text.utf16)
        let kinds = Array(read.kinds.utf8)
        for u in 0...(units.count - shown.count) where units[u..<(u + shown.count)].elementsEqual(shown) {
            #expect(kinds[u] == UInt8(ascii: "c"))
        }
    }

    /// End in a list whose items go on with paragraphs indented by four: the chunks found
    /// from the end start after a blank line before a line indented by less than four (an
    /// item), not before a paragraph of an item, and show no secret.
    @Test func theChunksFoundFromTheEndStartBeforeAnItem() throws {
        let item = "- item\n\n    ||secret one|| para\n\n    ||secret two|| para\n\n"
        var body = String(repeating: item, count: (2_600_000 / item.utf8.count))
        // The last megabyte starts inside an item's first line, so that the first blank
        // line in it comes before a paragraph indented by four.
        let size = body.utf8.count
        let from = size - ChunkedDocument.defaultBlockBytes
        let phase = from % item.utf8.count
        body = String(repeating: "x", count: (item.utf8.count - phase + 2) % item.utf8.count) + "\n\n" + body
        let bytes = Array(body.utf8)
        let document = LongFenceChunkTests.markdown(bytes, min: 1 << 12, max: 1 << 16)
        let last = try #require(document.lastChunkFromEnd())
        var shown = 0
        var k = last
        while k >= ChunkedDocument.provisionalBase, let chunk = document.chunk(at: k) {
            let read = (text: chunk.message.text, kinds: LongFenceChunkTests.kinds(chunk.message), joins: 0)
            if !LongFenceChunkTests.showsNoSecret(read) { shown += 1 }
            #expect(!chunk.message.text.hasPrefix("[could not be read"))
            k -= 1
        }
        #expect(k < last)
        #expect(shown == 0)
    }
}
