import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// Markdown to Message: blocks flattened to lines, inlines to entities.
@Suite struct MarkdownParserTests {
    func parse(_ s: String) throws -> Message { try MessageParser.parse(s, from: .markdown) }
    func parse(_ bytes: [UInt8]) throws -> Message { try MessageParser.parse(bytes, from: .markdown) }

    @Test func entityLengthsCountUTF16UnitsInMixedScripts() throws {
        try forAll({ rng in
            String(randomMixedText(&rng, maxPieces: 24).filter { $0.isLetter || !$0.isASCII })
        }) { t in
            let m = try parse("**a" + t + "b**")
            return m.text == "a" + t + "b" && m.entities.count == 1 && m.entities[0].offset == 0
                && m.entities[0].length == m.text.utf16.count
        }
    }

    @Test func spoilerInsideBold() throws {
        let m = try parse("**bold ||hidden|| text**")
        #expect(m.text == "bold hidden text")
        #expect(m.entities == [Entity(.bold, offset: 0, length: 16), Entity(.spoiler, offset: 5, length: 6)])
    }

    @Test func inlineEntities() throws {
        let m = try parse("*i* **b** ~~s~~ `c` [l](http://u) ||h|| <http://a.b> <x@y.z> www.q.org")
        #expect(m.text == "i b s c l h http://a.b x@y.z www.q.org")
        #expect(
            m.entities == [
                Entity(.italic, offset: 0, length: 1), Entity(.bold, offset: 2, length: 1),
                Entity(.strikethrough, offset: 4, length: 1), Entity(.code, offset: 6, length: 1),
                Entity(.textLink, offset: 8, length: 1, url: "http://u"), Entity(.spoiler, offset: 10, length: 1),
                Entity(.url, offset: 12, length: 10), Entity(.email, offset: 23, length: 5),
                Entity(.textLink, offset: 29, length: 9, url: "http://www.q.org"),
            ])
    }

    @Test func offsetsCountUTF16() throws {
        let m = try parse("😀 ||日本|| 👩‍👩‍👧 **é**")
        #expect(m.text == "😀 日本 👩‍👩‍👧 é")
        #expect(m.entities == [Entity(.spoiler, offset: 3, length: 2), Entity(.bold, offset: 15, length: 1)])
        for e in m.entities { #expect(m.text(of: e) != nil) }
    }

    @Test func blocksBecomeLines() throws {
        let doc = """
            # Title

            First paragraph
            continues here.

            - one
            - two
              - nested

            3) three
            4) four

            - [ ] todo
            - [x] done

            > quoted ||secret||

            ```swift
            let x = 1
            ```

            | h1 | h2 |
            |----|----|
            | a  | b  |

            ***

            end
            """
        let m = try parse(doc)
        #expect(
            m.text == """
                Title

                First paragraph
                continues here.

                • one
                • two
                  • nested

                3) three
                4) four

                • [ ] todo
                • [x] done

                quoted secret

                let x = 1

                h1 | h2
                a | b

                ———

                end
                """)
        let types = m.entities.map(\.type)
        #expect(types == [.bold, .blockquote, .spoiler, .pre, .bold])
        let pre = try #require(m.entities.first { $0.type == .pre })
        #expect(pre.language == "swift")
        #expect(m.text(of: pre) == "let x = 1")
        #expect(m.text(of: m.entities[1]) == "quoted secret")
        #expect(m.text(of: m.entities[4]) == "h1 | h2")
    }

    @Test func looseListsAndItemParagraphs() throws {
        let m = try parse("1. a\n\n   more\n2. b\n")
        #expect(m.text == "1. a\n\n   more\n\n2. b")
    }

    @Test func sameTypeNestingIsDropped() throws {
        let m = try parse("> a\n> > b\n\n*x *y* z*\n\n[![img](p.png)](u)")
        #expect(m.entities.filter { $0.type == .blockquote }.count == 1)
        #expect(m.entities.filter { $0.type == .italic }.count == 1)
        #expect(m.entities.filter { $0.type == .textLink }.count == 1)
        #expect(m.entities.first { $0.type == .textLink }?.url == "u")
    }

    @Test func spoilerInTableCell() throws {
        let m = try parse("| a | b |\n|---|---|\n| \\|\\|x\\|\\| | y |\n")
        #expect(m.text == "a | b\nx | y")
        #expect(m.entities.contains(Entity(.spoiler, offset: 6, length: 1)))
    }

    @Test func invalidUTF8IsReplacedAsCmarkDoes() throws {
        let m = try parse([0x61, 0xFF, 0x62, 0xC3, 0x28, 0x00, 0x7C, 0x7C, 0x63, 0x7C, 0x7C])
        #expect(m.text == "a\u{FFFD}b\u{FFFD}(\u{FFFD}c")
        #expect(m.entities == [Entity(.spoiler, offset: 6, length: 1)])
    }

    @Test func anyBytesParse() throws {
        try forAll(
            { rng -> [UInt8] in
                let n = Int(rng.next() % 200)
                let alphabet: [UInt8] = Array("|*_~`[]()<>!\\#->\n \t1.".utf8) + [0xFF, 0xC3, 0xE2, 0x00, 0x61]
                return (0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            }, count: 500
        ) { bytes in
            let m = try parse(bytes)
            let n = m.utf16Length
            return m.entities.allSatisfy { $0.offset >= 0 && $0.length > 0 && $0.end <= n && m.text(of: $0) != nil }
                && m.entities == Message.sorted(m.entities)
        }
    }

    @Test func deepNestingNeitherCrashesNorRecurses() throws {
        let quotes = String(repeating: ">", count: 10_000) + " ||deep||\n"
        let q = try parse(quotes)
        #expect(q.text == "deep")
        #expect(q.entities == [Entity(.blockquote, offset: 0, length: 4), Entity(.spoiler, offset: 0, length: 4)])
        let list = String(repeating: "- ", count: 10_000) + "x\n"
        let l = try parse(list)
        #expect(l.text.hasSuffix("• x"))
        #expect(l.text.count == 10_000 * 2 + 1)
        let html = MarkdownRenderer.html(Array(quotes.utf8))
        #expect(html.count > 10_000 * 12)
        let nested = (0..<2_000).map { String(repeating: " ", count: $0 * 2) + "- l\($0)" }.joined(separator: "\n")
        let n = try parse(nested)
        #expect(n.text.hasPrefix("• l0\n  • l1\n    • l2"))
    }

    @Test func longPipeRunsStayText() throws {
        let pipes = [UInt8](repeating: UInt8(ascii: "|"), count: 1_000_000)
        let m = try parse(pipes)
        #expect(m.text.utf8.count == 1_000_000)
        #expect(m.entities.isEmpty)
        let mixed = Array(String(repeating: "||a", count: 100_000).utf8)
        let x = try parse(mixed)
        #expect(x.entities.count == 50_000)
    }
}
