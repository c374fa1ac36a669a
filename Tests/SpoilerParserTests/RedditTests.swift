import SpoilerCore
import SpoilerParser
import Testing

/// Reddit's `>!spoiler!<`, one rule a test.
@Suite struct RedditTests {
    func parse(_ s: String) -> Message { (try? MessageParser.parse(s, from: .reddit)) ?? Message(text: "<error>") }

    @Test func inlineSpoiler() {
        #expect(
            parse("the >!butler!< did it")
                == Message(text: "the butler did it", entities: [Entity(.spoiler, offset: 4, length: 6)]))
        #expect(
            parse(">!at the start!<")
                == Message(text: "at the start", entities: [Entity(.spoiler, offset: 0, length: 12)]))
    }

    @Test func aSpaceAtEitherEndMakesItLiteral() {
        #expect(parse("a >! b!< c").entities.isEmpty)
        #expect(parse("a >!b !< c").entities.isEmpty)
        #expect(parse("a >! b!< c").text == "a >! b!< c")
    }

    @Test func unclosedIsLiteralAndTheFirstCloserWins() {
        #expect(parse("a >!b c") == Message(text: "a >!b c"))
        #expect(parse(">!a!< b!<") == Message(text: "a b!<", entities: [Entity(.spoiler, offset: 0, length: 1)]))
    }

    @Test func holdsMarkdownButNotInCode() {
        #expect(
            parse(">!**b**!<")
                == Message(
                    text: "b", entities: [Entity(.spoiler, offset: 0, length: 1), Entity(.bold, offset: 0, length: 1)]))
        #expect(parse("`>!x!<`") == Message(text: ">!x!<", entities: [Entity(.code, offset: 0, length: 5)]))
        #expect(parse(#"\>!x!<"#).entities.isEmpty)
    }

    @Test func pipesAreLiteral() {
        #expect(parse("a ||b|| c") == Message(text: "a ||b|| c"))
    }

    @Test func aBlankLineEndsTheSearch() {
        // (`>!a` at the start of a line is then a Markdown block quote of `!a`.)
        #expect(!parse(">!a\n\nb!<").entities.contains { $0.type == .spoiler })
    }

    @Test(arguments: [
        Message(text: "the butler did it", entities: [Entity(.spoiler, offset: 4, length: 6)]),
        Message(text: "a >!b!< c", entities: [Entity(.spoiler, offset: 0, length: 1)]),
        Message(
            text: "bold secret",
            entities: [Entity(.bold, offset: 0, length: 11), Entity(.spoiler, offset: 5, length: 6)]),
        Message(text: "pipe | and || here", entities: [Entity(.spoiler, offset: 5, length: 1)]),
    ])
    func roundTrips(m: Message) {
        let written = MessageSerializer.serialize(m, to: .reddit)
        #expect(parse(written) == m, "\(written)")
    }

    @Test func aSpoilerAtSpacesIsShrunk() {
        let m = Message(text: "a  b  c", entities: [Entity(.spoiler, offset: 1, length: 5)])
        #expect(MessageSerializer.serialize(m, to: .reddit) == "a  >!b!<  c")
    }
}
