import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// The Markdown front end's fuzz target: random documents built from every block and
/// inline kind, with `||` sprinkled in, through every Markdown path.
@Suite struct MarkdownFuzzTests {
    static func randomDocument(_ rng: inout SplitMix64) -> [UInt8] {
        var doc = MarkdownCorpus.block(&rng, depth: 0)
        for _ in 0..<Int(rng.next() % 3) { doc += "\n\n" + MarkdownCorpus.block(&rng, depth: 0) }
        var bytes = Array(doc.utf8)
        for _ in 0..<Int(rng.next() % 6) {
            let at = Int(rng.next() % UInt64(bytes.count + 1))
            bytes.insert(contentsOf: [0x7C, 0x7C], at: at)
        }
        if rng.next() % 8 == 0 { bytes.insert(0xFF, at: Int(rng.next() % UInt64(bytes.count + 1))) }
        return bytes
    }

    @Test func randomDocumentsParseRenderAndWriteBack() throws {
        try forAll(Self.randomDocument, count: 1500) { bytes in
            let m = try MessageParser.parse(bytes, from: .markdown)
            guard Message.sorted(m.entities) == m.entities else { return false }
            for e in m.entities where e.length <= 0 || e.end > m.utf16Length || m.text(of: e) == nil { return false }
            let html = MarkdownRenderer.html(bytes)
            guard String(validating: html, as: UTF8.self) != nil else { return false }
            _ = MarkdownRenderer.commonMark(bytes)
            _ = MarkdownRenderer.plainText(bytes)
            // Writing the message as Markdown gives Markdown that reads back cleanly; plain
            // text (no entities) reads back unchanged. (Emphasis whose delimiters cannot
            // flank, as in `a*(b)*c`, and blocks that start inside a line cannot be said in
            // Markdown: `MarkdownSerializerTests` covers what can.)
            let back = try MessageParser.parse(MessageSerializer.serialize(m, to: .markdown), from: .markdown)
            guard Message.sorted(back.entities) == back.entities else { return false }
            let plain = try MessageParser.parse(
                MessageSerializer.serialize(Message(text: m.text), to: .markdown), from: .markdown)
            if plain.text != m.text {
                print("text changed:\n\(m.text.debugDescription)\n\(plain.text.debugDescription)")
                return false
            }
            return true
        }
    }
}
