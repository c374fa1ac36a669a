import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler play` of a message with many spoilers, resized while it runs: afterwards every
/// hidden word is still under dust that moves, and the words revealed before stay revealed.
@Suite(.serialized) struct PlayResizeEndToEndTests {
    static let message = PlayDustEndToEndTests.message
    static let names = PlayDustEndToEndTests.names

    /// Where each name is at `width` columns, as `spoiler layout` puts it: (row, column),
    /// 0-based, in the order of the names.
    static func places(width: Int) throws -> [(row: Int, column: Int)] {
        let r = try runSpoiler(["layout", "--width", "\(width)"], input: message)
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        let words = try #require(json["words"] as? [[String: Any]])
        try #require(words.count == names.count, "\(r.out)")
        return try words.map { w in
            (try #require(w["line"] as? Int), try #require(w["column"] as? Int))
        }
    }

    /// The three cells at each place on `screen`.
    static func cells(of screen: String, at places: [(row: Int, column: Int)]) -> [String] {
        let rows = screen.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        return places.map { p in
            guard p.row < rows.count, p.column + 3 <= rows[p.row].count else { return "" }
            return String(rows[p.row][p.column..<(p.column + 3)])
        }
    }

    @Test(arguments: ["braille", "blocks"]) func hiddenWordsStayCoveredAndRevealsAreKept(_ glyphs: String) throws {
        let t = try PlayEndToEndTests.Tmux(width: 60, height: 8, message: Self.message)
        try t.startPlay("--glyphs \(glyphs)", firstWords: "cast:")
        let wide = try Self.places(width: 60)
        // Reveal Bob and Fay with a click each (SGR reports count columns from 1).
        let revealed: Set<Int> = [1, 5]
        for k in revealed.sorted() {
            let p = wide[k]
            try t.sendBytes("\u{1B}[<0;\(p.column + 2);\(p.row + 1)M\u{1B}[<0;\(p.column + 2);\(p.row + 1)m")
        }
        try t.waitUntil("Bob and Fay revealed") { s in
            let now = Self.cells(of: s, at: wide)
            return now[1] == "Bob" && now[5] == "Fay"
        }
        // Narrow (the message wraps to two lines), then wide again.
        for width in [20, 60] {
            try t.run("resize-window", "-x", "\(width)", "-y", "8")
            let places = try Self.places(width: width)
            try t.waitUntil("reflowed to \(width) columns with Bob and Fay shown") { s in
                let now = Self.cells(of: s, at: places)
                return now[1] == "Bob" && now[5] == "Fay"
            }
            let first = Self.cells(of: try t.screen(), at: places)
            var moved = [Bool](repeating: false, count: Self.names.count)
            for _ in 0..<8 where moved.enumerated().contains(where: { !$0.element && !revealed.contains($0.offset) }) {
                Thread.sleep(forTimeInterval: 0.25)
                let now = Self.cells(of: try t.screen(), at: places)
                for (k, cells) in now.enumerated() {
                    if revealed.contains(k) {
                        #expect(cells == Self.names[k], "\(glyphs) at \(width): \(Self.names[k]) was hidden again")
                        continue
                    }
                    #expect(
                        cells.count == 3 && !cells.contains(" "),
                        "\(glyphs) at \(width): \(Self.names[k]) is not covered: \(String(reflecting: cells))")
                    #expect(cells != Self.names[k], "\(glyphs) at \(width): \(Self.names[k]) shows through")
                    if cells != first[k] { moved[k] = true }
                }
            }
            for (k, name) in Self.names.enumerated() where !revealed.contains(k) {
                #expect(
                    moved[k], "\(glyphs) at \(width): the dust on \(name) never moved (\(String(reflecting: first[k])))"
                )
            }
        }
        try t.type("q")
        try t.expectRestored(exitStatus: "0")
    }
}
