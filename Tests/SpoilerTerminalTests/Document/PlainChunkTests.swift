import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// `spoiler read` of plain text a chunk at a time hides what the parse of the whole text
/// hides: a spoiler or code across a blank line is not cut, and a chunk that has to be cut
/// inside one (longer than the chunk's maximum, or after a marker never closed) is parsed
/// with the markers of what is open at its ends.
@Suite struct PlainChunkTests {
    static let pieces = [
        "word", " ", "\n", "\n\n", "\n\n\n", "||", "||", "|", "`", "\\", "\\|", "é", "漢字", "\r\n",
        String(repeating: "long ", count: 8), "a b c", String(repeating: "x", count: 30),
    ]

    static func document(_ rng: inout SplitMix64) -> [UInt8] {
        var text = ""
        for _ in 0..<Int(rng.next() % 300) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return Array(text.utf8)
    }

    @Test func plainTextReadAChunkAtATimeReadsAsTheWhole() {
        forAll(
            { rng -> ([UInt8], Int, Int) in
                let bytes = PlainChunkTests.document(&rng)
                let min = Int(rng.next() % 64) + 1
                return (bytes, min, min + Int(rng.next() % 120))
            }, count: 1500
        ) { bytes, min, max in
            guard let whole = try? PlainParser.parse(bytes) else { return false }
            let document = ChunkedDocument(
                bytes: bytes, rule: .plainText, minimumBytes: min, maximumBytes: max, separator: "\n"
            ) { chunk, _ in
                (try? PlainParser.parse(chunk)) ?? Message(text: "[could not be read]")
            }
            let (text, marks) = joinedChunks(of: document, bytes, whole: whole)
            guard text == whole.text && marks == entityCoverage(whole) else {
                Issue.record("min \(min) max \(max): \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                return false
            }
            return true
        }
    }

    /// The reader's cut after a blank line no longer splits a spoiler across it.
    @Test func aSpoilerAcrossABlankLineStaysHidden() throws {
        let filler = String(repeating: "alpha beta gamma\n\n", count: 6)
        let bytes = Array((filler + "Start ||the butler did it\n\nand the gardener too|| end.\n\n" + filler).utf8)
        let document = ChunkedDocument(
            bytes: bytes, rule: .plainText, minimumBytes: 100, maximumBytes: 4096, separator: "\n"
        ) { chunk, _ in
            (try? PlainParser.parse(chunk)) ?? Message(text: "[could not be read]")
        }
        var k = 0
        var hidden: [String] = []
        while let chunk = document.chunk(at: k) {
            let m = chunk.message
            #expect(!m.text.contains("||"))
            for e in m.entities where e.type == .spoiler {
                let units = Array(m.text.utf16)[e.offset..<(e.offset + e.length)]
                hidden.append(String(decoding: units, as: UTF16.self))
            }
            k += 1
        }
        #expect(k > 1)
        #expect(hidden == ["the butler did it\n\nand the gardener too"])
    }
}
