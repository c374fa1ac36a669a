import SpoilerCore
import Testing

@testable import SpoilerParser

/// The fast readers of plain chat messages (Reddit without cmark-gfm, Matrix HTML without
/// the element tree) against the full readers, on generated messages: wherever the fast one
/// answers, it must give the full one's message.
@Suite struct PlatformFastPathTests {
    static let redditPieces: [String] = [
        ">!", "!<", "`", "a", "b c", " ", "  ", "\n", "\n\n", "é", "😀", "\u{3000}", "\u{A0}", "-", "1.", "2)", "42",
        ".",
        ",", "!", "?", "(yes)", ":", "://", "www.", "@", "*", "_", "~", "|", "||", "\\", "<", ">", "#", "&amp;", "[x]",
        "don't", "\"q\"", "\t", "«", "…", "x", "—", "+", "=",
    ]

    @Test func redditPlainTextMatchesCmark() {
        var rng = SplitMix64(seed: 7)
        var failures = 0
        var taken = 0
        for n in 0..<60_000 {
            var s = ""
            let len = Int(rng.next() % 14) + 1
            for _ in 0..<len { s += Self.redditPieces[Int(rng.next() % UInt64(Self.redditPieces.count))] }
            let bytes = Array(s.utf8)
            guard let fast = RedditParser.plainTextMessage(bytes) else { continue }
            taken += 1
            let slow = try! MarkdownParser.parse(RedditParser.markdown(from: bytes))
            if fast != slow {
                failures += 1
                if failures < 15 { Issue.record("\(n) \(s.debugDescription)\nfast \(fast)\nslow \(slow)") }
            }
        }
        // Enough of them are plain text for the comparison to mean something.
        #expect(taken > 1_000)
        #expect(failures == 0)
    }

    static let matrixPieces: [String] = [
        "<span data-mx-spoiler>", "<span data-mx-spoiler=\"why\">", "<span data-mx-spoiler=\"\">", "</span>", "<code>",
        "</code>",
        "<b>", "</b>", "<strong>", "</strong>", "<i>", "</i>", "<em>", "</em>", "<u>", "</u>", "<del>", "</del>", "<s>",
        "</s>",
        "<br>", "<br/>", "<p>", "</p>", "a", "b c", " ", "  ", "\n", "é", "😀", "\u{3000}", "\u{A0}", "&amp;", "&lt;",
        "<", ">",
        "x", "\u{1C}", "<span>", "<font data-mx-spoiler>", "</font>", "<a href=\"https://e.x\">", "</a>", "<B>", "</B>",
    ]

    @Test func matrixInlineMatchesTheTreeReader() {
        var rng = SplitMix64(seed: 9)
        var failures = 0
        var taken = 0
        for n in 0..<60_000 {
            var s = ""
            let len = Int(rng.next() % 14) + 1
            for _ in 0..<len { s += Self.matrixPieces[Int(rng.next() % UInt64(Self.matrixPieces.count))] }
            guard let fast = MatrixHTMLReader.inlineMessage(Array(s.utf8)) else { continue }
            taken += 1
            let slow = MatrixHTMLReader.treeMessage(fromHTML: s)
            if fast != slow {
                failures += 1
                if failures < 15 { Issue.record("\(n) \(s.debugDescription)\nfast \(fast)\nslow \(slow)") }
            }
        }
        #expect(taken > 300)
        #expect(failures == 0)
    }

    static let words = ["a", "b c", " ", "x ", " y", "é", "😀", "\u{A0}", "ok", "  ", "q", "\u{2028}"]
    static let tags = [
        "span data-mx-spoiler", "span data-mx-spoiler=\"r\"", "code", "b", "strong", "i", "em", "u", "ins", "s", "del",
        "strike",
    ]

    static func tree(_ rng: inout SplitMix64, depth: Int) -> String {
        var s = ""
        for _ in 0..<(Int(rng.next() % 4) + 1) {
            switch rng.next() % 6 {
            case 0, 1, 2: s += words[Int(rng.next() % UInt64(words.count))]
            case 3: s += "<br>"
            default:
                guard depth < 3 else { continue }
                let t = tags[Int(rng.next() % UInt64(tags.count))]
                let name = String(t.split(separator: " ")[0])
                s += "<\(t)>" + tree(&rng, depth: depth + 1) + "</\(name)>"
            }
        }
        return s
    }

