import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// A chunk that has to be cut between two characters (a line longer than the chunk's
/// maximum) is never cut between the carriage return and the line feed of a `\r\n`: the
/// chunk before would end with a carriage return the whole text reads as part of its line
/// break, and the reader would show it as a control symbol. At the end of a file it was the
/// last chunk's: the whole read drops the final `\r\n`, the chunks kept its `\r`.
@Suite struct CarriageReturnChunkTests {
    /// The rules of the texts a chunk may be cut in between two characters, and a parse
    /// of each.
    static let rules: [(ChunkBoundaryScanner.Rule, InputFormat)] = [
        (.plainText, .plain), (.paragraphs, .plain), (.markdownV2Text, .markdownV2), (.htmlText, .html),
        (.markdownBlocks, .markdown),
    ]

    static let pieces = ["m", "x", "\0", " ", "\r\n", "\r\n\r\n", "é", "word"]

    @Test func noChunkEndsBetweenACarriageReturnAndItsLineFeed() {
        for (rule, format) in CarriageReturnChunkTests.rules {
            forAll(
                { rng -> ([UInt8], Int, Int) in
                    var text = ""
                    for _ in 0..<Int(rng.next() % 80) {
                        text += CarriageReturnChunkTests.pieces[Int(rng.next() % 8)]
                    }
                    let min = Int(rng.next() % 16) + 1
                    return (Array(text.utf8), min, min + Int(rng.next() % 48))
                }, count: 400
            ) { bytes, min, max in
                let document = ChunkedDocument(
                    bytes: bytes, rule: rule, minimumBytes: min, maximumBytes: max, separator: "\n"
                ) { chunk, _ in
                    (try? MessageParser.parse(chunk, from: format)) ?? Message(text: "[could not be read]")
                }
                var k = 0
                while let chunk = document.chunk(at: k) {
                    let end = chunk.bytes.upperBound
                    if end > 0 && end < bytes.count && bytes[end - 1] == 0x0D && bytes[end] == 0x0A {
                        let text = String(decoding: bytes, as: UTF8.self).debugDescription
                        Issue.record("\(rule) \(min)–\(max): chunk \(k) ends at \(end), inside \\r\\n, of \(text)")
                        return false
                    }
                    if chunk.message.text.utf8.last == 0x0D {
                        let text = String(decoding: bytes, as: UTF8.self).debugDescription
                        Issue.record("\(rule) \(min)–\(max): chunk \(k)'s text ends with \\r: \(text)")
                        return false
                    }
                    k += 1
                }
                return true
            }
        }
    }

    /// The fuzzer's input: `m`, 56 NUL bytes and `\r\n`, in chunks of 10 to 58 bytes (the
    /// one cut there falls after the `\r`). The chunks read as the whole file does.
    @Test func theFuzzersInputReadsAsTheWholeFile() throws {
        let bytes = Array(("m" + String(repeating: "\0", count: 56) + "\r\n").utf8)
        let whole = try MessageParser.parseWholeInput(bytes, from: .html)
        let document = ChunkedDocument(
            bytes: bytes, rule: .htmlText, minimumBytes: 10, maximumBytes: 58, separator: "\n"
        ) { chunk, _ in
            (try? MessageParser.parse(chunk, from: .html)) ?? Message(text: "[could not be read]")
        }
        var texts: [String] = []
        while let chunk = document.chunk(at: texts.count) { texts.append(chunk.message.text) }
        #expect(texts.joined() == whole.text)
    }
}
