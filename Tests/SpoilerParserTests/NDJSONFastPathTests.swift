import SpoilerCore
import SpoilerParser
import Testing

/// The fast reader of common NDJSON lines (``NDJSONRecord/withPlainMessage(line:format:options:_:)``)
/// against the full one (``NDJSONRecord/init(line:format:options:)``) on generated lines:
/// wherever the fast one answers, it must give the full one's text, entities and id, and the
/// JSON written from its bytes must be the JSON written from the full one's message.
@Suite struct NDJSONFastPathTests {
    /// Pieces of lines: JSON syntax, ids, escapes, markup, and bytes that must send a line
    /// to the full reader (raw controls, invalid UTF-8, surrogate escapes, other members).
    static let pieces: [[UInt8]] =
        [
            "\"", "{", "}", ":", ",", " ", "\t", "\r", "\"id\"", "\"text\"", "\"caption\"", "\"entities\"", "[]", "7",
            "-0", "1.5e3", "01", "\"x-1\"", "\"é\"", "null", "true", "a", "b c", "||", "|", "`", "\\\\", "\\\"", "\\n",
            "\\t", "\\/", "\\u00e9", "\\u0000", "\\ud83d\\ude00", "\\ud800", "\\x", "é", "漢", "😀", "👩‍👩‍👧", "\u{2028}",
            "\u{85}", "\u{7F}",
        ].map { Array($0.utf8) } + [[0x01], [0xC3], [0xFF], [0xE2, 0x80], [0xED, 0xA0, 0x80]]

