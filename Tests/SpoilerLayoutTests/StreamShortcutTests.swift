import Testing

@testable import SpoilerCore
@testable import SpoilerLayout

/// The shortcuts of `spoiler layout --ndjson` against the general ways, on generated text
/// that puts them at their edges: runs of printable ASCII eight bytes at a time (a combining
/// mark or a non-ASCII byte right after a run, CR LF, controls), spaces that end a word
/// inside a spoiler (and a mark joining such a space), emoji ZWJ sequences and flags found
/// without utf8proc's break function, word objects written with one check of the room, and
/// their text escaped eight bytes at a time.
@Suite struct StreamShortcutTests {
    /// Scalars and short strings around the shortcuts' edges.
    static let pieces: [String] = [
        "a", "xy", "abcdefgh", "abcdefghijklmnopq", " ", "  ", "a b c d e f g h i j", "\r\n", "\r", "\n", "\t", "\u{1}",
        "\u{7F}", "\u{301}", "\u{308}\u{301}", " \u{301}", "e\u{301}", "é", "漢", "字", "ｱ", "Привет", "\u{200D}",
        "\u{FE0F}", "😀", "👩", "👧", "\u{1F3FD}", "🇺", "🇦", "🇩🇪", "\u{2764}", "©", "\u{0903}", "\u{093E}", "\u{0600}",
        "\u{1100}", "\u{1161}", "\u{11A8}", "각", "\u{E0067}", "\u{200B}", "\u{A0}", "\u{3000}", "\"", "\\", "\u{2028}",
        "\u{85}", "\u{20E3}", "#", "\u{1F9D1}", "👩‍👩‍👧", "👍🏽",
    ]

    /// Up to `count` pieces, with runs of 1 to 30 printable ASCII bytes (a space now and
    /// then) between some of them.
    static func text(_ rng: inout SplitMix64, count: Int) -> String {
        var s = ""
        for _ in 0..<Int(rng.next() % UInt64(count + 1)) {
            if rng.next() % 2 == 0 {
                for _ in 0..<Int(1 + rng.next() % 30) {
                    s.unicodeScalars.append(rng.next() % 6 == 0 ? " " : Unicode.Scalar(UInt8(0x21 + rng.next() % 94)))
                }
            }
            s += pieces[Int(rng.next() % UInt64(pieces.count))]
        }
        return s
    }

    /// Spoilers in canonical order without overlaps (as plain markup gives them), the whole
    /// text now and then.
    static func spoilers(_ rng: inout SplitMix64, utf16Count n: Int) -> [Entity] {
        if rng.next() % 5 == 0 { return [Entity(.spoiler, offset: 0, length: n)] }
        var entities: [Entity] = []
        var at = 0
        while at < n && entities.count < 6 {
            let offset = at + Int(rng.next() % 12)
            let length = 1 + Int(rng.next() % 25)
            entities.append(Entity(.spoiler, offset: offset, length: length))
            at = offset + length
        }
        return entities
    }

    /// Pictographs (one in the BMP), ZWJ, VS16, a skin tone, Extend, SpacingMark, Prepend,
    /// regional indicators, a tag (outside the table), a control, a leading jamo, CJK, ASCII.
    static let classScalars: [Unicode.Scalar] = [
        "\u{1F600}", "\u{1F469}", "\u{A9}", "\u{200D}", "\u{FE0F}", "\u{1F3FD}", "\u{301}", "\u{903}", "\u{600}",
        "\u{1F1FA}", "\u{1F1E6}", "\u{E0067}", "\u{200B}", "\u{1100}", "\u{6F22}", "a",
    ]

    /// One to eight of ``classScalars``.
    static func scalars(_ rng: inout SplitMix64) -> String {
        var s = String.UnicodeScalarView()
        for _ in 0..<Int(1 + rng.next() % 8) { s.append(classScalars[Int(rng.next() % UInt64(classScalars.count))]) }
        return String(s)
    }

