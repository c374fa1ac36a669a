import SpoilerCore
import SpoilerParser
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The scanner skips through a line's text and a JSON string many bytes at a time; it must
/// find the chunk starts a byte-by-byte scan finds on any document, however it is fed.
@Suite struct ChunkBoundaryScannerTests {
    static func scan(
        _ bytes: [UInt8], rule: ChunkBoundaryScanner.Rule, block: Int, min: Int, max: Int, skipsAhead: Bool = true
    ) -> (starts: [Int], contentEnd: Int?) {
        let (starts, _, contentEnd) = scanWithPlaces(
            bytes, rule: rule, block: block, min: min, max: max, skipsAhead: skipsAhead)
        return (starts, contentEnd)
    }

    /// ``scan(_:rule:block:min:max:skipsAhead:)`` with what was open at each start (plain
    /// text), and the markup at the end.
    static func scanWithPlaces(
        _ bytes: [UInt8], rule: ChunkBoundaryScanner.Rule, block: Int, min: Int, max: Int, skipsAhead: Bool = true
    ) -> (starts: [Int], places: [OpenAtCut?], contentEnd: Int?) {
        var scanner = ChunkBoundaryScanner(rule: rule, minimumBytes: min, maximumBytes: max)
        scanner.skipsAhead = skipsAhead
        var starts: [Int] = []
        var places: [OpenAtCut?] = []
        var i = 0
        while i < bytes.count {
            let end = Swift.min(bytes.count, i + block)
            bytes[i..<end].withUnsafeBufferPointer {
                scanner.scanCuts($0) { start, open in
                    starts.append(start)
                    places.append(open)
                }
            }
            i = end
        }
        return (starts, places, scanner.contentEnd)
    }

    static let textPieces = [
        "word", " ", "  ", "\n", "\n\n", "```", "~~~~", "    ", "\t", "é", "漢字", "🎬", "\r\n", "a b c d e f g h",
        String(repeating: "long", count: 20), "``` x\n", "\n```\n", "\n```swift ok\n", "\n  ~~~~ info `x`\n",
        "\n``` a`b\n", "\n```   \n", "\n``` no close\n",
    ]
    /// Plain text's markup besides: pipes, backticks, backslashes.
    static let markupPieces = ["||", "|", "`", "\\", "\\|", "a || b", "x`y"]
    /// MarkdownV2's and HTML's.
    static let markdownV2Pieces = ["*", "_", "__", "~", "||", "`", "```", "[", "](", ")", "\\", "\\*"]
    static let htmlPieces = [
        "<b>", "</b>", "<", ">", "/", "<a href=\"x/y\">", "</a>", "<a>", "<I>", "</i>", "<tg-spoiler>",
        "</tg-spoiler>", "<span>", "<x>", "</x>", "</>", "<b >", "&amp;", "&", "<b\n>",
    ]
    /// Pieces of a JSON string's content: braces and brackets that must not count, escapes.
    static let stringPieces = [
        "{", "}", "[", "]", #"\""#, #"\\"#, #"\\\""#, "messages", " ", "text and more text", "é", "漢字", ",", ":",
    ]

    /// Members of an export's message between its strings: numbers, literals, blanks,
    /// nested arrays and objects.
    static let valuePieces = [
        #", "n": 1234567890123"#, #","b":true,"z":null"#, ",\n    \"f\": false", #", "arr": [ [ ], { "k": [ {} ] } ]"#,
        #", "d": -1.5e10 "#, ",\t\"t\"\r\n:\n[\n1\n,\n2\n]",
    ]

