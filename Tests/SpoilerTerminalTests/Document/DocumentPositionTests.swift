import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The positions a chunked document gives its chunks' errors (``ChunkedDocument/position(ofByte:)``):
/// asked in any order, each is the one found from the start of the text, though each is
/// read on from the positions kept before it (the one asked and the end of each block).
@Suite struct DocumentPositionTests {
    @Test func positionsAskedInAnyOrderAreThoseFromTheStart() {
        let pieces: [[UInt8]] = [
            Array("ab".utf8), [0x0A], Array("é".utf8), Array("😀".utf8), Array("漢".utf8), [0x0D, 0x0A],
        ]
        forAll(
            { rng -> ([UInt8], Int, [Int]) in
                var bytes: [UInt8] = []
                for _ in 0..<Int(rng.next() % 60) { bytes += pieces[Int(rng.next() % UInt64(pieces.count))] }
                let asked = (0..<8).map { _ in Int(rng.next() % UInt64(bytes.count + 1)) }
                return (bytes, Int(rng.next() % 9) + 1, asked)
            }, count: 500
        ) { bytes, block, asked in
            let document = ChunkedDocument(
                bytes: bytes, rule: .paragraphs, minimumBytes: 4, maximumBytes: 64, blockBytes: block, separator: "\n\n"
            ) { (chunk, _) throws(ParseError) in Message(text: String(decoding: chunk, as: UTF8.self)) }
            return asked.allSatisfy { document.position(ofByte: $0) == TextPosition(utf8Offset: $0, in: bytes) }
        }
    }
}