    @Test func scannerFindsTheClustersUTF8ProcFinds() {
        typealias Info = GraphemeScanner.BMPInfo
        var rng = SplitMix64(seed: 0x5CA7)
        var failures: [String] = []
        var emoji = 0
        GraphemeScanner.BMPInfo.table.withUnsafeBufferPointer { table in
            for round in 0..<60_000 {
                // Half the texts from the pieces, half from a few scalars of the classes
                // the emoji state machine tells apart, so that every short sequence of them
                // comes up.
                let text = round % 2 == 0 ? Self.text(&rng, count: 10) : Self.scalars(&rng)
                let bytes = Array(text.utf8)
                bytes.withUnsafeBufferPointer { p in
                    var i = 0
                    while i < p.count {
                        let g = GraphemeScanner.scan(p, from: i, to: p.count, table: table)
                        let r = GraphemeScanner.scanWithUTF8Proc(p, from: i, to: p.count)
                        let (first, _) = GraphemeScanner.decode(p, i)
                        let info = Info.info(of: first, in: table)
                        if info & Info.pictographic != 0 || GraphemeScanner.isRegionalIndicator(first) { emoji += 1 }
                        let same =
                            (g.end, g.utf16Length, g.kind, g.columns, g.base, g.scalarCount)
                            == (r.end, r.utf16Length, r.kind, r.columns, r.base, r.scalarCount)
                        if !same { failures.append("\(text.debugDescription) at \(i): \(g) against \(r)") }
                        i = Swift.max(i + 1, r.end)
                        while i < p.count && p[i] & 0xC0 == 0x80 { i += 1 }
                    }
                }
            }
        }
        #expect(failures.count == 0, "\(failures.count) clusters differ, first: \(failures.first ?? "")")
        #expect(emoji > 60_000, "only \(emoji) clusters started with a pictograph or an indicator")
    }

    @Test func streamedGeometryOfLongASCIIRunsIsTheGeneralLayoutsJSON() {
        var rng = SplitMix64(seed: 0xA5C1)
        var failures: [String] = []
        var taken = 0
        let engines = [LayoutEngine(), LayoutEngine(model: .mono(cellWidth: 3, cellHeight: 5))]
        for round in 0..<8_000 {
            let text = Self.text(&rng, count: 8)
            let bytes = Array(text.utf8)
            let entities = Self.spoilers(&rng, utf16Count: text.utf16.count)
            let engine = engines[round % engines.count]
            let redact = round % 7 == 0
            let id: [UInt8]? = round % 2 == 0 ? nil : Array("\"r\(round)\"".utf8)
            let expected = GeometryStreamTests.general(engine, bytes, entities, id: id, redact: redact)
            if let streamed = GeometryStreamTests.streamed(engine, bytes, entities, id: id, redact: redact) {
                taken += 1
                if streamed != expected { failures.append("\(text.debugDescription) \(entities)") }
            }
        }
        #expect(failures.count == 0, "\(failures.count) messages differ, first: \(failures.first ?? "")")
        #expect(taken > 6_000, "only \(taken) messages took the stream")
    }

    /// A word past column 2048 with cells 2²⁰ pixels wide has an `x` of 2³¹ or more: it is
    /// written the checked way, as the general layout writes it.
    @Test func wordsFarToTheRightAreWrittenTheCheckedWay() throws {
        let engine = LayoutEngine(model: .mono(cellWidth: 1 << 20, cellHeight: 1 << 20))
        let prefix = String(repeating: "x", count: 3_000) + " "
        let text = prefix + "ab \"c\" d"
        let bytes = Array(text.utf8)
        let entities = [Entity(.spoiler, offset: prefix.utf16.count, length: 8)]
        for redact in [false, true] {
            let streamed = try #require(GeometryStreamTests.streamed(engine, bytes, entities, id: nil, redact: redact))
            let general = GeometryStreamTests.general(engine, bytes, entities, id: nil, redact: redact)
            #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: general, as: UTF8.self))
        }
    }

