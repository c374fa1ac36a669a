import SpoilerCore
import SpoilerTestSupport
import Testing

import SpoilerParser

/// A compact rendering of a message for expectations: the text, then each entity as
/// `type@offset+length`.
func summary(_ m: Message) -> String {
    ([m.text] + m.entities.map { "\($0.type.rawValue)@\($0.offset)+\($0.length)" }).joined(separator: " | ")
}

func plain(_ s: String) throws -> Message {
    try MessageParser.parse(s, from: .plain)
}

@Suite struct PlainParserTests {
    @Test func spoilerFromTheSpec() throws {
        let m = try plain("hi ||there||")
        #expect(m == Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]))
    }

    @Test(arguments: [
        // Spoilers.
        ("||a||", "a | spoiler@0+1"),
        ("x ||line one\nline two|| y", "x line one\nline two y | spoiler@2+17"),
        ("||a|| and ||b||", "a and b | spoiler@0+1 | spoiler@6+1"),
        ("||a||||b||", "ab | spoiler@0+1 | spoiler@1+1"),
        // Unmatched and empty pairs stay literal.
        ("a ||b", "a ||b"),
        ("||", "||"),
        ("||||", "||||"),
        ("||||x||", "||x | spoiler@2+1"),
        ("|||x||", "|x | spoiler@0+2"),
        ("a | b || c", "a | b || c"),
        ("||a|| ||b", "a ||b | spoiler@0+1"),
        // Escapes.
        (#"\|\|not\|\|"#, "||not||"),
        (#"a\\b"#, #"a\b"#),
        (#"\||x||"#, "||x||"),
        (#"C:\dir\n"#, #"C:\dir\n"#),
        (#"end\"#, #"end\"#),
        (#"\`x\`"#, "`x`"),
        (#"||a\||b||"#, "a||b | spoiler@0+4"),
        // Code.
        ("`x`", "x | code@0+1"),
        ("run `a || b` now", "run a || b now | code@4+6"),
        ("||see `code` here||", "see code here | spoiler@0+13 | code@4+4"),
        ("`a\nb`", "a\nb | code@0+3"),
        ("a ` b ||c||", "a ` b c | spoiler@6+1"),
        ("``", "``"),
        ("``x`", "`x | code@1+1"),
        (#"`a\`b`"#, "a`b | code@0+3"),
        ("||a `b|| c", "a `b c | spoiler@0+4"),
        ("||a `b` c", "||a b c | code@4+1"),
        ("`x` ` ||y||", "x ` y | code@0+1 | spoiler@4+1"),
        // UTF-16 offsets.
        ("🎬 ||秘密|| é", "🎬 秘密 é | spoiler@3+2"),
        ("👩‍👩‍👧 ||Привет||", "👩‍👩‍👧 Привет | spoiler@9+6"),
    ])
    func rules(input: String, expected: String) throws {
        #expect(summary(try plain(input)) == expected)
    }

    @Test func invalidUTF8NamesTheByteOffset() {
        let bytes: [UInt8] = Array("ok ||".utf8) + [0xE2, 0x82] + Array("x||".utf8)
        #expect(throws: ParseError.self) { try MessageParser.parse(bytes, from: .plain) }
        do {
            _ = try MessageParser.parse(bytes, from: .plain)
        } catch {
            #expect(error.kind == .invalidUTF8)
            #expect(error.position?.utf8Offset == 5)
            #expect(error.position?.column == 6)
            #expect(error.reason == "Invalid UTF-8 at byte offset 5")
        }
    }

    @Test(arguments: ["|", "\\", "`", "||", "\\|", "`|", "||`"])
    func longRunsParseAndKeepEveryCharacter(unit: String) throws {
        // Linear time is measured by spoiler-bench; here: a big run is handled and nothing is lost.
        let input = String(repeating: unit, count: 200_000 / unit.utf8.count)
        let m = try plain(input)
        #expect(m.text.utf8.count <= input.utf8.count)
        #expect(m.entities.allSatisfy { $0.offset >= 0 && $0.end <= m.utf16Length })
    }

    @Test func runOfPipesStaysLiteral() throws {
        let input = String(repeating: "|", count: 100_001)
        #expect(try plain(input).text == input)
        #expect(try plain(input).entities.isEmpty)
    }

    @Test func runOfBackslashesHalves() throws {
        let input = String(repeating: "\\", count: 100_000)
        #expect(try plain(input).text == String(repeating: "\\", count: 50_000))
    }
}

@Suite struct PlainSerializerTests {
    @Test(arguments: [
        (Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]), "hi ||there||"),
        (Message(text: "a|b`c", entities: []), #"a\|b\`c"#),
        (Message(text: #"C:\dir"#, entities: []), #"C:\dir"#),
        (Message(text: #"a\|"#, entities: []), #"a\\\|"#),
        (Message(text: #"x\"#, entities: [Entity(.spoiler, offset: 0, length: 2)]), #"||x\\||"#),
        (Message(text: "a || b", entities: [Entity(.code, offset: 0, length: 6)]), "`a || b`"),
        (
            Message(
                text: "ab", entities: [Entity(.spoiler, offset: 0, length: 1), Entity(.spoiler, offset: 1, length: 1)]),
            "||a||||b||"
        ),
        (Message(text: "bold", entities: [Entity(.bold, offset: 0, length: 4)]), "bold"),
        // Code holding a spoiler is cut around it, so the hidden part stays hidden.
        (
            Message(
                text: "abc", entities: [Entity(.code, offset: 0, length: 3), Entity(.spoiler, offset: 1, length: 1)]),
            "`a`||`b`||`c`"
        ),
    ])
    func writes(message: Message, expected: String) throws {
        #expect(MessageSerializer.serialize(message, to: .plainMarkup) == expected)
    }

    @Test func plainOutputIsTheBareText() {
        let m = Message(text: "a|b", entities: [Entity(.spoiler, offset: 0, length: 1)])
        #expect(MessageSerializer.serialize(m, to: .plain) == "a|b")
    }

    /// Messages whose spoilers are disjoint and whose code lies inside one spoiler or
    /// outside all of them, on scalar boundaries, over text mixing scripts and markup
    /// characters.
    static func randomMessage(_ rng: inout SplitMix64) -> Message {
        var text = ""
        var entities: [Entity] = []
        let pieces = Int(rng.next() % 6) + 1
        for _ in 0..<pieces {
            func chunk(_ rng: inout SplitMix64) -> String {
                var s = randomMixedText(&rng, maxPieces: 4)
                if rng.next() % 2 == 0 { s += ["|", "||", "\\", "`", "\\|", "|||"][Int(rng.next() % 6)] }
                if rng.next() % 3 == 0 { s = ["|", "\\", "`"][Int(rng.next() % 3)] + s }
                return s
            }
            let start = text.utf16.count
            switch rng.next() % 4 {
            case 0:
                // A spoiler, maybe with code inside.
                text += chunk(&rng)
                if rng.next() % 2 == 0 {
                    let c = text.utf16.count
                    text += chunk(&rng)
                    entities.append(Entity(.code, offset: c, length: text.utf16.count - c))
                    text += rng.next() % 2 == 0 ? chunk(&rng) : ""
                }
                entities.append(Entity(.spoiler, offset: start, length: text.utf16.count - start))
            case 1:
                text += chunk(&rng)
                entities.append(Entity(.code, offset: start, length: text.utf16.count - start))
            default:
                text += chunk(&rng)
            }
        }
        return Message(text: text, entities: entities)
    }

    @Test func roundTripsGeneratedMessages() throws {
        try forAll(Self.randomMessage, count: 2000) { m in
            let written = MessageSerializer.serialize(m, to: .plainMarkup)
            let back = try plain(written)
            if back != m { print("wrote \(written.debugDescription) read \(summary(back))") }
            return back == m
        }
    }

    @Test func parseWriteParseIsStable() throws {
        let alphabet = ["a", "|", "\\", "`", "é", "🎬", " ", "\n", "ж"]
        try forAll(
            { rng in
                (0..<Int(rng.next() % 24)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            }, count: 3000
        ) { s in
            let m = try plain(s)
            return try plain(MessageSerializer.serialize(m, to: .plainMarkup)) == m
        }
    }
}

@Suite struct PlainExhaustiveTests {
    /// Every string of up to 5 characters over `a | \ `` é 🎬`: parsing never traps, the
    /// entities are sorted, in bounds, non-empty and on scalar boundaries, and writing the
    /// message back and parsing again gives the same message.
    @Test func everySmallInput() throws {
        let alphabet = ["a", "|", "\\", "`", "é", "🎬"]
        var strings = [""]
        var frontier = [""]
        for _ in 0..<5 {
            frontier = frontier.flatMap { s in alphabet.map { s + $0 } }
            strings += frontier
        }
        #expect(strings.count == 9331)
        var failures: [String] = []
        for s in strings {
            let m = try plain(s)
            let u = Array(m.text.utf16)
            let roundTrips = try plain(MessageSerializer.serialize(m, to: .plainMarkup)) == m
            let sorted = zip(m.entities, m.entities.dropFirst()).allSatisfy { !Entity.canonicalOrder($1, $0) }
            let ok =
                sorted
                && m.entities.allSatisfy { e in
                    e.length > 0 && e.offset >= 0 && e.end <= u.count
                        && !UTF16.isTrailSurrogate(u[e.offset])
                        && (e.end == u.count || !UTF16.isTrailSurrogate(u[e.end]))
                }
                && roundTrips
            if !ok { failures.append(s) }
        }
        #expect(failures.isEmpty, "failed on \(failures.prefix(10))")
    }
}
