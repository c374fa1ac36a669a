import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler` with `--from`/`--to` `markdownv2` and `html`, end to end.
@Suite("MarkdownV2 and HTML on the command line")
struct MarkdownV2CommandLineTests {
    @Test("parse --from markdownv2 and --from html give the same message")
    func parse() throws {
        let expected =
            #"{"text":"hi there","entities":[{"type":"bold","offset":0,"length":2},{"type":"spoiler","offset":3,"length":5}]}"#
            + "\n"
        let md = try runSpoiler(["parse", "--from", "markdownv2"], input: "*hi* ||there||")
        #expect(md.status == 0)
        #expect(md.out == expected)
        let html = try runSpoiler(["parse", "--from", "html"], input: "<b>hi</b> <tg-spoiler>there</tg-spoiler>")
        #expect(html.status == 0)
        #expect(html.out == expected)
    }

    @Test("A rejected message names the line, column and byte offset")
    func error() throws {
        let r = try runSpoiler(["parse", "--from", "markdownv2"], input: "ok\na ||b")
        #expect(r.status == 1)
        #expect(r.out.isEmpty)
        #expect(r.err == "error: <stdin>:2:3: Can't find end of Spoiler entity at byte offset 5\n")
    }

    @Test("convert between MarkdownV2 and HTML, and back")
    func convert() throws {
        let toHTML = try runSpoiler(
            ["convert", "--from", "markdownv2", "--to", "html"], input: "*1\\+1* ~a < b~ [t](http://t.me/)")
        #expect(toHTML.out == "<b>1+1</b> <s>a &lt; b</s> <a href=\"http://t.me/\">t</a>\n")
        let back = try runSpoiler(
            ["convert", "--from", "html", "--to", "markdownv2"], input: String(toHTML.out.dropLast()))
        #expect(back.out == "*1\\+1* ~a < b~ [t](http://t.me/)\n")
    }

    @Test("--ndjson: each line converted, errors in place, exit status 1")
    func ndjson() throws {
        let input = "\"*a*\"\n\"<b>x\"\n{\"id\":\"q\",\"text\":\"_i_ \\\\.\"}\n"
        let r = try runSpoiler(["convert", "--from", "markdownv2", "--to", "html", "--ndjson"], input: input)
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"id":1,"html":"<b>a</b>"}"#)
        #expect(
            lines[1]
                == #"{"id":null,"line":2,"error":"Character '>' is reserved and must be escaped with the preceding '\\'","kind":"syntax","offset":2}"#
        )
        #expect(lines[2] == #"{"id":"q","html":"<i>i</i> ."}"#)
    }
}
