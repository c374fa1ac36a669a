import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler` with `--from markdown` and `--to markdown`, end to end.
@Suite struct MarkdownCommandLineTests {
    @Test func convertsMarkdownToHTMLMarkdownAndJSON() throws {
        let input = "# T\n\n**bold ||hidden|| text**\n"
        let html = try runSpoiler(["convert", "--from", "markdown", "--to", "html"], input: input)
        #expect(html.status == 0)
        #expect(html.out == "<h1>T</h1>\n<p><strong>bold <span class=\"spoiler\">hidden</span> text</strong></p>\n")
        let md = try runSpoiler(["convert", "--from", "markdown", "--to", "markdown"], input: input)
        #expect(md.out == "# T\n\n**bold ||hidden|| text**\n")
        let json = try runSpoiler(["parse", "--from", "markdown"], input: input)
        #expect(
            json.out
                == #"{"text":"T\n\nbold hidden text","entities":[{"type":"bold","offset":0,"length":1},{"type":"bold","offset":3,"length":16},{"type":"spoiler","offset":8,"length":6}]}"#
                + "\n")
        let plain = try runSpoiler(["convert", "--from", "markdown", "--to", "plain"], input: input)
        #expect(plain.out == "T\n\nbold hidden text\n")
    }

    @Test func writesOtherFormatsAsMarkdown() throws {
        let r = try runSpoiler(["convert", "--from", "plain", "--to", "markdown"], input: "a*b ||c|| `d`")
        #expect(r.status == 0)
        #expect(r.out == "a\\*b ||c|| `d`\n")
    }

    @Test func ndjsonRecordsAndErrors() throws {
        let input = "\"||a||\"\n{\"id\":\"x\",\"text\":\"*b*\"}\n[1]\n"
        let r = try runSpoiler(["convert", "--from", "markdown", "--to", "html", "--ndjson"], input: input)
        #expect(r.status == 1)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"id":1,"html":"<p><span class=\"spoiler\">a</span></p>\n"}"#)
        #expect(lines[1] == #"{"id":"x","html":"<p><em>b</em></p>\n"}"#)
        #expect(lines[2].hasPrefix(#"{"id":null,"line":3,"error":"#))
        #expect(r.err.hasPrefix("error: <stdin>:3: each line must be a JSON string or an object with 'text'\n"))
    }

    /// Invalid UTF-8 is an error in Markdown as in every format on the command line, with
    /// its line and column (the library's Markdown parser alone reads it as U+FFFD).
    @Test func invalidUTF8IsAnErrorAsInEveryFormat() throws {
        let bytes = Data([0x2A, 0x61, 0x2A, 0x0A, 0x2A, 0xFF, 0x2A, 0x00, 0x7C, 0x7C, 0xC3, 0x7C, 0x7C, 0x0A])
        for args in [
            ["convert", "--to", "html"], ["convert", "--to", "markdown"], ["convert", "--to", "json"], ["parse"],
        ] {
            let r = try runSpoiler(args + ["--from", "markdown"], stdin: bytes)
            #expect(r.status == 1, "\(args)")
            #expect(r.out == "", "\(args)")
            #expect(r.err == "error: <stdin>:2:2: Invalid UTF-8 at byte offset 5\n", "\(args)")
        }
        // A NUL byte is valid UTF-8: cmark-gfm reads it as U+FFFD.
        let nul = try runSpoiler(
            ["convert", "--from", "markdown", "--to", "html"], stdin: Data([0x2A, 0x00, 0x2A, 0x0A]))
        #expect(nul.status == 0)
        #expect(nul.out == "<p><em>\u{FFFD}</em></p>\n")
    }
}
