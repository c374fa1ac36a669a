import SpoilerCore
import SpoilerParser
import Testing

/// The one-pass `parse` output of a common NDJSON line
/// (``NDJSONRecord/appendPlainJSON(line:format:options:buffers:defaultID:to:)``) against the
/// plain rule: it must take the lines ``NDJSONRecord/withPlainMessage(line:format:options:buffers:_:)``
/// takes, and write what ``Message/appendJSON(utf8:entities:id:to:)`` writes of that
/// method's message and what the JSON writer writes of the full reader's message
/// (``NDJSONRecord/init(line:format:options:)``).
@Suite struct NDJSONPlainJSONTests {
    /// Pieces of texts: markup, every JSON escape (`\u` with and without surrogates, and
    /// broken ones), characters the writer escapes (DEL, C1 controls, U+2028, the
    /// bidirectional formatting characters) next to ones it does not (other C2 and E2
    /// sequences), long ASCII runs, and bytes no common line has (invalid UTF-8, raw
    /// controls).
    static let pieces: [[UInt8]] =
        [
            "a", "abcdefgh", "0123456789abcdef", " ", "||", "|", "`", "``", "\\\\", "\\\\|", "\\\\`", "\\\\\\\\",
            "\\\\\\\\|", "\\\\a", "\\\"", "\\n", "\\r", "\\t", "\\/", "\\b", "\\f", "\\u00e9", "\\u0000", "\\u007c",
            "\\u0060", "\\u005c", "\\u2028", "\\ud83d\\ude00", "é", "漢", "😀", "👩‍👩‍👧", "Привет", "\u{7F}", "\u{80}",
            "\u{85}", "\u{9F}", "\u{A0}", "\u{2027}", "\u{2028}", "\u{202E}", "\u{202F}", "\u{2065}", "\u{2066}",
            "\u{2069}", "\u{206A}", "€", "’",
        ].map { Array($0.utf8) }
    static let rare: [[UInt8]] = [
        [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x01], [0x1F],
        Array("\\ud800".utf8), Array("\\x".utf8), Array("\\u12g4".utf8), Array("\\".utf8), Array("\"".utf8),
    ]

