import SpoilerCore
import SpoilerParser
import Testing

/// Limits found in the platform formats and fixed: each a case that used to go wrong.
@Suite struct PlatformLimitsTests {
    func discord(_ m: Message) throws -> Message {
        try MessageParser.parse(MessageSerializer.serialize(m, to: .discord), from: .discord)
    }

    @Test(arguments: [
        // italic then bold, bold then italic, italic between two bolds, at a space, in a word's end
        Message(text: "ab", entities: [Entity(.italic, offset: 0, length: 1), Entity(.bold, offset: 1, length: 1)]),
        Message(text: "ab", entities: [Entity(.bold, offset: 0, length: 1), Entity(.italic, offset: 1, length: 1)]),
        Message(
            text: "abc",
            entities: [
                Entity(.bold, offset: 0, length: 1), Entity(.italic, offset: 1, length: 1),
                Entity(.bold, offset: 2, length: 1),
            ]),
        Message(text: "x ab.", entities: [Entity(.italic, offset: 2, length: 1), Entity(.bold, offset: 3, length: 1)]),
    ])
    func discordItalicTouchingBoldReadsBack(_ m: Message) throws {
        #expect(try discord(m) == m, "\(MessageSerializer.serialize(m, to: .discord))")
    }

    @Test func discordItalicTouchingBoldIsWrittenWithUnderscores() {
        let m = Message(
            text: "ab", entities: [Entity(.italic, offset: 0, length: 1), Entity(.bold, offset: 1, length: 1)])
        #expect(MessageSerializer.serialize(m, to: .discord) == "_a_**b**")
        // Away from bold, italic keeps its star.
        #expect(
            MessageSerializer.serialize(
                Message(text: "a b", entities: [Entity(.italic, offset: 0, length: 1)]), to: .discord) == "*a* b")
    }

    func plainReasons(_ s: String) throws -> Message {
        try MessageParser.parse(s, from: .plain, options: ParseOptions(spoilerReasons: true))
    }

    @Test func anEscapedPipeDoesNotSeparateAPlainReason() throws {
        #expect(
            try plainReasons(#"||a\|b||"#) == Message(text: "a|b", entities: [Entity(.spoiler, offset: 0, length: 3)]))
        #expect(
            try plainReasons(#"||a\|b|c\|d|| e"#)
                == Message(text: "c|d e", entities: [Entity(.spoiler, offset: 0, length: 3, reason: "a|b")]))
        #expect(
            try plainReasons(#"x \\||why|what||"#)
                == Message(text: #"x \what"#, entities: [Entity(.spoiler, offset: 3, length: 4, reason: "why")]))
        // An unescaped pipe still separates; code and other escapes are as without reasons.
        #expect(
            try plainReasons("||why|what||")
                == Message(text: "what", entities: [Entity(.spoiler, offset: 0, length: 4, reason: "why")]))
        #expect(try plainReasons(#"`\`` \\ ||\|||"#) == (try MessageParser.parse(#"`\`` \\ ||\|||"#, from: .plain)))
        // The stand-in for an escaped pipe is never confused with one in the input.
        let stand = String(Character(Unicode.Scalar(0xFDD0)!))
        #expect(try plainReasons("||" + stand + "\\|x||").text == stand + "|x")
    }

    func discordReasons(_ s: String) throws -> Message {
        try MessageParser.parse(s, from: .discord, options: ParseOptions(spoilerReasons: true))
    }

    @Test func anEscapedPipeDoesNotSeparateADiscordReason() throws {
        #expect(
            try discordReasons(#"||a\|b||"#) == Message(text: "a|b", entities: [Entity(.spoiler, offset: 0, length: 3)])
        )
        #expect(
            try discordReasons(#"||a\|b|c\|d|| e"#)
                == Message(text: "c|d e", entities: [Entity(.spoiler, offset: 0, length: 3, reason: "a|b")]))
        // An unescaped pipe separates; the escape is Discord's, so `\\` before a pipe is a
        // backslash and then the bar.
        #expect(
            try discordReasons("||why|what||")
                == Message(text: "what", entities: [Entity(.spoiler, offset: 0, length: 4, reason: "why")]))
        #expect(
            try discordReasons(#"||a\\|b||"#)
                == Message(text: "b", entities: [Entity(.spoiler, offset: 0, length: 1, reason: #"a\"#)]))
        // Emoji before the escape move UTF-16 offsets apart from byte offsets.
        #expect(
            try discordReasons(#"😀 ||🎬\|x|y||"#)
                == Message(text: "😀 y", entities: [Entity(.spoiler, offset: 3, length: 1, reason: "🎬|x")]))
    }
}

/// Reddit's indented code blocks hold no spoilers.
@Suite struct RedditIndentedCodeTests {
    func reddit(_ s: String) throws -> Message { try MessageParser.parse(s, from: .reddit) }

    @Test func anIndentedCodeBlockHoldsNoSpoiler() throws {
        let m = try reddit("text\n\n    code >!not!< here\n\nand >!this!<")
        #expect(m.text.contains("code >!not!< here"))
        #expect(m.entities.filter { $0.type == .spoiler }.count == 1)
        #expect(m.entities.contains { $0.type == .pre })
        let tab = try reddit("\tx >!y!<")
        #expect(tab.text == "x >!y!<")
    }

    @Test func anIndentedLineThatContinuesAParagraphOrAListItemStillHasSpoilers() throws {
        let paragraph = try reddit("a\n    >!b!<")
        #expect(paragraph.entities.contains { $0.type == .spoiler })
        let item = try reddit("- a\n\n    >!b!<")
        #expect(item.entities.contains { $0.type == .spoiler })
    }
}
