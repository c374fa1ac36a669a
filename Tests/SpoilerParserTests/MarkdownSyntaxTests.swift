import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// The `||spoiler||` cmark-gfm extension, seen through cmark-gfm's renderers.
@Suite struct MarkdownSyntaxTests {
    func html(_ s: String) -> String { String(decoding: MarkdownRenderer.html(Array(s.utf8)), as: UTF8.self) }
    func commonMark(_ s: String) -> String {
        String(decoding: MarkdownRenderer.commonMark(Array(s.utf8)), as: UTF8.self)
    }
    func plain(_ s: String) -> String { String(decoding: MarkdownRenderer.plainText(Array(s.utf8)), as: UTF8.self) }

    struct Case: CustomTestStringConvertible, Sendable {
        var markdown: String
        var html: String
        var testDescription: String { markdown }
    }

    static let nesting: [Case] = [
        Case(markdown: "||a||", html: #"<p><span class="spoiler">a</span></p>"#),
        Case(markdown: "**a ||b|| c**", html: #"<p><strong>a <span class="spoiler">b</span> c</strong></p>"#),
        Case(markdown: "||**a** b||", html: #"<p><span class="spoiler"><strong>a</strong> b</span></p>"#),
        Case(markdown: "||[link](u)||", html: #"<p><span class="spoiler"><a href="u">link</a></span></p>"#),
        Case(markdown: "[a ||b|| c](u)", html: #"<p><a href="u">a <span class="spoiler">b</span> c</a></p>"#),
        Case(markdown: "*a ||b||*", html: #"<p><em>a <span class="spoiler">b</span></em></p>"#),
        Case(markdown: "||*a* b||", html: #"<p><span class="spoiler"><em>a</em> b</span></p>"#),
        Case(markdown: "~~a ||b|| c~~", html: #"<p><del>a <span class="spoiler">b</span> c</del></p>"#),
        Case(markdown: "||~~a~~ b||", html: #"<p><span class="spoiler"><del>a</del> b</span></p>"#),
        Case(
            markdown: "||a ||b|| c||", html: #"<p><span class="spoiler">a <span class="spoiler">b</span> c</span></p>"#),
        Case(markdown: "||a\nb||", html: "<p><span class=\"spoiler\">a\nb</span></p>"),
        Case(markdown: "x||y||z", html: #"<p>x<span class="spoiler">y</span>z</p>"#),
        Case(markdown: "# ||h||", html: #"<h1><span class="spoiler">h</span></h1>"#),
        Case(markdown: "||`c`||", html: #"<p><span class="spoiler"><code>c</code></span></p>"#),
        Case(markdown: "||![i](p.png)||", html: #"<p><span class="spoiler"><img src="p.png" alt="i" /></span></p>"#),
        Case(markdown: "**||a||**", html: #"<p><strong><span class="spoiler">a</span></strong></p>"#),
        Case(markdown: "||**a**||", html: #"<p><span class="spoiler"><strong>a</strong></span></p>"#),
    ]

    @Test(arguments: nesting)
    func nestsWithEmphasisStrikethroughAndLinks(_ c: Case) {
        #expect(html(c.markdown) == c.html + "\n")
    }

    static let literal: [Case] = [
        Case(markdown: "`||a||`", html: "<p><code>||a||</code></p>"),
        Case(markdown: "```\n||a||\n```", html: "<pre><code>||a||\n</code></pre>"),
        Case(markdown: "    ||a||", html: "<pre><code>||a||\n</code></pre>"),
        Case(markdown: "<http://a.b/||x||>", html: #"<p><a href="http://a.b/%7C%7Cx%7C%7C">http://a.b/||x||</a></p>"#),
        Case(markdown: "x <b title=\"||a||\"> y", html: "<p>x <!-- raw HTML omitted --> y</p>"),
        Case(markdown: "<div>\n||a||\n</div>", html: "<!-- raw HTML omitted -->"),
        Case(markdown: "||||", html: "<p>||||</p>"),
        Case(markdown: "|||a|||", html: "<p>|||a|||</p>"),
        Case(markdown: "|a|", html: "<p>|a|</p>"),
        Case(markdown: "a || b", html: "<p>a || b</p>"),
        Case(markdown: "|| a ||", html: "<p>|| a ||</p>"),
        Case(markdown: "||a", html: "<p>||a</p>"),
        Case(markdown: "\\|\\|a\\|\\|", html: "<p>||a||</p>"),
        Case(markdown: "||a ~~b|| c~~", html: #"<p><span class="spoiler">a ~~b</span> c~~</p>"#),
    ]

    @Test(arguments: literal)
    func staysLiteralInCodeAutolinksRawHTMLAndUnmatchedRuns(_ c: Case) {
        #expect(html(c.markdown) == c.html + "\n")
    }

    @Test func unsafeRawHTMLKeepsPipesLiteral() {
        let out = MarkdownRenderer.html(Array("<b title=\"||a||\">x</b>".utf8), options: [.unsafe])
        #expect(String(decoding: out, as: UTF8.self) == "<p><b title=\"||a||\">x</b></p>\n")
    }

    /// In a GFM table row `|` separates cells before inline parsing; a spoiler in a cell is
    /// written with escaped pipes, which the table unescapes.
    @Test func worksInTableCells() {
        let doc = "| a | b |\n|---|---|\n| x \\|\\|y\\|\\| z | **q \\|\\|w\\|\\|** |\n| 1 \\| 2 | `\\|\\|c\\|\\|` |\n"
        let out = html(doc)
        #expect(out.contains(#"<td>x <span class="spoiler">y</span> z</td>"#))
        #expect(out.contains(#"<td><strong>q <span class="spoiler">w</span></strong></td>"#))
        #expect(out.contains("<td>1 | 2</td>"))
        #expect(out.contains("<td><code>||c||</code></td>"))
        // Unescaped, the pipes split cells, exactly as cmark-gfm does.
        let split = "| a | b |\n|---|---|\n| a ||b|| | c |\n"
        #expect(html(split).contains("<td>a</td>\n<td></td>"))
        // The CommonMark form escapes the markers inside a cell, so it reads back the same.
        let cm = commonMark(doc)
        #expect(cm.contains(#"| x \|\|y\|\| z |"#))
        #expect(html(cm) == out)
    }

    @Test func rendersCommonMarkWithMarkersAndPlainTextWithout() {
        #expect(commonMark("**a ||b|| c**") == "**a ||b|| c**\n")
        #expect(commonMark("||*a* b||") == "||*a* b||\n")
        #expect(plain("**a ||b|| c**") == "a b c\n")
        #expect(plain("||x||") == "x\n")
    }

    @Test func commonMarkRoundTripsSpoilers() {
        for c in Self.nesting {
            let once = commonMark(c.markdown)
            #expect(html(once) == html(c.markdown), "\(c.markdown) -> \(once)")
        }
    }
}
