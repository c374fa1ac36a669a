import Glibc
import SpoilerCore
import SpoilerLayout
import SpoilerParser

/// Mono layout throughput (DESIGN.md §8): grapheme clusters laid out per second, lines and word
/// boxes included, on the generated chat corpus (Latin, Cyrillic, CJK, emoji, combining
/// marks; about one word in five hidden), each message laid out on its own, wrapped at
/// 40 columns.
///
/// Key: `layout_graphemes_per_s` (target ≥ 20 million): the geometry that `spoiler layout`
/// prints (lines and word boxes). Also reported: the same with every placed grapheme
/// materialised (what renderers use), an ASCII-only corpus, and the reference, Swift's own
/// grapheme iteration (`String.count`) over the same texts in the same run.
enum LayoutStage {
    static let stage = BenchStage(
        name: "layout", summary: "mono layout: graphemes per second, vs Swift's grapheme iteration", run: run)

    static let messageCount = 20_000

    static func run(_ bench: inout BenchRun) {
        let corpus = ChatCorpus(count: messageCount)
        let messages = corpus.plain.map { bytes in
            (try? MessageParser.parse(bytes, from: .plain)) ?? Message(text: String(decoding: bytes, as: UTF8.self))
        }
        let ascii = messages.map { m in
            Message(text: String(String.UnicodeScalarView(m.text.unicodeScalars.filter(\.isASCII))), entities: [])
        }
        let engine = LayoutEngine(model: .mono(cellWidth: 8, cellHeight: 16), wrapWidth: 40)
        let graphemes = Double(messages.reduce(0) { $0 + $1.text.count })
        let asciiGraphemes = Double(ascii.reduce(0) { $0 + $1.text.utf8.count })

        let geometryTime = bench.measure { layoutAll(messages, engine, graphemes: false) }
        let fullTime = bench.measure { layoutAll(messages, engine, graphemes: true) }
        let asciiTime = bench.measure { layoutAll(ascii, engine, graphemes: false) }
        let referenceTime = bench.measure { countAll(messages) }
        let joined = [joinedMessage(messages)]
        let joinedTime = bench.measure { layoutAll(joined, engine, graphemes: false) }

        let rate = graphemes / geometryTime
        bench.report(
            "mono layout, geometry (\(messageCount) messages, \(Int(graphemes)) graphemes)", rate / 1e6,
            unit: "M graphemes/s", note: "target ≥ 20")
        bench.setKey("layout_graphemes_per_s", rate.rounded())
        bench.report("mono layout with placed graphemes", graphemes / fullTime / 1e6, unit: "M graphemes/s")
        bench.report("mono layout, ASCII only", asciiGraphemes / asciiTime / 1e6, unit: "M graphemes/s")
        bench.report("mono layout, all texts as one message", graphemes / joinedTime / 1e6, unit: "M graphemes/s")
        bench.report("Swift String.count, same texts", graphemes / referenceTime / 1e6, unit: "M graphemes/s")
        bench.report(
            "layout ÷ String.count throughput", referenceTime / geometryTime, unit: "×", key: "layout_vs_string_count")

        // Loading GNU Unifont's .hex (about 57,000 glyphs), against copying its bytes.
        let unifontPath = "/usr/share/unifont/unifont.hex"
        guard let hex = readFile(unifontPath) else {
            bench.report("load unifont.hex", nil, unit: "ms", note: "unavailable: \(unifontPath) not installed")
            return
        }
        let loadTime = bench.measure {
            let font = try? BitmapFont.parse(hex, file: unifontPath)
            return UInt64(font?.glyphCount ?? 0)
        }
        let copyTime = bench.measure {
            var copy = [UInt8](repeating: 0, count: hex.count)
            copy.withUnsafeMutableBytes { dst in hex.withUnsafeBytes { src in dst.copyMemory(from: src) } }
            return UInt64(copy[copy.count / 2])
        }
        bench.report(
            "load unifont.hex (\(BenchRun.format(Double(hex.count) / 1e6)) MB)", loadTime * 1e3, unit: "ms",
            key: "layout_unifont_load_ms")
        bench.report("unifont.hex load ÷ copying its bytes", loadTime / copyTime, unit: "×")
    }

    /// The bytes of the file at `path`, or nil.
    static func readFile(_ path: String) -> [UInt8]? {
        guard let f = fopen(path, "rb") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, f) }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    static func layoutAll(_ messages: [Message], _ engine: LayoutEngine, graphemes: Bool) -> UInt64 {
        var sum: UInt64 = 0
        for m in messages {
            let layout = engine.layout(m, includeGraphemes: graphemes)
            sum &+= UInt64(layout.width) &* 31 &+ UInt64(layout.words.count) &+ UInt64(layout.graphemes.count)
            if let w = layout.words.last { sum &+= UInt64(w.rect.x) }
        }
        return sum
    }

    /// Every message as one, the texts joined by newlines, the entities shifted along.
    static func joinedMessage(_ messages: [Message]) -> Message {
        var text = ""
        var entities: [Entity] = []
        var offset = 0
        for m in messages {
            for var e in m.entities {
                e.offset += offset
                entities.append(e)
            }
            text += m.text
            text += "\n"
            offset += m.text.utf16.count + 1
        }
        return Message(text: text, entities: entities)
    }

    static func countAll(_ messages: [Message]) -> UInt64 {
        var sum: UInt64 = 0
        for m in messages { sum &+= UInt64(m.text.count) }
        return sum
    }
}
