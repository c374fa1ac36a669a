import Foundation
import SpoilerCore
import Testing

@testable import SpoilerParser

/// The fast readers of chat messages with markup (Reddit paragraphs, quotes and code blocks
/// without cmark-gfm; Matrix HTML with links and blocks without the element tree) against
/// the full readers: on generated markup, and on what SpoilerKit's writers write, where
/// the fast reader must also answer most of the time.
@Suite struct PlatformMarkupFastPathTests {
    static let redditPieces: [String] = [
        "**", "*", "~~", "~", "***", ">!", "!<", "`", "[", "](<https://e.x/a>)", "](https://e.x)", "]", "\\*", "\\_",
        "\\[", "\\>", "\\|", "\\:", "\\", "a", "b c", "word", " ", "  ", "\n", "\n\n", "\n> ", "> ", "\n```swift\n",
        "\n```\n", "```", "é", "😀", "«", "…", ".", ",", "!", "?", "(", ")", "-", "1.", "#", "_", "|", "<", "&", "x",
        "\u{A0}", "\t", "'", "\"",
    ]

    func slowReddit(_ bytes: [UInt8]) -> Message? {
        try? MarkdownParser.parse(RedditParser.markdown(from: bytes))
    }

    @Test func redditMarkupMatchesCmark() {
        var rng = SplitMix64(seed: 21)
        var failures = 0
        var taken = 0
        for n in 0..<80_000 {
            var s = ""
            for _ in 0..<(Int(rng.next() % 16) + 1) {
                s += Self.redditPieces[Int(rng.next() % UInt64(Self.redditPieces.count))]
            }
            let bytes = Array(s.utf8)
            guard let fast = RedditParser.markupMessage(bytes) else { continue }
            taken += 1
            let slow = slowReddit(bytes)
            if fast != slow {
                failures += 1
                if failures < 15 {
                    Issue.record("\(n) \(s.debugDescription)\nfast \(fast)\nslow \(String(describing: slow))")
                }
            }
        }
        #expect(taken > 2_000)
        #expect(failures == 0)
    }

    /// Words and markup put together the way people write them.
    static func redditText(_ rng: inout SplitMix64) -> String {
        let words = ["a", "bc", "Привет", "漢字", "😀", "👩‍👩‍👧", "e\u{301}", "it's", "42", "ok…", "(yes)", "«q»", "x.", "y,"]
        func pick(_ xs: [String]) -> String { xs[Int(rng.next() % UInt64(xs.count))] }
        func run() -> String {
            let w = pick(words)
            switch rng.next() % 10 {
            case 0: return "**" + w + "**"
            case 1: return "*" + w + "*"
            case 2: return "~~" + w + "~~"
            case 3: return ">!" + w + "!<"
            case 4: return "`" + w + "`"
            case 5: return "[" + w + "](<https://e.x/" + String(rng.next() % 9) + ">)"
            case 6: return "**a >!" + w + "!<**"
            case 7: return ">!*" + w + "* b!<"
            // A closing `**` after `!<` and before punctuation could also open.
            case 8: return "**" + w + " >!" + pick(words) + "!<**" + pick(["!", ".", "?", ""])
            default: return w
            }
        }
        var lines: [String] = []
        for _ in 0..<(Int(rng.next() % 4) + 1) {
            var line = (0..<(Int(rng.next() % 5) + 1)).map { _ in run() }.joined(separator: " ")
            switch rng.next() % 8 {
            case 0: line = "> " + line + "\n"
            case 1: line = "```" + pick(["", "swift", "py"]) + "\n" + pick(words) + " = 1\n" + pick(words) + "\n```"
            case 2: line += "\n"
            default: break
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    @Test func redditChatMarkupMatchesCmark() {
        var rng = SplitMix64(seed: 22)
        var failures = 0
        var taken = 0
        let count = 20_000
        for n in 0..<count {
            let s = Self.redditText(&rng)
            let bytes = Array(s.utf8)
            guard let fast = RedditParser.markupMessage(bytes) else { continue }
            taken += 1
            let slow = slowReddit(bytes)
            if fast != slow {
                failures += 1
                if failures < 15 {
                    Issue.record("\(n) \(s.debugDescription)\nfast \(fast)\nslow \(String(describing: slow))")
                }
            }
        }
        #expect(taken > count / 2)
        #expect(failures == 0)
    }

    @Test func writtenRedditMessagesTakeTheFastPath() {
        var rng = SplitMix64(seed: 23)
        var failures = 0
        var taken = 0
        let count = 3_000
        for n in 0..<count {
            let bytes = Array(MessageSerializer.serialize(randomMatrixMessage(&rng), to: .reddit).utf8)
            guard let fast = RedditParser.plainTextMessage(bytes) ?? RedditParser.markupMessage(bytes) else { continue }
            taken += 1
            if fast != slowReddit(bytes) {
                failures += 1
                if failures < 15 { Issue.record("\(n) \(String(decoding: bytes, as: UTF8.self).debugDescription)") }
            }
        }
        #expect(taken > count / 3)
        #expect(failures == 0)
    }

    static let matrixPieces: [String] = [
        "<blockquote>", "</blockquote>", "<pre><code>", "<pre><code class=\"language-swift\">", "</code></pre>",
        "<pre>", "<a href=\"https://e.x/?a=1&amp;b=2\">", "<a href=\"\">", "</a>", "<span data-mx-spoiler=\"a b\">",
        "</span>", "<b>", "</b>", "<em>", "</em>", "<code>", "</code>", "<br>", "&lt;", "&gt;", "&amp;", "&quot;",
        "&nbsp;", "&", "a", "b c", " ", "\n", "\t", "é", "😀", "\u{A0}", "x",
    ]

    @Test func matrixBlocksMatchTheTreeReader() {
        var rng = SplitMix64(seed: 24)
        var failures = 0
        var taken = 0
        for n in 0..<80_000 {
            var s = ""
            for _ in 0..<(Int(rng.next() % 14) + 1) {
                s += Self.matrixPieces[Int(rng.next() % UInt64(Self.matrixPieces.count))]
            }
            guard let fast = MatrixHTMLReader.inlineMessage(Array(s.utf8)) else { continue }
            taken += 1
            let slow = MatrixHTMLReader.treeMessage(fromHTML: s)
            if fast != slow {
                failures += 1
                if failures < 15 { Issue.record("\(n) \(s.debugDescription)\nfast \(fast)\nslow \(slow)") }
            }
        }
        #expect(taken > 1_000)
        #expect(failures == 0)
    }

    @Test func writtenMatrixMessagesTakeTheFastPath() throws {
        var rng = SplitMix64(seed: 25)
        var failures = 0
        var taken = 0
        let count = 3_000
        for n in 0..<count {
            let content = try JSONValue.parse(MessageSerializer.serialize(randomMatrixMessage(&rng), to: .matrix))
            let html = content["formatted_body"]?.stringValue ?? ""
            guard let fast = MatrixHTMLReader.inlineMessage(Array(html.utf8)) else { continue }
            taken += 1
            if fast != MatrixHTMLReader.treeMessage(fromHTML: html) {
                failures += 1
                if failures < 15 { Issue.record("\(n) \(html.debugDescription)") }
            }
        }
        #expect(taken > count / 2)
        #expect(failures == 0)
    }
}
