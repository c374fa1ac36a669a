import SpoilerCore
import Testing

@testable import SpoilerParser

/// ``PlainScanner``'s one-pass scan of a JSON string (`scanJSON`), both ways, against the
/// plain rule on the decoded text (``PlainParser/parse(_:)-(String)``) and the JSON writer.
///
/// A scan that gives up returns nil and sends its line the general way, which writes the
/// same output; so the NDJSON tests cannot tell a scan that reads a line from one that
/// wrongly gives up on it. These tests can: every string here without a `\u` escape, a raw
/// control or invalid UTF-8 must be read, whatever its length (the last sixteen bytes are
/// loaded in a way of their own) and whatever follows its closing quote.
@Suite struct PlainScannerJSONTests {
    /// Decoded pieces: markup, the characters of JSON's escapes, characters the writer
    /// escapes (DEL, C1 controls, U+2028, bidirectional formatting) and ones it does not.
    static let pieces: [String] = [
        "a", "abcdefgh", "0123456789abcdef", " ", "||", "|", "`", "``", "\\", "\\|", "\\`", "\\\\", "\"", "\n",
        "\r", "\t", "/", "\u{8}", "\u{C}", "é", "漢", "😀", "👩‍👩‍👧", "🇺🇦", "Привет", "\u{7F}", "\u{85}", "\u{9F}",
        "\u{A0}", "\u{2028}", "\u{200D}", "\u{200E}", "\u{2066}", "\u{2069}", "\u{206A}", "’", "€", "\u{10FFFF}",
    ]

    /// The JSON string content of `text`, each escapable character written escaped or not
    /// as `rng` says (`/` raw or `\/`).
    static func rawJSON(_ text: String, _ rng: inout SplitMix64) -> [UInt8] {
        var raw: [UInt8] = []
        for u in text.unicodeScalars {
            switch u {
            case "\"": raw += Array(#"\""#.utf8)
            case "\\": raw += Array(#"\\"#.utf8)
            case "\n": raw += Array(#"\n"#.utf8)
            case "\r": raw += Array(#"\r"#.utf8)
            case "\t": raw += Array(#"\t"#.utf8)
            case "\u{8}": raw += Array(#"\b"#.utf8)
            case "\u{C}": raw += Array(#"\f"#.utf8)
            case "/" where rng.next() % 2 == 0: raw += Array(#"\/"#.utf8)
            default: raw += Array(String(u).utf8)
            }
        }
        return raw
    }

    /// Runs the scan over `line` (the string's raw bytes from after its opening quote).
    static func scan(_ line: [UInt8], decoding: Bool) -> (end: Int?, out: [UInt8], units: Int, entities: [Entity]) {
        var room = [UInt8](repeating: 0, count: 6 * line.count + 8)
        var result: (Int?, Int, Int, [Entity]) = (nil, 0, 0, [])
        line.withUnsafeBufferPointer { p in
            room.withUnsafeMutableBufferPointer { storage in
                var scanner = PlainScanner(output: PlainOutput(storage))
                let end = scanner.scanJSON(p, decoding: decoding)
                result = (end, scanner.out.count, scanner.utf16Count, scanner.entities)
            }
        }
        return (result.0, Array(room[0..<result.1]), result.2, result.3)
    }

    @Test func everyStringWithoutUnicodeEscapesIsRead() {
        var rng = SplitMix64(seed: 0x0DD5_CA4E)
        var failures: [String] = []
        let trailers: [[UInt8]] = [[], Array("}".utf8), Array(#","id":12345678901234567890}"#.utf8)]
        for k in 0..<6_000 {
            var text = ""
            for _ in 0..<Int(rng.next() % UInt64(1 + k % 24)) {
                text += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))]
            }
            let raw = Self.rawJSON(text, &rng)
            let line = raw + [0x22] + trailers[k % trailers.count]
            guard let message = try? PlainParser.parse(text) else {
                failures.append("the plain rule failed on \(text.debugDescription)")
                continue
            }
            var writer = JSONWriter()
            Array(message.text.utf8).withUnsafeBufferPointer { writer.string(utf8: $0) }
            let json = Array(writer.bytes.dropFirst().dropLast())
            for decoding in [false, true] {
                let r = Self.scan(line, decoding: decoding)
                let got = Message(text: message.text, unsortedEntities: r.entities)
                if r.end != raw.count {
                    failures.append(
                        "\(text.debugDescription) (decoding: \(decoding)) ended at \(String(describing: r.end))")
                } else if r.out != (decoding ? Array(message.text.utf8) : json) || r.units != message.text.utf16.count
                    || got.entities != message.entities
                {
                    failures.append(
                        "\(text.debugDescription) (decoding: \(decoding)) gave \(String(decoding: r.out, as: UTF8.self).debugDescription)"
                    )
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) strings, first: \(failures.first ?? "")")
    }

    @Test func brokenStringsAreNotRead() {
        var rng = SplitMix64(seed: 0xBAD)
        var failures: [String] = []
        let breaks: [[UInt8]] = [
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xFF], [0xC0, 0x80], [0xE0, 0x80, 0x80],
            [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x01], [0x1F], [0x00], Array(#"\u00e9"#.utf8),
            Array(#"\x"#.utf8),
        ]
        for k in 0..<4_000 {
            var before = ""
            for _ in 0..<Int(rng.next() % 12) { before += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
            var after = ""
            for _ in 0..<Int(rng.next() % 12) { after += Self.pieces[Int(rng.next() % UInt64(Self.pieces.count))] }
            let broken = Self.rawJSON(before, &rng) + breaks[k % breaks.count] + Self.rawJSON(after, &rng)
            for line in [broken + [0x22], broken] {
                for decoding in [false, true] where Self.scan(line, decoding: decoding).end != nil {
                    failures.append("\(line) (decoding: \(decoding)) was read")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) strings, first: \(failures.first ?? "")")
    }
}