    @Test func matrixInlineTreesMatchTheTreeReader() {
        var rng = SplitMix64(seed: 11)
        var failures = 0
        var taken = 0
        for n in 0..<60_000 {
            let s = Self.tree(&rng, depth: 0)
            guard let fast = MatrixHTMLReader.inlineMessage(Array(s.utf8)) else { continue }
            taken += 1
            let slow = MatrixHTMLReader.treeMessage(fromHTML: s)
            if fast != slow {
                failures += 1
                if failures < 15 { Issue.record("\(n) \(s.debugDescription)\nfast \(fast)\nslow \(slow)") }
            }
        }
        #expect(taken > 3_000)
        #expect(failures == 0)
    }

    /// The byte-level readers' whitespace is Unicode's White_Space, as the standard
    /// library's `isWhitespace` says for every scalar.
    @Test func utf8WhitespaceIsUnicodeWhiteSpace() {
        var wrong: [UInt32] = []
        for v in UInt32(0)...0x10FFFF {
            guard let c = Unicode.Scalar(v) else { continue }
            let bytes = Array(String(c).utf8)
            let expected = c.properties.isWhitespace ? bytes.count : 0
            if DiscordScanner(bytes).spaceLength(0) != expected { wrong.append(v) }
        }
        #expect(wrong.isEmpty, "\(wrong.map { String($0, radix: 16) })")
    }

    /// The quick test before the whitespace lookup lets every non-ASCII whitespace through.
    @Test func utf8WhitespaceMayStartAtEveryLeadByte() {
        for v in UInt32(0x80)...0x10FFFF {
            guard let c = Unicode.Scalar(v), c.properties.isWhitespace else { continue }
            #expect(UTF8Whitespace.mayStart(Array(String(c).utf8)[0]), "\(String(v, radix: 16))")
        }
    }

    /// The bytes Discord's inline loop stops at are the line break and those that may start
    /// a rule.
    @Test func discordBytesThatMatter() {
        for c in 0..<256 {
            let b = UInt8(c)
            let scanner = DiscordScanner([b, UInt8(ascii: "t")])
            #expect(DiscordScanner.mayMatter(b) == (b == 0x0A || scanner.mayStartRule(b, at: 0)), "\(c)")
        }
    }

    /// The blocks whose scalars Reddit's fast reader takes for neither punctuation nor space
    /// hold none.
    @Test func redditBlocksWithoutPunctuation() {
        for v in UInt32(0x80)...0x10FFFF where RedditInline.isNeitherPunctuationNorSpace(v) {
            guard let c = Unicode.Scalar(v) else { continue }
            switch c.properties.generalCategory {
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                .initialPunctuation, .finalPunctuation, .otherPunctuation, .spaceSeparator:
                Issue.record("U+\(String(v, radix: 16)) is \(c.properties.generalCategory)")
            default: break
            }
        }
    }

    /// Discord's eight-byte test finds every byte that matters (an `h` only before a `t` or
    /// last), on words made of those bytes, their neighbours and non-ASCII bytes.
    @Test func discordWordsThatMatter() {
        let pieces: [UInt8] = [
            0x0A, 0x09, 0x0B, 0x2A, 0x29, 0x2B, 0x3C, 0x3B, 0x3D, 0x5A, 0x5B, 0x5C, 0x5F, 0x60, 0x61, 0x67, 0x68,
            0x69, 0x74, 0x73, 0x75, 0x7B, 0x7C, 0x7E, 0x7F, 0x80, 0xA8, 0xDC, 0xE8, 0xFC, 0xFE, 0x20, 0x00, 0x41,
        ]
        var rng = SplitMix64(seed: 23)
        for _ in 0..<200_000 {
            var bytes: [UInt8] = []
            let quiet = rng.next() % 2 == 0
            for _ in 0..<8 {
                // Mostly quiet bytes, so that a single one that matters is tested alone.
                let b = pieces[Int(rng.next() % UInt64(pieces.count))]
                bytes.append(quiet && rng.next() % 4 != 0 && DiscordScanner.mayMatter(b) ? 0x41 : b)
            }
            let w = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
            var expected = false
            for k in 0..<8 where DiscordScanner.mayMatter(bytes[k]) {
                if bytes[k] != UInt8(ascii: "h") || k == 7 || bytes[k + 1] == UInt8(ascii: "t") { expected = true }
            }
            #expect(DiscordScanner.wordMayMatter(w) == expected, "\(bytes)")
        }
    }

