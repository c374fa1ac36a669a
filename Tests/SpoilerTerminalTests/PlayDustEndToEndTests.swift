import Foundation
import SpoilerTestSupport
import Testing

/// The dust of `spoiler play` as a user sees it in tmux: every hidden word of a message
/// with many spoilers is covered, in every glyph set, and moves.
@Suite(.serialized) struct PlayDustEndToEndTests {
    static let message = "cast: ||Ana|| ||Bob|| ||Cid|| ||Dee|| ||Eve|| ||Fay|| ||Gus|| ||Hal||"
    static let names = ["Ana", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]

    /// The three cells of each name on the first row (`cast: ` takes six columns, each
    /// name three and a space).
    static func words(of screen: String) -> [String] {
        let row = Array(screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        return names.indices.map { k in
            let start = 6 + 4 * k
            return start + 3 <= row.count ? String(row[start..<(start + 3)]) : ""
        }
    }

    @Test(arguments: ["braille", "blocks", "ascii"]) func eachOfEightWordsIsCoveredAndMoves(_ glyphs: String) throws {
        let t = try PlayEndToEndTests.Tmux(width: 60, height: 8, message: Self.message)
        try t.startPlay("--glyphs \(glyphs)", firstWords: "cast:")
        let first = Self.words(of: try t.screen())
        var moved = [Bool](repeating: false, count: Self.names.count)
        // Up to two seconds of captures 0.25 s apart: every word must hold dust in each
        // and differ from the first capture in at least one.
        for _ in 0..<8 where moved.contains(false) {
            Thread.sleep(forTimeInterval: 0.25)
            let now = Self.words(of: try t.screen())
            for (k, cells) in now.enumerated() {
                #expect(
                    cells.count == 3 && !cells.contains(" "),
                    "\(glyphs): \(Self.names[k]) is not covered: \(String(reflecting: cells))")
                #expect(!Self.names.contains(cells), "\(glyphs): \(Self.names[k]) shows through")
                if cells != first[k] { moved[k] = true }
            }
        }
        for (k, name) in Self.names.enumerated() {
            #expect(moved[k], "\(glyphs): the dust on \(name) never moved (\(String(reflecting: first[k])))")
        }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }
}
