import SpoilerCore
import SpoilerParser
import Testing

/// `ParseError.moved(to:)`: an error found in a chunk, told at its place in the file.
@Suite struct ParseErrorMovedTests {
    static let there = TextPosition(utf8Offset: 1005, utf16Offset: 1005, line: 40, column: 3)

    /// The parsers' own errors, with the byte offset at the end of the reason and in the
    /// middle of it: the reason names the file's byte, the position is the file's.
    @Test(arguments: [
        ("x </b> y", "Unexpected end tag at byte offset 1005"),
        ("x <b>y</i> z", #"Unmatched end tag at byte offset 1005, expected "</b>", found "</i>""#),
    ])
    func anHTMLErrorNamesTheFilesByte(html: String, reason: String) throws {
        let error = try #require(throws: ParseError.self) { try MessageParser.parse(Array(html.utf8), from: .html) }
        #expect(error.position != nil)
        let moved = error.moved(to: Self.there)
        #expect(moved.reason == reason)
        #expect(moved.position == Self.there)
        #expect(moved.kind == error.kind)
    }

    /// A reason naming another number, or none, is left as it is.
    @Test func otherReasonsAreLeftAlone() {
        let chunk = Array("abcdefgh".utf8)
        let longer = ParseError(.syntax, "Bad at byte offset 55", position: TextPosition(utf8Offset: 5, in: chunk))
        #expect(longer.moved(to: Self.there).reason == "Bad at byte offset 55")
        #expect(longer.moved(to: Self.there).position == Self.there)
        let none = ParseError(.syntax, "Something else")
        #expect(none.moved(to: Self.there).reason == "Something else")
        #expect(none.moved(to: Self.there).position == Self.there)
    }
}