    /// Words of over 1,000 graphemes and columns: numbers of four and five digits.
    @Test func longWordsAreWrittenAsTheGeneralLayoutWritesThem() throws {
        let text = String(repeating: "y", count: 1_500) + " " + String(repeating: "\u{6F22}", count: 1_200) + "\r\nz"
        let bytes = Array(text.utf8)
        let entities = [Entity(.spoiler, offset: 0, length: text.utf16.count)]
        for redact in [false, true] {
            let streamed = try #require(
                GeometryStreamTests.streamed(LayoutEngine(), bytes, entities, id: nil, redact: redact))
            let general = GeometryStreamTests.general(LayoutEngine(), bytes, entities, id: nil, redact: redact)
            #expect(String(decoding: streamed, as: UTF8.self) == String(decoding: general, as: UTF8.self))
        }
    }

    @Test func rawJSONWritesWhatTheCursorWrites() {
        var rng = SplitMix64(seed: 0x7A3)
        let extra = ["\u{80}", "\u{9F}", "\u{A0}", "\u{2029}", "\u{2068}", "\u{200E}", "\u{1F}", "\u{0}", "ab\"cd\\ef"]
        var failures: [String] = []
        for _ in 0..<5_000 {
            var text = Self.text(&rng, count: 6)
            if rng.next() % 2 == 0 { text += extra[Int(rng.next() % UInt64(extra.count))] }
            let bytes = Array(text.utf8)
            let bound = 6 * bytes.count + 2
            let expected = JSONByteCursor.bytes(capacity: bound) { c in
                bytes.withUnsafeBufferPointer { c.quoted(utf8: $0) }
            }
            let raw = JSONByteCursor.bytes(capacity: bound) { c in
                c.withRoom(bound: bound) { q in
                    var o = RawJSON(p: q)
                    bytes.withUnsafeBufferPointer { o.quoted(utf8: $0) }
                    return o.p
                }
            }
            if raw != expected { failures.append(text.debugDescription) }
        }
        #expect(failures.count == 0, "\(failures.count) strings differ, first: \(failures.first ?? "")")
        #expect(RawJSON.digitPairs.utf8CodeUnitCount == 200)
        let numbers = Array(0...1_100) + [65_536, 2_147_483_648, Int.max, -1, -9, -10, -999, -1_000, Int.min]
        for n in numbers {
            let expected = JSONByteCursor.bytes(capacity: 20) { $0.integer(n) }
            let raw = JSONByteCursor.bytes(capacity: 20) { c in
                c.withRoom(bound: 20) { q in
                    var o = RawJSON(p: q)
                    o.integer(n)
                    return o.p
                }
            }
            #expect(raw == expected, "\(n)")
        }
    }

    /// Words of Latin, Cyrillic, CJK and emoji, and the scalars that may join the grapheme
    /// before them (marks in and past the BMP, a ZWJ or VS16 after ASCII, a vowel jamo
    /// after a syllable, a tag), for the stream's runs of any script: its words and lines
    /// must be the general layout's, with spoilers that start and end anywhere, inside
    /// clusters too.
    @Test func runsOfMixedScriptsStreamAsTheyLayOut() {
        let words = [
            "butler", "candlestick", "Привет", "концовка", "ж\u{483}", "漢字", "映画", "naïve", "e\u{301}té", "Zoe\u{308}",
            "👍🏽", "😀", "🇺🇦", "👩‍👩‍👧", "각\u{1161}", "가\u{1161}", "각\u{11A8}", "가\u{11A8}", "각", "a\u{E0100}", "x\u{1D165}y",
            "a\u{200D}", "b\u{FE0F}", "\u{301}",
            "ａｂ", "𠀀", "\u{10FFFD}", "\u{AD}", "\u{2060}", "\u{600}a", "\u{E33}", "ก\u{E33}", "\u{A0}", "\u{3000}",
            "\u{2007}", "x\u{903}", "\"q\"", "a\\b", "\u{1}", "\u{7F}", "\u{85}", "\t", "\n", "\r\n",
            // Two-byte letters taken four at a time, their neighbours, and what joins them.
            "ÀÿÆ×÷ßñé", "Ѐѿабвгдеёжзийклмнопрстуфхцчшщъыьэюя", "жж\u{301}ж", "ёёё\u{200D}", "ЁЁ\u{FE0F}",
            "ѿ\u{483}ѿ", "\u{482}Ґ", "ӁӁ", "aéaéaé", "¿¡", "\u{BF}\u{C0}", "Ä\u{308}Ö\u{308}Ü\u{308}",
            "ø\u{200D}\u{1F469}",
        ]
        var rng = SplitMix64(seed: 0x5C21)
        var failures: [String] = []
        var taken = 0
        let engines = [LayoutEngine(), LayoutEngine(model: .mono(cellWidth: 3, cellHeight: 5))]
        for round in 0..<8_000 {
            var text = ""
            for _ in 0..<Int(rng.next() % 14) {
                text += words[Int(rng.next() % UInt64(words.count))]
                text += rng.next() % 4 == 0 ? "" : " "
            }
            let bytes = Array(text.utf8)
            let entities = Self.spoilers(&rng, utf16Count: text.utf16.count)
            let engine = engines[round % engines.count]
            let redact = round % 7 == 0
            let expected = GeometryStreamTests.general(engine, bytes, entities, id: nil, redact: redact)
            if let streamed = GeometryStreamTests.streamed(engine, bytes, entities, id: nil, redact: redact) {
                taken += 1
                if streamed != expected { failures.append("\(text.debugDescription) \(entities)") }
            }
        }
        #expect(failures.count == 0, "\(failures.count) messages differ, first: \(failures.first ?? "")")
        #expect(taken > 6_000, "only \(taken) messages took the stream")
    }

    /// ``TwoByteLetters/count(in:)`` against a byte-by-byte reading, on words of lead,
    /// continuation and other bytes; and the table's facts it relies on.
    @Test func twoByteLettersAreCountedAsTheyDecode() {
        #expect(TwoByteLetters.holdInTable)
        #expect(!TwoByteLetters.hold(in: GraphemeScanner.BMPInfo.table.enumerated().map { $0 == 0x410 ? 0 : $1 }))
        let bytes: [UInt8] = [0xC2, 0xC3, 0xC4, 0xCF, 0xD0, 0xD1, 0xD2, 0x80, 0xBF, 0xC0, 0x7F, 0x41, 0x20, 0xFF, 0x00]
        var rng = SplitMix64(seed: 0x2B7E)
        var failures: [String] = []
        for _ in 0..<200_000 {
            let word = (0..<8).map { _ in bytes[Int(rng.next() % UInt64(bytes.count))] }
            var expected = 0
            while expected < 4 {
                let (lead, next) = (word[2 * expected], word[2 * expected + 1])
                guard lead == 0xC3 || lead == 0xD0 || lead == 0xD1, next & 0xC0 == 0x80 else { break }
                expected += 1
            }
            let v = word.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if TwoByteLetters.count(in: v) != expected { failures.append("\(word)") }
        }
        #expect(failures.isEmpty, "\(failures.count) words, first: \(failures.first ?? "")")
        for b in UInt8.min...UInt8.max {
            #expect(TwoByteLetters.mayLead(b) == (0xC3...0xD1).contains(b))
        }
    }

    /// ``WideScalars/starts(_:_:)`` against decoding, for every lead byte and every second
    /// byte; and the table's facts it relies on.
    @Test func wideScalarsAreFoundAsTheyDecode() {
        #expect(WideScalars.holdInTable)
        for changed in [0x6F22, 0xD77F] {
            #expect(!WideScalars.hold(in: GraphemeScanner.BMPInfo.table.enumerated().map { $0 == changed ? 0 : $1 }))
        }
        var failures: [String] = []
        for lead in UInt8(0xE0)...UInt8(0xEF) {
            for second in UInt8(0x80)...UInt8(0xBF) {
                let bytes = [lead, second, 0x80]
                let (c, _) = bytes.withUnsafeBufferPointer { GraphemeScanner.decode($0, 0) }
                let expected = WideScalars.scalars.contains { $0.contains(Int(c)) }
                if WideScalars.starts(lead, second) != expected { failures.append("\(bytes)") }
                if expected && !WideScalars.mayLead(lead) { failures.append("lead \(lead)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) sequences, first: \(failures.first ?? "")")
        for b in UInt8.min...UInt8.max {
            #expect(WideScalars.mayLead(b) == (0xE4...0xED).contains(b))
        }
    }

    /// ``MonoGeometryStream/writeWordQuickly(_:scale:lineHeight:text:readable:comma:digits:to:)``
    /// against ``MonoGeometryStream/writeWord(_:scale:lineHeight:text:comma:smallCoordinates:to:)``:
    /// numbers around 10, 100 and 1,000, texts of 1 to 20 bytes (with bytes to escape), the
    /// text at the end of the message (fewer than 16 bytes readable) or not.
    @Test func quickWordObjectsAreTheWordWritersObjects() {
        var rng = SplitMix64(seed: 0x3D1)
        let numbers = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1_000, 1_001, 65_535, 2_147_483_647]
        var failures: [String] = []
        for _ in 0..<20_000 {
            func number() -> Int { numbers[Int(rng.next() % UInt64(numbers.count))] }
            var f = MonoGeometryStream.Fragment()
            f.entity = number()
            f.word = number()
            f.line = Int32(number() % 1_000)
            f.firstX = Int32(number() % 1_000)
            f.right = f.firstX + Int32(number() % 1_000)
            f.utf16Start = Int32(number() % 2_000_000)
            f.utf16End = f.utf16Start + Int32(number() % 100_000)
            f.graphemes = number()
            let word = Array(Self.text(&rng, count: 3).utf8.prefix(20))
            let pad = Int(rng.next() % 24)
            let message = word + Array(repeating: UInt8(ascii: "z"), count: pad)
            let scale = [1, 3, 8][Int(rng.next() % 3)]
            let lineHeight = [1, 5, 16][Int(rng.next() % 3)]
            let redact = word.isEmpty || rng.next() % 8 == 0
            let comma = rng.next() % 2 == 0
            let bound = MonoGeometryStream.wordBound + 6 * word.count + 16
            message.withUnsafeBufferPointer { m in
                let text = redact ? nil : UnsafeBufferPointer(rebasing: m[0..<word.count])
                let expected = JSONByteCursor.bytes(capacity: bound) { c in
                    MonoGeometryStream.writeWord(
                        f, scale: scale, lineHeight: lineHeight, text: text, comma: comma, smallCoordinates: false,
                        to: &c)
                }
                let quick = JSONByteCursor.bytes(capacity: bound) { c in
                    c.withRoom(bound: bound) { q in
                        var o = RawJSON(p: q)
                        MonoGeometryStream.writeWordQuickly(
                            f, scale: scale, lineHeight: lineHeight, text: text, readable: m.count, comma: comma,
                            digits: SmallDecimals.table, to: &o)
                        return o.p
                    }
                }
                if quick != expected { failures.append(String(decoding: expected, as: UTF8.self)) }
            }
        }
        #expect(failures.count == 0, "\(failures.count) words differ, first: \(failures.first ?? "")")
    }
}