    static func lines(count: Int, seed: UInt64, maxPieces: Int) -> [[UInt8]] {
        var rng = SplitMix64(seed: seed)
        var lines: [[UInt8]] = []
        for k in 0..<count {
            var text = [UInt8](repeating: 0x61, count: Int(rng.next() % 8))
            for _ in 0..<Int(rng.next() % UInt64(maxPieces)) {
                let pool = rng.next() % 50 == 0 ? rare : pieces
                text += pool[Int(rng.next() % UInt64(pool.count))]
            }
            switch k % 4 {
            case 0: lines.append([0x22] + text + [0x22])
            case 1: lines.append(Array(#"{"id":\#(k * 997),"text":""#.utf8) + text + Array(#""}"#.utf8))
            case 2: lines.append(Array(#"{ "text" : ""#.utf8) + text + Array(#"" , "id":"x-\#(k)" }"#.utf8))
            default: lines.append(Array(#"{"id":-\#(k),"text":""#.utf8) + text + Array(#"","id":1}"#.utf8))
            }
        }
        return lines
    }

    static func compare(_ lines: [[UInt8]]) -> (taken: Int, failures: [String]) {
        var taken = 0
        var failures: [String] = []
        var buffers = NDJSONLineBuffers()
        var referenceBuffers = NDJSONLineBuffers()
        var out = JSONOutputBuffer()
        let defaultID = Array("42".utf8)
        for line in lines {
            out.removeAll()
            let written = line.withUnsafeBufferPointer { line in
                defaultID.withUnsafeBufferPointer { id in
                    NDJSONRecord.appendPlainJSON(line: line, format: .plain, buffers: &buffers, defaultID: id, to: &out)
                }
            }
            let fast = out.withUnsafeBytes { Array($0) }
            var expected = JSONOutputBuffer()
            let reference: Void? = line.withUnsafeBufferPointer { line in
                defaultID.withUnsafeBufferPointer { defaultID in
                    NDJSONRecord.withPlainMessage(line: line, format: .plain, buffers: &referenceBuffers) {
                        text, entities, id in
                        Message.appendJSON(utf8: text, entities: entities, id: id ?? defaultID, to: &expected)
                    }
                }
            }
            var want = expected.withUnsafeBytes { Array($0) }
            if written {
                // And the full reader's message, written by the JSON writer.
                if let full = NDJSONRecord(line: line, format: .plain), case .success(let message) = full.result {
                    var w = JSONWriter()
                    message.write(to: &w, id: full.id ?? defaultID)
                    if w.bytes != want { want = w.bytes }
                } else {
                    want = Array("the full reader failed".utf8)
                }
            }
            if written != (reference != nil) || fast != want {
                failures.append(
                    "\(String(decoding: line, as: UTF8.self)): \(String(decoding: fast, as: UTF8.self)) "
                        + "instead of \(String(decoding: want, as: UTF8.self))")
            }
            if written { taken += 1 }
        }
        return (taken, failures)
    }

    @Test func shortLinesWriteWhatThePlainRuleWrites() {
        let (taken, failures) = Self.compare(Self.lines(count: 30_000, seed: 0x31, maxPieces: 8))
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        #expect(taken > 10_000, "only \(taken) lines were written")
    }

    /// Long texts, so that every piece falls at every place of the eight-byte words read
    /// at once.
    @Test func longLinesWriteWhatThePlainRuleWrites() {
        let (taken, failures) = Self.compare(Self.lines(count: 6_000, seed: 0x32, maxPieces: 80))
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        #expect(taken > 1_000, "only \(taken) lines were written")
    }

    /// A sequence broken by a word of ASCII, at every alignment: the lead byte, eight or
    /// more ASCII bytes, then the one continuation byte it lacks (invalid, though each
    /// part alone would pass), and the same with the sequence whole.
    @Test func sequencesAcrossAnASCIIWordAreChecked() {
        var lines: [[UInt8]] = []
        for lead: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xD0]] {
            for pad in 0..<8 {
                for run in [Array("abcdefgh".utf8), Array("abcdefghijklmnopq".utf8)] {
                    let head = [UInt8](repeating: 0x61, count: pad)
                    lines.append([0x22] + head + lead + run + [0x80] + [0x22])
                    lines.append([0x22] + head + lead + [0x80] + run + [0x22])
                }
            }
        }
        let (taken, failures) = Self.compare(lines)
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        #expect(taken == 64, "\(taken) lines were written")
    }

    /// The two shapes read at a glance (a JSON string line, and `{"id":N,"text":"…"}`) and
    /// their near misses: ids that are no plain integer, spaces, other keys, something
    /// after the text, a text the one pass does not read, no closing quote.
    @Test func usualShapesAndTheirNearMissesWriteWhatThePlainRuleWrites() {
        let ids = ["0", "7", "42", "-0", "-12", "01", "-", "1.5", "1e3", "\"x\"", "12345678901234567890", "9 ", " 9"]
        let texts = ["", "a ||b|| `c`", "é\\n漢😀", "\\u00e9", "\\ud83d\\ude00", "a\\\"b", "||x"]
        let tails = ["}", " }", "} ", "}x", "", ",\"id\":2}", "}}", "\n"]
        var lines: [String] = []
        for text in texts {
            lines += ["\"\(text)\"", " \"\(text)\"", "\"\(text)\" ", "\"\(text)", "\"\(text)\"x", "\"\(text)\"\"\""]
            for id in ids {
                for tail in tails { lines.append("{\"id\":\(id),\"text\":\"\(text)\"\(tail)") }
                lines += [
                    "{\"id\": \(id),\"text\":\"\(text)\"}", "{\"id\":\(id), \"text\":\"\(text)\"}",
                    "{\"id\":\(id),\"tex\":\"\(text)\"}", "{\"id\":\(id),\"texts\":\"\(text)\"}",
                    "{\"ID\":\(id),\"text\":\"\(text)\"}", "{\"id\":\(id),\"text\":\"\(text)\",\"x\":1}",
                ]
            }
        }
        let (taken, failures) = Self.compare(lines.map { Array($0.utf8) })
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        #expect(taken > 300, "only \(taken) lines were written")
    }

    /// Every text of up to three pieces, in a JSON string line.
    @Test func everySmallTextWritesWhatThePlainRuleWrites() {
        let all = Self.pieces + Self.rare
        var lines: [[UInt8]] = []
        for a in all {
            for b in all {
                lines.append([0x22] + a + b + [0x22])
                for c in Self.pieces.prefix(16) { lines.append([0x22] + a + b + c + [0x22]) }
            }
        }
        let (taken, failures) = Self.compare(lines)
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        #expect(taken > 20_000, "only \(taken) lines were written")
    }
}
