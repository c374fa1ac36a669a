import SpoilerCore
import Testing

@Suite struct UTF8ValidationTests {
    /// The independent reference, the standard library's validator: the first invalid
    /// offset is the length of the longest prefix that `String(validating:)` accepts, or
    /// nil when it accepts the whole.
    static func reference(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var k = bytes.count - 1
        while k > 0 && String(validating: bytes[..<k], as: UTF8.self) == nil { k -= 1 }
        return k
    }

    /// Both of our entry points (the array and the slice) agree with the standard library
    /// on random bytes biased towards (broken) multi-byte sequences, overlong forms,
    /// surrogates, code points past U+10FFFF and long ASCII runs.
    @Test func firstInvalidOffsetMatchesTheStandardLibrary() {
        var rng = SplitMix64(seed: 7)
        let pieces: [[UInt8]] = [
            Array("abcdefgh".utf8), Array("é".utf8), Array("漢".utf8), Array("😀".utf8), [0xE2, 0x82], [0xF0, 0x9F],
            [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xFF], [0x80], Array("0123456789abcdef".utf8),
            [0xE0, 0x80, 0x80], [0xC2], [0xF8, 0x88, 0x80, 0x80, 0x80],
        ]
        var invalid = 0
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(rng.next() % 12) {
                let p = pieces[Int(rng.next() % UInt64(pieces.count))]
                bytes += rng.next() % 4 == 0 ? Array(p.prefix(Int(rng.next() % UInt64(p.count + 1)))) : p
            }
            let reference = Self.reference(bytes)
            if reference != nil { invalid += 1 }
            #expect(UTF8Validation.firstInvalidOffset(in: bytes) == reference, "\(bytes)")
            #expect(UTF8Validation.firstInvalidOffset(in: ([0x41] + bytes)[1...]) == reference, "\(bytes)")
        }
        #expect(invalid > 500 && invalid < 2900)  // both kinds of input were tried
    }

    /// Long inputs, at every alignment to the eight-byte words the validator reads: runs of
    /// ASCII long enough to fill a word between the bytes of a broken sequence (a lead
    /// byte, eight ASCII bytes, then a continuation byte must not pass), sequences that
    /// straddle two words, and invalid bytes near a word's end.
    @Test func longInputsAtEveryAlignmentMatchTheStandardLibrary() {
        var rng = SplitMix64(seed: 0x5AFE)
        let pieces: [[UInt8]] = [
            Array("abcdefgh".utf8), Array("abc".utf8), Array(" ".utf8), Array("é".utf8), Array("漢".utf8),
            Array("😀".utf8), Array("Привет".utf8), [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0x80], [0xBF],
            [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE0, 0x9F, 0x80],
        ]
        var invalid = 0
        for _ in 0..<4000 {
            var bytes = [UInt8](repeating: 0x61, count: Int(rng.next() % 8))
            for _ in 0..<Int(rng.next() % 24) {
                // Mostly valid pieces, so that the first invalid one lies anywhere.
                let p = pieces[Int(rng.next() % UInt64(rng.next() % 3 == 0 ? pieces.count : 7))]
                bytes += p
            }
            let reference = Self.reference(bytes)
            if reference != nil { invalid += 1 }
            #expect(UTF8Validation.firstInvalidOffset(in: bytes) == reference, "\(bytes)")
        }
        for lead: [UInt8] in [[0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98]] {
            for pad in 0..<8 {
                let bytes = [UInt8](repeating: 0x61, count: pad) + lead + Array("abcdefgh".utf8) + [0x80, 0x80, 0x80]
                #expect(UTF8Validation.firstInvalidOffset(in: bytes) == pad, "\(bytes)")
            }
        }
        #expect(invalid > 500 && invalid < 3900)  // both kinds of input were tried
    }

    /// Every one- and two-byte input.
    @Test func everyShortInputMatchesTheStandardLibrary() {
        for a in 0...255 {
            #expect(UTF8Validation.firstInvalidOffset(in: [UInt8(a)]) == Self.reference([UInt8(a)]))
            for b in 0...255 {
                let bytes = [UInt8(a), UInt8(b)]
                #expect(UTF8Validation.firstInvalidOffset(in: bytes) == Self.reference(bytes), "\(bytes)")
            }
        }
    }
}

@Suite struct JSONQuotingTests {
    /// The reference: escape scalar by scalar.
    static func reference(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F...0x9F, 0x2028...0x202E, 0x2066...0x2069:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test func quotingMatchesTheScalarByScalarReference() {
        let pieces = [
            "a", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{7F}", "\u{80}", "\u{9F}", "\u{A0}", "\u{2028}", "\u{2029}",
            "\u{202E}", "\u{202F}", "\u{2027}", "\u{2065}", "\u{2066}", "\u{2069}", "\u{206A}", "€", "😀", "é", "漢",
        ]
        var rng = SplitMix64(seed: 3)
        for _ in 0..<3000 {
            let s = (0..<Int(rng.next() % 10)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
            var out: [UInt8] = []
            JSONWriter.appendQuoted(s, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == Self.reference(s), "\(s.debugDescription)")
            var fromSubstring: [UInt8] = []
            JSONWriter.appendQuoted(s.dropFirst(0), to: &fromSubstring)
            #expect(fromSubstring == out)
        }
    }
}

@Suite struct EntityStorageTests {
    @Test func plainEntitiesAreSmallAndFieldsKeepValueSemantics() {
        #expect(MemoryLayout<Entity>.stride <= 32)
        var a = Entity(.textLink, offset: 0, length: 1, url: "https://a")
        let b = a
        a.url = "https://b"
        #expect(b.url == "https://a")
        #expect(a.url == "https://b")
        a.url = nil
        #expect(a == Entity(.textLink, offset: 0, length: 1))
        #expect(a.hashValue == Entity(.textLink, offset: 0, length: 1).hashValue)
        var c = Entity(.dateTime, offset: 2, length: 3)
        c.unixTime = 5
        c.tdlibDateFlags = 1
        c.dateTimeFormat = "r"
        #expect(c == Entity(.dateTime, offset: 2, length: 3, unixTime: 5, tdlibDateFlags: 1, dateTimeFormat: "r"))
        #expect(c != Entity(.dateTime, offset: 2, length: 3, unixTime: 5, tdlibDateFlags: 2, dateTimeFormat: "r"))
    }
}
