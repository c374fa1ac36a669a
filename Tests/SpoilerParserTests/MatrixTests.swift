import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

@Suite struct MatrixTests {
    func parse(_ json: String) throws -> Message { try MessageParser.parse(json, from: .matrix) }

    func html(_ formatted: String) -> Message { MatrixParser.message(fromHTML: formatted) }

    @Test func readsTheSpecExampleWithAReason() throws {
        // spec.matrix.org, client-server API, "Spoiler messages".
        let m = try parse(
            #"{"msgtype":"m.text","format":"org.matrix.custom.html","body":"Alice [Spoiler for health of Alice](mxc://example.org/abc123) in the movie.","formatted_body":"Alice <span data-mx-spoiler='health of Alice'>lived happily ever after</span> in the movie."}"#
        )
        #expect(m.text == "Alice lived happily ever after in the movie.")
        #expect(m.entities == [Entity(.spoiler, offset: 6, length: 24, reason: "health of Alice")])
    }

    @Test func aSpoilerWithoutReasonHasNone() {
        #expect(html("a <span data-mx-spoiler>b</span>").entities == [Entity(.spoiler, offset: 2, length: 1)])
        #expect(html("a <span data-mx-spoiler=\"\">b</span>").entities == [Entity(.spoiler, offset: 2, length: 1)])
    }

    @Test func readsBodyWhenThereIsNoHTML() throws {
        #expect(try parse(#"{"msgtype":"m.text","body":"a <b>b</b>"}"#) == Message(text: "a <b>b</b>"))
        #expect(try parse(#"{"body":"x","format":"other","formatted_body":"<b>y</b>"}"#) == Message(text: "x"))
    }

    @Test func unwrapsAnEvent() throws {
        let m = try parse(#"{"type":"m.room.message","content":{"msgtype":"m.text","body":"hi"}}"#)
        #expect(m.text == "hi")
    }

    @Test(arguments: [
        (#"[1]"#, "expected a Matrix content object"),
        (#"{"msgtype":"m.text"}"#, "'body' is required"),
        (#"{"body":3}"#, "'body' must be a string"),
        (#"{"body":"a","format":1}"#, "'format' must be a string"),
        (#"{"body":"a","format":"org.matrix.custom.html","formatted_body":[]}"#, "'formatted_body' must be a string"),
        (#"{"body":"a","msgtype":7}"#, "'msgtype' must be a string"),
    ])
    func malformedContentIsAnError(json: String, reason: String) {
        #expect {
            try parse(json)
        } throws: { error in
            (error as? ParseError).map { $0.kind == .invalidJSON && $0.reason.contains(reason) } ?? false
        }
    }

    @Test func aJSONSyntaxErrorHasItsLineAndColumn() {
        #expect {
            try parse("{\"body\":\n  \"a\" \"b\"}")
        } throws: { error in
            guard let e = error as? ParseError else { return false }
            return e.position?.line == 2 && e.position?.column == 7
        }
    }

    @Test func writesTheFourFields() {
        let m = Message(text: "a b", entities: [Entity(.bold, offset: 2, length: 1)])
        #expect(
            MessageSerializer.serialize(m, to: .matrix)
                == #"{"msgtype":"m.text","body":"a b","format":"org.matrix.custom.html","formatted_body":"a <strong>b</strong>"}"#
        )
    }

    @Test func bodyNeverHoldsASpoilersText() throws {
        let m = Message(
            text: "see secret link and twist",
            entities: [
                Entity(.spoiler, offset: 4, length: 11),
                Entity(.textLink, offset: 11, length: 4, url: "https://leak.example/x"),
                Entity(.spoiler, offset: 20, length: 5, reason: "ending"),
            ])
        let content = try JSONValue.parse(MessageSerializer.serialize(m, to: .matrix))
        let body = try #require(content["body"]?.stringValue)
        #expect(body == "see [Spoiler] and [Spoiler for ending]")
        #expect(!body.contains("secret") && !body.contains("leak") && !body.contains("twist"))
        let html = try #require(content["formatted_body"]?.stringValue)
        // The spoiler goes around the link, never into its href (mautrix/telegram#971).
        #expect(
            html
                == #"see <span data-mx-spoiler>secret <a href="https://leak.example/x">link</a></span> and <span data-mx-spoiler="ending">twist</span>"#
        )
    }

    @Test func blocksTakeTheirLinesBreaks() {
        let m = Message(
            text: "x\nquote\ny\ncode\nz",
            entities: [Entity(.blockquote, offset: 2, length: 5), Entity(.pre, offset: 10, length: 4, language: "sh")])
        let out = MessageSerializer.serialize(m, to: .matrix)
        #expect(
            out.contains(
                #""formatted_body":"x<blockquote>quote</blockquote>y<br><pre><code class=\"language-sh\">code</code></pre>z""#
            ))
        #expect(html(MatrixSerializer_html(m)) == m)
    }

    func MatrixSerializer_html(_ m: Message) -> String {
        (try? JSONValue.parse(MessageSerializer.serialize(m, to: .matrix)))?["formatted_body"]?.stringValue ?? ""
    }

    @Test func readsWhitespaceAndBlocksAsMautrixDoes() {
        #expect(html("  a \n\t b  ").text == "a b")
        #expect(html("a <b>b </b>c").text == "a bc")
        #expect(html("<p>one</p><p>two</p>").text == "one\n\ntwo")
        // Inside code whitespace is kept, but the message as a whole is trimmed.
        #expect(html("<pre><code>  keep\n  this </code></pre>").text == "keep\n  this")
        #expect(html("<mx-reply><blockquote>old</blockquote></mx-reply>new").text == "new")
        #expect(html("<ul><li>a</li><li>b</li></ul>").text == "● a\n● b")
        #expect(html("<h2>Title</h2>").entities == [Entity(.bold, offset: 0, length: 5)])
        #expect(html("a &lt;b&gt; &amp; &#128512; &#x41;").text == "a <b> & 😀 A")
        #expect(html("<b>unclosed <i>deep").text == "unclosed deep")
    }

    @Test func deepNestingIsReadAsText() {
        let deep = String(repeating: "<b>", count: 10_000) + "x"
        #expect(html(deep).text == "x")
    }

    @Test func telegramToMatrixToTelegramKeepsEverythingMatrixCanSay() {
        forAll(randomMatrixMessage, count: 300) { m in
            // Formatting on a space at the edge of a formatted run cannot be said (mautrix
            // trims it away): styles are compared on the other characters.
            let back = html(MatrixSerializer_html(m))
            let spaces = m.text.unicodeScalars.map { $0 == " " || $0 == "\n" }
            func visible(_ s: [[String]]) -> [[String]] { zip(s, spaces).map { $1 ? [] : $0 } }
            return back.text == m.text && visible(styleSets(back)) == visible(styleSets(m))
        }
    }
}