    /// Lines that look like the common kind, made of `pieces` put where they often fit.
    static func line(_ rng: inout SplitMix64) -> [UInt8] {
        func piece() -> [UInt8] { pieces[Int(rng.next() % UInt64(pieces.count))] }
        func text() -> [UInt8] {
            var t: [UInt8] = [0x22]
            for _ in 0..<Int(rng.next() % 8) { t += piece() }
            return t + [0x22]
        }
        switch rng.next() % 4 {
        case 0: return text()
        case 1: return Array(#"{"id":"#.utf8) + piece() + Array(#","text":"#.utf8) + text() + [0x7D]
        case 2: return Array(#"{ "text" : "#.utf8) + text() + Array(#" , "id":"#.utf8) + piece() + Array(" } ".utf8)
        default:
            var l: [UInt8] = []
            for _ in 0..<Int(rng.next() % 10) { l += piece() }
            return l
        }
    }

    @Test func fastLinesReadAsTheFullReaderReadsThem() {
        var rng = SplitMix64(seed: 0x17)
        let (taken, failures) = Self.compareReaders((0..<40_000).map { _ in Self.line(&rng) })
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        // The generator must reach the fast path often, or the test proves little.
        #expect(taken > 3_000, "only \(taken) lines took the fast path")
    }

    /// Long texts, so that every kind of piece falls at every place of the eight-byte
    /// words the fast reader checks at once: long ASCII runs between the bytes of a broken
    /// UTF-8 sequence, invalid bytes, raw controls, `\u` escapes with and without
    /// surrogates, and escapes and quotes across word boundaries.
    @Test func longLinesReadAsTheFullReaderReadsThem() {
        var rng = SplitMix64(seed: 0x18)
        let valid: [[UInt8]] = [
            "a", "abcdefgh", "0123456789abcdef", " ", "||", "|", "`", "\\\\", "\\\"", "\\n", "\\t", "\\/", "\\b",
            "\\f", "\\r", "\\u00e9", "\\u0000", "\\u007c", "\\u0060", "\\u2028", "é", "漢", "😀", "👩‍👩‍👧", "Привет",
            "\u{2028}", "\u{85}", "\u{7F}",
        ].map { Array($0.utf8) }
        let invalid: [[UInt8]] = [
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0x01], [0x1F], Array("\\ud83d\\ude00".utf8), Array("\\ud800".utf8),
            Array("\\x".utf8), Array("\\u12g4".utf8), Array("\\".utf8),
        ]
        var lines: [[UInt8]] = []
        for k in 0..<6_000 {
            var text = [UInt8](repeating: 0x61, count: Int(rng.next() % 8))
            for _ in 0..<Int(rng.next() % 60) {
                let pool = rng.next() % 40 == 0 ? invalid : valid
                text += pool[Int(rng.next() % UInt64(pool.count))]
            }
            switch k % 3 {
            case 0: lines.append([0x22] + text + [0x22])
            case 1: lines.append(Array(#"{"id":\#(k),"text":""#.utf8) + text + Array(#""}"#.utf8))
            default: lines.append(Array(#"{"text":""#.utf8) + text + Array(#"","id":"x"}"#.utf8))
            }
        }
        let (taken, failures) = Self.compareReaders(lines)
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        #expect(taken > 1_500 && taken < 5_500, "\(taken) lines took the fast path")
    }

    /// A sequence broken by a word of ASCII, at every alignment: the lead byte, eight or
    /// more ASCII bytes, then the one continuation byte it lacks: only the full reader may take it (to
    /// report the invalid UTF-8).
    @Test func sequencesAcrossAnASCIIWordAreChecked() {
        var lines: [[UInt8]] = []
        for lead: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
            for pad in 0..<8 {
                for run in [Array("abcdefgh".utf8), Array("abcdefghijklmnopq".utf8)] {
                    let head = [UInt8](repeating: 0x61, count: pad)
                    lines.append([0x22] + head + lead + run + [0x80] + [0x22])
                }
            }
        }
        let (taken, failures) = Self.compareReaders(lines)
        #expect(failures.isEmpty, "\(failures.count) lines differ, first: \(failures.first ?? "")")
        #expect(taken == 0, "\(taken) lines of invalid UTF-8 took the fast path")
    }

    /// Reads each line with the fast reader and, where it answers, with the full one;
    /// returns how many took the fast path, and a description of each that differs.
    static func compareReaders(_ lines: [[UInt8]]) -> (taken: Int, failures: [String]) {
        var taken = 0
        var failures: [String] = []
        var buffers = NDJSONLineBuffers()
        for line in lines {
            let fast = line.withUnsafeBufferPointer { p in
                NDJSONRecord.withPlainMessage(line: p, format: .plain) { text, entities, id in
                    var w = JSONWriter()
                    Message.write(utf8: text, entities: entities, id: id, to: &w)
                    return (Array(text), entities, id.map(Array.init), w.bytes)
                }
            }
            // Buffers reused from line to line read each line as fresh ones do.
            let reused = line.withUnsafeBufferPointer { p in
                NDJSONRecord.withPlainMessage(line: p, format: .plain, buffers: &buffers) { text, entities, id in
                    (Array(text), entities, id.map(Array.init))
                }
            }
            if reused?.0 != fast?.0 || reused?.1 != fast?.1 || reused?.2 != fast?.2 {
                failures.append("reused buffers differ: \(String(decoding: line, as: UTF8.self))")
            }
            guard let fast else { continue }
            taken += 1
            guard let full = NDJSONRecord(line: line, format: .plain), case .success(let message) = full.result else {
                failures.append("full reader failed: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            var w = JSONWriter()
            message.write(to: &w, id: full.id)
            if fast.0 != Array(message.text.utf8) || fast.1 != message.entities || fast.2 != full.id
                || fast.3 != w.bytes
            {
                failures.append(String(decoding: line, as: UTF8.self))
            }
        }
        return (taken, failures)
    }

    @Test func otherFormatsAndOptionsTakeTheFullReader() {
        let line = Array(#""hi ||there||""#.utf8)
        line.withUnsafeBufferPointer { p in
            #expect(NDJSONRecord.withPlainMessage(line: p, format: .plain) { _, e, _ in e.count } == 1)
            #expect(NDJSONRecord.withPlainMessage(line: p, format: .markdownV2) { _, e, _ in e.count } == nil)
            #expect(
                NDJSONRecord.withPlainMessage(line: p, format: .plain, options: ParseOptions(spoilerReasons: true)) {
                    _, e, _ in e.count
                } == nil)
        }
    }
}

@Suite struct JSONWriterFastPathTests {
    @Test func integersAsStringWritesThem() {
        var rng = SplitMix64(seed: 3)
        var values: [Int] = [0, 9, 10, 99, 100, -1, -10, Int.max, Int.min]
        for _ in 0..<2_000 { values.append(Int(bitPattern: UInt(rng.next())) >> Int(rng.next() % 63)) }
        values += Array(990...1_010) + [9_999, 10_000, 99_999, 100_000, 123_456_789, -1_000, -99_999]
        for v in values {
            var out: [UInt8] = []
            JSONWriter.appendInteger(v, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
            var w = JSONWriter()
            w.number(Int64(v))
            #expect(w.string == String(v))
            #expect(String(decoding: JSONByteCursor.bytes(capacity: 20) { $0.integer(v) }, as: UTF8.self) == String(v))
        }
    }

    @Test func wholeDoublesAsIntegers() {
        for d: Double in [0, -0.0, 1, -1, 24, 2_147_483_647, -2_147_483_647, 1e12, 0.5, -0.25, 1.00004] {
            var out: [UInt8] = []
            JSONWriter.appendNumber(d, decimals: 4, to: &out)
            let expected: String =
                switch d {
                case 0.5: "0.5"
                case -0.25: "-0.25"
                case 1.00004: "1"
                case 1e12: "1000000000000"
                default: String(Int(d))
                }
            #expect(String(decoding: out, as: UTF8.self) == expected, "\(d)")
        }
    }

    @Test func commasAtEveryDepth() {
        // Deeper than the 64 levels kept in a word, and back.
        var w = JSONWriter()
        func nest(_ w: inout JSONWriter, _ depth: Int) {
            w.array { w in
                w.number(depth)
                if depth < 70 { nest(&w, depth + 1) }
                w.number(depth)
            }
        }
        nest(&w, 1)
        var expected = ""
        for d in 1...70 { expected += "[\(d)," }
        expected.removeLast()
        expected += ",70"
        for d in (1...69).reversed() { expected += "],\(d)" }
        expected += "]"
        #expect(w.string == expected)
    }

    @Test func cursorWritesWhatTheWriterWrites() {
        var rng = SplitMix64(seed: 11)
        let pieces = [
            "a", "bc", "\"", "\\", "\n", "\u{01}", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{202A}",
            "\u{2069}", "\u{206A}", "é", "漢字", "😀", "👩‍👩‍👧", "\u{E2}", "long run of ascii", " ",
        ]
        for _ in 0..<5_000 {
            var s = ""
            for _ in 0..<Int(rng.next() % 12) { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
            var w = JSONWriter()
            w.string(s)
            let n = Int(rng.next() % 2_000_000) - 1_000_000
            w.number(n)
            let d = Double(Int(rng.next() % 2000) - 1000) / 8
            w.number(d)
            let bytes = JSONByteCursor.bytes(capacity: 6 * s.utf8.count + 64) { c in
                c.quoted(s)
                c.integer(n)
                c.number(d)
            }
            #expect(bytes == w.bytes, "\(s) \(n) \(d)")
        }
    }

    @Test func escapesAsBefore() {
        let s = "a\"b\\c\n\r\t\u{01}\u{7F}\u{85}\u{2028}\u{202E}\u{2066}\u{2069}\u{206A}é😀"
        var w = JSONWriter()
        w.string(s)
        #expect(w.string == #""a\"b\\c\n\r\t\u0001\u007f\u0085\u2028\u202e\u2066\u2069"# + "\u{206A}é😀\"")
    }
}
