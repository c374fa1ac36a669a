import Foundation
import SpoilerCore
import SpoilerTestSupport

/// The Markdown compatibility corpus.
///
/// Documents without `||` that must render exactly as plain cmark-gfm renders them. Generated deterministically (a fixed SplitMix64 seed) from
/// fragments that cover every block and inline kind, and committed under
/// `Fixtures/markdown/corpus/`; `MarkdownCorpusTests.committedCorpusIsTheGeneratedOne`
/// keeps the two in step (record with SPOILER_RECORD_FIXTURES=1).
enum MarkdownCorpus {
    static let blocks: [String] = [
        "# Heading one", "## Heading *two*", "### Three `code` ###", "###### Six", "####### seven is text",
        "Setext one\n===", "Setext two\n---", "---", "***", "___", "- - -",
        "> quote", "> quote\nlazy continuation", "> > nested quote", ">>> triple", "> # heading in quote\n> text",
        "- a\n- b\n- c", "* star\n* list\n\n* loose", "+ plus\n+ list", "1. one\n2. two\n3. three",
        "3) three\n4) four", "7. start at seven", "- [ ] task\n- [x] done\n- [X] Done too", "1. [ ] ordered task",
        "- a\n  - b\n    - c\n      - d", "1. x\n   > quote in list", "> - list in quote\n> - two",
        "- ```\n  code in list\n  ```", "- a\n\n  second paragraph\n- b",
        "    indented code\n    more", "```\nfenced\n```", "```python\nprint('a|b')\n```",
        "~~~ ruby extra info\nputs 1\n~~~", "````\n```\ninner fence\n```\n````", "```\nunclosed fence",
        "<div>\nhtml *block*\n</div>", "<!-- comment -->", "<script>\nvar x = '|';\n</script>",
        "<textarea>\nfiltered\n</textarea>", "<style>p{}</style>", "<pre>\npre block\n</pre>",
        "| a | b |\n|---|:-:|\n| c | d |", "a | b\n--|--\nc | d", "| x \\| y | z |\n|---|---|\n| `a\\|b` | **q** |",
        "| single |\n|---|", "| l | c | r |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n| 4 | 5 |",
        "| *em* | ~~del~~ | [l](u) |\n| --- | --- | --- |\n| <http://x.y> | www.z.com | `c` |",
        "|a|b|\n|-|-|\n|c|d|\ntail row", "| a |\n| - |\n| b \\| c \\| d |",
        "[ref]: http://ref.example \"Ref title\"\n\n[ref] and [text][ref]",
        "[^1]: not a footnote here", "line one\nline two\nline three", "trailing spaces  \nhard break",
        "backslash\\\nbreak", "a\r\nb\r\n\r\nc", "\ttab indented", "  two spaces", "",
        "   \n\n  ", "paragraph\n\n\n\nafter blank lines",
        String(repeating: ">", count: 40) + " deep", String(repeating: "- ", count: 30) + "deep list",
    ]

    static let inlines: [String] = [
        "plain words", "*em*", "_em_", "**strong**", "__strong__", "***both***", "~~del~~", "~single~",
        "~~~triple~~~", "`code`", "`` a`b ``", "` spaced `", "[link](http://x.com \"title\")", "[empty]()",
        "[ref][nowhere]", "![img](i.png \"t\")", "![alt *em*](a.png)", "<http://auto.link/path>", "<a@b.co>",
        "www.example.com", "https://example.org/path?q=1&r=2", "foo@bar.baz", "http://x.com/a|b",
        "<span class=\"x\">raw</span>", "<script>alert(1)</script>", "<!-- c -->", "<del>x</del>",
        "&amp; &copy; &#123; &#x1F600; &nbsp; &bogus;", "\\* \\_ \\| \\\\ \\` \\[", "a|b", "a | b", "|x|",
        "x|||y", "a|_b_|c", "a|*b*|c", "_a|b_", "*a|*", "soft\nbreak", "émoji 😀 👩‍👩‍👧 日本語 Привет",
        "a_b_c", "a*b*c", "*a **b** c*", "**a *b* c**", "~~a ~~b~~ c~~", "**unclosed", "`unclosed",
        "[unclosed](", "![", "1) not a list", "javascript:alert(1)", "[x](javascript:alert(1))",
        "<title>t</title>", "<xmp>x</xmp>", "<iframe src=x>", "a\u{0}b", "line  \nbreak",
        "*(*punct*)*", "_(_x_)_", "~~(a)~~b", "[a *b](c)* d", "`a|b`", "\\|x\\|", "| pipe start",
        "end pipe |", "www.a.b|c", "x <http://a.b/|> y",
    ]

