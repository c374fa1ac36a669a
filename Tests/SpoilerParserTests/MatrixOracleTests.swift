import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// Matrix HTML read by mautrix-python's `MatrixParser` (scripts/mautrix-oracle, PyPI
/// `mautrix`, installed by .ci/run) and by ``MatrixParser``: the same text and, character by
/// character, the same formatting.
@Suite struct MatrixOracleTests {
    /// What mautrix reads in each of `htmls`: text and per-code-point style names.
    func mautrix(_ htmls: [String]) throws -> [(text: String, styles: [[String]])] {
        var input = ""
        for h in htmls { input += JSONValue.string(h).jsonString + "\n" }
        let script = packageRoot.appendingPathComponent("scripts/mautrix-oracle")
        let result = try runProgram(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path], stdin: Data(input.utf8))
        try #require(
            result.status == 0,
            "scripts/mautrix-oracle failed (is mautrix installed? pip install mautrix): \(result.err)")
        return try result.out.split(separator: "\n").map { line in
            let v = try JSONValue.parse(String(line))
            let styles = (v["styles"]?.arrayValue ?? []).map { ($0.arrayValue ?? []).compactMap(\.stringValue) }
            return (v["text"]?.stringValue ?? "", styles)
        }
    }

    func formattedBody(_ m: Message) -> String {
        (try? JSONValue.parse(MessageSerializer.serialize(m, to: .matrix)))?["formatted_body"]?.stringValue ?? ""
    }

    @Test func generatedMessagesReadTheSameInMautrix() throws {
        var rng = SplitMix64(seed: 13)
        let messages = (0..<400).map { _ in randomMatrixMessage(&rng) }
        let htmls = messages.map(formattedBody)
        let theirs = try mautrix(htmls)
        try #require(theirs.count == htmls.count)
        var failures = 0
        for (k, html) in htmls.enumerated() {
            let ours = MatrixParser.message(fromHTML: html)
            if ours.text != theirs[k].text || styleSets(ours) != theirs[k].styles {
                failures += 1
                if failures <= 3 {
                    Issue.record(
                        "\(html)\nmautrix: \(theirs[k].text) \(theirs[k].styles)\nours:    \(ours.text) \(styleSets(ours))"
                    )
                }
            }
            // And the message itself comes back.
            #expect(ours.text == messages[k].text)
        }
        #expect(failures == 0)
    }

    /// Random tag soup: the same text and styles as mautrix, however html.parser reads it.
    @Test func tagSoupReadsTheSameInMautrix() throws {
        let pieces = [
            "<", ">", "=", "==", "\"", "'", " ", "/", "a", "b", "span", "data-mx-spoiler", "x", "</", "<span ", "<b>",
            "</b>", "</span>", "\t", "=\"r\"", "<b ", "  ", "&", "&amp;", "<!--", "-->", "!", "?", "\n",
        ]
        var rng = SplitMix64(seed: 31)
        let htmls = (0..<1_500).map { _ in
            (0...Int(rng.next() % 14)).map { _ in pieces[Int(rng.next() % UInt64(pieces.count))] }.joined()
        }
        let theirs = try mautrix(htmls)
        try #require(theirs.count == htmls.count)
        var failures = 0
        for (k, html) in htmls.enumerated() {
            let ours = MatrixParser.message(fromHTML: html)
            if ours.text != theirs[k].text || styleSets(ours) != theirs[k].styles {
                failures += 1
                if failures <= 5 {
                    Issue.record(
                        "\(html.debugDescription)\nmautrix: \(theirs[k].text.debugDescription) \(theirs[k].styles)\nours:    \(ours.text.debugDescription) \(styleSets(ours))"
                    )
                }
            }
        }
        #expect(failures == 0)
    }

    @Test func handWrittenHTMLReadsTheSameInMautrix() throws {
        let htmls = [
            "<b>bold</b> and <em>it <u>under</u></em> <del>gone</del>",
            "a <b>b </b>c",
            "  lots   of \n\t space  ",
            "<p>one</p><p>two</p>three",
            "<blockquote>q1</blockquote><blockquote>q2</blockquote>",
            "x<br><blockquote>q</blockquote>y",
            "<span data-mx-spoiler>s</span> <span data-mx-spoiler=\"why\">t <a href=\"https://e.x\">l</a></span>",
            "<pre><code class=\"language-py\">def f():\n    return 1</code></pre>",
            "<code>  a  b </code>",
            "<ol start=\"9\"><li>nine</li><li>ten</li></ol>",
            "<ul><li>a</li><li>b<ul><li>c</li></ul></li></ul>",
            "<h1>Head</h1>text<hr>after",
            "<mx-reply><blockquote>old</blockquote></mx-reply>new",
            "&lt;tag&gt; &amp; &quot;q&quot; &#x1F600; &#233;",
            "<b>unclosed <i>nest",
            "<font color=\"red\">red</font> <span data-mx-color=\"#fff\">c</span>",
            "<img alt=\"pic\" src=\"mxc://x/y\"> <div>div</div>",
            // Quotes in a tag's name open no value (Fixtures/fuzz/matrix/quote-in-tag-name.json).
            "a<s=\">\">b <b x=\"1\" >y\">c</b>",
            // Attribute names that start with `=`, and runs of `=` (html.parser's attrfind).
            "a <span =x data-mx-spoiler>b</span> c",
            "a <span x==y data-mx-spoiler>b</span>",
            "a <span data-mx-spoiler ==y>b</span> <span data-mx-spoiler= =\"r\">c</span>",
            "<b =\"q>b\">c</b> <i x=\"1\"=y>d</i> <u ==>e</u>",
            // What html.parser drops, keeps as text or waits for.
            "a </1 b> c</> <b\u{0}>d</b>",
            "x <b x=\"unclosed>y</b> z",
            "x</body>y <script>a<b>c</script>d <style>s</STYLE >",
            "<!-- c --> <!x> <?p> <!doctype html> <![CDATA[x]]>z",
            // Character references as html.unescape reads them.
            "&ampx &lt &#128; &#0; &#xD800; &#1; &eacute; &notin; &notit; &#x110000;",
        ]
        let theirs = try mautrix(htmls)
        for (k, html) in htmls.enumerated() {
            let ours = MatrixParser.message(fromHTML: html)
            #expect(ours.text == theirs[k].text, "\(html)")
            #expect(styleSets(ours) == theirs[k].styles, "\(html)")
        }
    }
}
