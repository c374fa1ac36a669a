import Foundation
import SpoilerTestSupport
import Testing

/// The dust of `spoiler play` as a user sees it in tmux: every hidden word of a message
/// with many spoilers is covered, in every glyph set, and moves.
@Suite(.serialized) struct PlayDustEndToEndTests {
    static let message = "cast: ||Ana|| ||Bob|| ||Cid|| ||Dee|| ||Eve|| ||Fay|| ||Gus|| ||Hal||"
    static let names = ["Ana", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]

    /// Eight one-letter spoilers: one cell each, the smallest word there is.
    static let letters = "cast: ||A|| ||B|| ||C|| ||D|| ||E|| ||F|| ||G|| ||H||"
    static let letterNames = ["A", "B", "C", "D", "E", "F", "G", "H"]

    /// The cells of each of `names` on the first row (`cast: ` takes six columns, then
    /// each name and a space).
    static func words(of screen: String, names: [String] = names) -> [String] {
        let row = Array(screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        var start = 6
        return names.map { name in
            defer { start += name.count + 1 }
            return start + name.count <= row.count ? String(row[start..<(start + name.count)]) : ""
        }
    }

    @Test(arguments: ["braille", "blocks", "ascii"]) func eachOfEightWordsIsCoveredAndMoves(_ glyphs: String) throws {
        try checkEachWordIsCoveredAndMoves(glyphs, message: Self.message, names: Self.names)
    }

    /// One-letter words twinkle too, in every glyph set (they used to hold their glyph in
    /// blocks and ascii for a second and more).
    @Test(arguments: ["braille", "blocks", "ascii"]) func eachOfEightOneLetterWordsIsCoveredAndMoves(_ glyphs: String)
        throws
    {
        try checkEachWordIsCoveredAndMoves(glyphs, message: Self.letters, names: Self.letterNames)
    }

    func checkEachWordIsCoveredAndMoves(_ glyphs: String, message: String, names: [String]) throws {
        let t = try PlayEndToEndTests.Tmux(width: 60, height: 8, message: message)
        try t.startPlay("--glyphs \(glyphs)", firstWords: "cast:")
        let first = Self.words(of: try t.screen(), names: names)
        var moved = [Bool](repeating: false, count: names.count)
        // Up to two seconds of captures 0.25 s apart: every word must hold dust in each
        // and differ from the first capture in at least one.
        for _ in 0..<8 where moved.contains(false) {
            Thread.sleep(forTimeInterval: 0.25)
            let now = Self.words(of: try t.screen(), names: names)
            for (k, cells) in now.enumerated() {
                #expect(
                    cells.count == names[k].count && !cells.contains(" "),
                    "\(glyphs): \(names[k]) is not covered: \(String(reflecting: cells))")
                #expect(!names.contains(cells), "\(glyphs): \(names[k]) shows through")
                if cells != first[k] { moved[k] = true }
            }
        }
        for (k, name) in names.enumerated() {
            #expect(moved[k], "\(glyphs): the dust on \(name) never moved (\(String(reflecting: first[k])))")
        }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }
}