    /// A document of `rule`'s kind: text pieces (with line breaks rare when `longLines`),
    /// or an export whose messages' strings hold braces and escapes.
    static func document(_ rng: inout SplitMix64, rule: ChunkBoundaryScanner.Rule) -> String {
        if rule == .exportMessages {
            var text = #"{"name":"x","messages":["#
            for m in 0..<Int(rng.next() % 40) {
                if m > 0 { text += ",\n " }
                text += #"{"id":\#(m),"text":""#
                for _ in 0..<Int(rng.next() % 30) { text += stringPieces[Int(rng.next() % UInt64(stringPieces.count))] }
                text += #"","entities":[{"a":[1,{}]}]"#
                // Values between strings, which a scan inside the messages passes over.
                for _ in 0..<Int(rng.next() % 4) { text += valuePieces[Int(rng.next() % UInt64(valuePieces.count))] }
                text += "}"
            }
            return text + (rng.next() % 2 == 0 ? "]}\n" : #"], "after": {"list": [{"id": 1, "m": [{}]}]}}"# + "\n")
        }
        let longLines = rng.next() % 2 == 0
        let pieces =
            switch rule {
            case .plainText: textPieces + markupPieces
            case .markdownV2Text: textPieces + markdownV2Pieces
            case .htmlText: textPieces + htmlPieces
            default: textPieces
            }
        var text = ""
        for _ in 0..<Int(rng.next() % 400) {
            let piece = pieces[Int(rng.next() % UInt64(pieces.count))]
            if longLines && piece.contains("\n") { continue }
            text += piece
        }
        return text
    }

    @Test(arguments: [
        ChunkBoundaryScanner.Rule.paragraphs, .markdownBlocks, .plainText, .markdownV2Text, .htmlText, .exportMessages,
    ])
    func skippingAheadFindsWhatAByteAtATimeFinds(rule: ChunkBoundaryScanner.Rule) {
        forAll(
            { rng -> ([UInt8], Int, Int, Int) in
                let text = ChunkBoundaryScannerTests.document(&rng, rule: rule)
                let min = Int(rng.next() % 64) + 1
                let max = min + Int(rng.next() % 200)
                return (Array(text.utf8), min, max, Int(rng.next() % 300) + 2)
            }, count: 600
        ) { bytes, min, max, block in
            let single = ChunkBoundaryScannerTests.scanWithPlaces(
                bytes, rule: rule, block: 1, min: min, max: max, skipsAhead: false)
            let blocks = ChunkBoundaryScannerTests.scanWithPlaces(bytes, rule: rule, block: block, min: min, max: max)
            let whole = ChunkBoundaryScannerTests.scanWithPlaces(
                bytes, rule: rule, block: bytes.count + 1, min: min, max: max)
            return single.starts == blocks.starts && single.starts == whole.starts && single.places == blocks.places
                && single.places == whole.places && single.contentEnd == blocks.contentEnd
        }
    }

    /// The first line the Markdown scan may read other than Markdown does
    /// (``ChunkBoundaryScanner/firstDoubt``, the offset of its line break): a fence after a
    /// list item's or a quotation's marker, one indented by four, one after a line that
    /// starts with `<`, a line of indented fenced code indented less than its opening line;
    /// not a fence at the top of the document or indented as a list item's, nor a line inside
    /// fenced code, nor markers with no fence after them. The same fed a byte at a time or
    /// whole.
    @Test func theFirstLineTheMarkdownScanMayReadOtherwiseIsNoted() {
        // Each text, and the line (from 0) the scan is first in doubt at.
        let cases: [(String, Int?)] = [
            ("a\n\n```sh\n- ```\n  ```\n```\n\nb\n", nil),
            ("- item\n1. item\n> quote\n---\n\ntext\n", nil),
            ("a\n\n- ```sh\n  code\n  ```\n", 2),
            ("a\n\n1) ~~~\ncode\n", 2),
            ("> ```\n> code\n", 0),
            ("a\n\n- item\n\n  ```\n  code\n\n  more\n  ```\n", nil),
            ("- item\n\n  ```\n  code\nunindented\n", 4),
            ("- item\n\n  ```\n  code\n```\n", 4),
            ("a\n\n      ```\n", 2),
            ("```\n<div>\n```\n\n```\n", nil),
            ("<div>\n\ntext\n\n```\ncode\n```\n", 4),
            ("- ``code`` and ```\n", nil),
            ("-```\n1.```\n2026-12-04 ```\n", nil),
            ("a\n\n> - 10. ```\n", 2),
        ]
        for (text, line) in cases {
            let bytes = Array(text.utf8)
            let breaks = bytes.indices.filter { bytes[$0] == 0x0A }
            let expected = line.map { breaks[$0] }
            for block in [1, bytes.count] {
                var scanner = ChunkBoundaryScanner(rule: .markdownBlocks, minimumBytes: 4, maximumBytes: 1 << 16)
                var i = 0
                while i < bytes.count {
                    let end = Swift.min(bytes.count, i + block)
                    bytes[i..<end].withUnsafeBufferPointer { scanner.scanCuts($0) { _, _ in } }
                    i = end
                }
                #expect(scanner.firstDoubt == expected, "\(text.debugDescription), blocks of \(block)")
            }
        }
    }
}