    /// Reddit's run of quiet bytes stops at the first byte that is not quiet.
    @Test func redditQuietRunsStopWhereTheByteTestSays() {
        for c in 0..<256 {
            let run = RedditParser.quietRunEnd([0x61, UInt8(c), 0x61], from: 1, to: 3)
            #expect(run == (RedditParser.isQuiet(UInt8(c)) ? 3 : 1), "\(c)")
        }
    }

    /// Reddit's plain bytes tested by masks say what the table says.
    @Test func plainBytesMatchTheMasks() {
        for c in 0..<256 {
            #expect(RedditParser.isPlain(UInt8(c)) == (c < 128 && RedditParser.plainBytes[c]), "\(c)")
        }
    }

    static let jsonTexts = [
        #""the butler did it""#, #""a\"b\\c\n😀 é""#, #""x\u0041""#, "\"\"", "null", "12", #""😀😀 ab""#,
    ]
    static let styleNames = ["SPOILER", "BOLD", "ITALIC", "STRIKETHROUGH", "MONOSPACE", "NONE", "spoiler", "WAT"]

    static func signalJSON(_ rng: inout SplitMix64) -> String {
        var members: [String] = []
        for _ in 0..<(Int(rng.next() % 3) + 1) {
            switch rng.next() % 5 {
            case 0, 1: members.append(#""message": "# + jsonTexts[Int(rng.next() % UInt64(jsonTexts.count))])
            case 2, 3:
                var styles: [String] = []
                for _ in 0..<Int(rng.next() % 3) {
                    let name = styleNames[Int(rng.next() % UInt64(styleNames.count))]
                    let start = ["0", "1", "2", "3", "-1", "01", "1.0", "9"][Int(rng.next() % 8)]
                    let length = ["1", "2", "3", "0", "20"][Int(rng.next() % 5)]
                    styles.append(#"{"style": ""# + name + #"", "start": "# + start + #", "length": "# + length + "}")
                }
                members.append(#""textStyles": ["# + styles.joined(separator: ",") + "]")
            default: members.append(#""envelope": {}"#)
            }
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    @Test func signalFlatJSONMatchesTheJSONTree() throws {
        var rng = SplitMix64(seed: 13)
        var taken = 0
        for _ in 0..<20_000 {
            let json = Self.signalJSON(&rng)
            guard let fast = SignalParser.plainMessage(Array(json.utf8)) else { continue }
            taken += 1
            let slow = try? SignalParser.message(from: JSONValue.parse(json))
            #expect(fast == slow, "\(json)")
        }
        #expect(taken > 1_000)
    }

    static let matrixMembers = [
        #""msgtype": "m.text""#, #""body": "plain ||x||""#, #""format": "org.matrix.custom.html""#,
        #""format": "other""#,
        #""formatted_body": "a <span data-mx-spoiler=\"r\">b</span> c""#, #""formatted_body": "<p>x</p>  y""#,
        #""formatted_body": "&lt;b&gt; \u00e9""#, #""body": 3"#, #""msgtype": null"#, #""content": {}"#,
    ]

    @Test func matrixFlatJSONMatchesTheJSONTree() throws {
        var rng = SplitMix64(seed: 17)
        var taken = 0
        for _ in 0..<20_000 {
            var members: [String] = []
            for _ in 0..<(Int(rng.next() % 4) + 1) {
                members.append(Self.matrixMembers[Int(rng.next() % UInt64(Self.matrixMembers.count))])
            }
            let json = "{" + members.joined(separator: ",") + "}"
            guard let fast = MatrixParser.plainMessage(Array(json.utf8)) else { continue }
            taken += 1
            let slow = try? MatrixParser.message(from: JSONValue.parse(json))
            #expect(fast == slow, "\(json)")
        }
        #expect(taken > 1_000)
    }
}
