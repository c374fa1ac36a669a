import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// Discord's markdown, one rule a test (see DiscordParser's documentation for the source).
@Suite struct DiscordTests {
    func parse(_ s: String, reasons: Bool = false) -> Message {
        (try? MessageParser.parse(s, from: .discord, options: ParseOptions(spoilerReasons: reasons)))
            ?? Message(text: "<error>")
    }

    @Test(arguments: [
        ("||a|| b ||c||", "a b c", [Entity(.spoiler, offset: 0, length: 1), Entity(.spoiler, offset: 4, length: 1)]),
        ("||two\nlines||", "two\nlines", [Entity(.spoiler, offset: 0, length: 9)]),
        ("||  x  ||", "  x  ", [Entity(.spoiler, offset: 0, length: 5)]),
        ("|| spoiler||", " spoiler", [Entity(.spoiler, offset: 0, length: 8)]),
        ("||   ||", "   ", [Entity(.spoiler, offset: 0, length: 3)]),
    ])
    func spoilersAreNonGreedyPaddedAndSpanLines(input: String, text: String, entities: [Entity]) {
        #expect(parse(input) == Message(text: text, entities: entities))
    }

    @Test func unclosedAndEmptySpoilersAreLiteral() {
        #expect(parse("a ||secret") == Message(text: "a ||secret"))
        #expect(parse("||||") == Message(text: "||||"))
    }

    @Test func spoilersHoldOtherMarkup() {
        #expect(
            parse("||**bold** _it_||")
                == Message(
                    text: "bold it",
                    entities: [
                        Entity(.spoiler, offset: 0, length: 7), Entity(.bold, offset: 0, length: 4),
                        Entity(.italic, offset: 5, length: 2),
                    ]))
    }

    @Test func inlineCodeIsNotMarkup() {
        // discord-markdown-ast-parser reads a spoiler here; Discord does not.
        #expect(parse("`||x||`") == Message(text: "||x||", entities: [Entity(.code, offset: 0, length: 5)]))
        #expect(parse("``a`b``") == Message(text: "a`b", entities: [Entity(.code, offset: 0, length: 3)]))
    }

    @Test func codeBlocksHaveALanguage() {
        #expect(
            parse("```swift\nlet x = 1\n```")
                == Message(text: "let x = 1", entities: [Entity(.pre, offset: 0, length: 9, language: "swift")]))
        #expect(parse("```\n||no||\n```") == Message(text: "||no||", entities: [Entity(.pre, offset: 0, length: 6)]))
    }

    @Test(arguments: [
        ("**b**", EntityType.bold), ("*i*", .italic), ("_i_", .italic), ("__u__", .underline),
        ("~~s~~", .strikethrough),
    ])
    func emphasis(input: String, type: EntityType) {
        let m = parse(input)
        #expect(m.entities.map(\.type) == [type])
        #expect(m.text.count == 1)
    }

    @Test func tripleStarsAreItalicBold() {
        let m = parse("***x***")
        #expect(m.text == "x")
        #expect(Set(m.entities.map(\.type)) == [.bold, .italic])
    }

    @Test func italicNeedsNonSpaceInsideAndUnderscoresNeedWordBoundaries() {
        #expect(parse("* a*") == Message(text: "* a*"))
        #expect(parse("snake_case_name") == Message(text: "snake_case_name"))
    }

    @Test func quotesHeadersAndSubtext() {
        #expect(
            parse("> quoted\nnot")
                == Message(text: "quoted\nnot", entities: [Entity(.blockquote, offset: 0, length: 6)]))
        #expect(parse("> a\n> b") == Message(text: "a\nb", entities: [Entity(.blockquote, offset: 0, length: 3)]))
        #expect(
            parse(">>> all\nof it")
                == Message(text: "all\nof it", entities: [Entity(.blockquote, offset: 0, length: 9)]))
        #expect(parse("# Big\ntext") == Message(text: "Big\ntext", entities: [Entity(.bold, offset: 0, length: 3)]))
        #expect(parse("-# small") == Message(text: "small"))
        #expect(parse("#nospace") == Message(text: "#nospace"))
    }

    @Test func maskedLinksAndEscapes() {
        #expect(
            parse("[site](https://e.x/a)")
                == Message(text: "site", entities: [Entity(.textLink, offset: 0, length: 4, url: "https://e.x/a")]))
        #expect(parse(#"\*not\* \|\|x\|\| C:\dir"#) == Message(text: #"*not* ||x|| C:\dir"#))
        #expect(
            parse("https://e.x/a_b_c")
                == Message(text: "https://e.x/a_b_c", entities: [Entity(.url, offset: 0, length: 17)]))
    }

    @Test func reasonsOnlyWhenAsked() {
        #expect(parse("||why|what||").text == "why|what")
        #expect(
            parse("||why|what||", reasons: true)
                == Message(text: "what", entities: [Entity(.spoiler, offset: 0, length: 4, reason: "why")]))
    }

    @Test func writesAReasonBeforeTheSpoiler() {
        let m = Message(text: "it was him", entities: [Entity(.spoiler, offset: 7, length: 3, reason: "ending")])
        let out = MessageSerializer.serialize(m, to: .discord, options: SerializationOptions())
        #expect(out.output == "it was (ending) ||him||")
        #expect(out.warnings.isEmpty)
    }

    @Test(arguments: [
        Message(
            text: "a *b* c|d", entities: [Entity(.bold, offset: 2, length: 3), Entity(.spoiler, offset: 6, length: 3)]),
        Message(text: "x y`z w", entities: [Entity(.code, offset: 2, length: 3)]),
        Message(
            text: "q1\nq2\nafter",
            entities: [Entity(.blockquote, offset: 0, length: 5), Entity(.italic, offset: 6, length: 5)]),
        Message(text: "code\nblock", entities: [Entity(.pre, offset: 0, length: 10, language: "py")]),
        Message(
            text: "link here",
            entities: [
                Entity(.textLink, offset: 0, length: 4, url: "https://e.x/"), Entity(.underline, offset: 5, length: 4),
                Entity(.strikethrough, offset: 0, length: 9),
            ]),
        Message(text: "# not a heading > nor - this", entities: []),
    ])
    func roundTrips(m: Message) {
        let written = MessageSerializer.serialize(m, to: .discord)
        #expect(parse(written) == m, "\(written)")
    }
}