    /// Replaces every `||` (and an escaped `\|\|`, which a table cell unescapes to `||`)
    /// so that the document stays outside the spoiler syntax.
    static func withoutSpoilers(_ s: String) -> String {
        var t = s
        while t.contains("||") { t = t.replacingOccurrences(of: "||", with: "| |") }
        while t.contains("\\|\\|") { t = t.replacingOccurrences(of: "\\|\\|", with: "\\| \\|") }
        return t
    }

    static func pick<T>(_ xs: [T], _ rng: inout SplitMix64) -> T { xs[Int(rng.next() % UInt64(xs.count))] }

    static func paragraph(_ rng: inout SplitMix64) -> String {
        let n = Int(rng.next() % 6) + 1
        var parts: [String] = []
        for _ in 0..<n { parts.append(pick(inlines, &rng)) }
        return parts.joined(separator: rng.next() % 4 == 0 ? "" : " ")
    }

    static func block(_ rng: inout SplitMix64, depth: Int) -> String {
        switch rng.next() % 8 {
        case 0, 1, 2: return paragraph(&rng)
        case 3 where depth < 3:
            return block(&rng, depth: depth + 1).split(separator: "\n", omittingEmptySubsequences: false)
                .map { "> " + $0 }.joined(separator: "\n")
        case 4 where depth < 3:
            let marker = pick(["- ", "* ", "1. ", "2) ", "- [ ] "], &rng)
            let inner = block(&rng, depth: depth + 1)
            let pad = String(repeating: " ", count: marker.count)
            return marker
                + inner.split(separator: "\n", omittingEmptySubsequences: false)
                .joined(separator: "\n" + pad)
        case 5:
            let cells = (0..<Int(rng.next() % 3 + 1)).map { _ in
                pick(inlines, &rng).replacingOccurrences(of: "\n", with: " ")
            }
            let escaped = cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }
            return "| " + cells.indices.map { "h\($0)" }.joined(separator: " | ") + " |\n|"
                + cells.map { _ in pick(["---", ":--", ":-:", "--:"], &rng) }.joined(separator: "|") + "|\n| "
                + escaped.joined(separator: " | ") + " |"
        default: return pick(blocks, &rng)
        }
    }

    /// The documents, in order: each block fragment alone, each inline fragment alone, then
    /// random compositions up to `count`.
    static func documents(count: Int = 320) -> [[UInt8]] {
        var docs: [[UInt8]] = blocks.map { Array(withoutSpoilers($0 + "\n").utf8) }
        docs += inlines.map { Array(withoutSpoilers($0 + "\n").utf8) }
        var rng = SplitMix64(seed: 20_260_301)
        while docs.count < count {
            let n = Int(rng.next() % 5) + 1
            var parts: [String] = []
            for _ in 0..<n { parts.append(block(&rng, depth: 0)) }
            let separator = pick(["\n\n", "\n", "\n\n\n"], &rng)
            var bytes = Array(withoutSpoilers(parts.joined(separator: separator) + "\n").utf8)
            // A few documents carry invalid UTF-8 and NUL bytes.
            if rng.next() % 16 == 0 {
                bytes.insert(contentsOf: [0xFF, 0xC3, 0x28, 0x00, 0xE2, 0x82], at: bytes.count / 2)
            }
            docs.append(bytes)
        }
        return docs
    }

    static var folder: URL { fixturesRoot.appendingPathComponent("markdown/corpus") }

    static func fileName(_ index: Int) -> String { String(format: "%03d.md", index) }
}
