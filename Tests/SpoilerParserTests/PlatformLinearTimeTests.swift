import SpoilerCore
import Testing

@testable import SpoilerParser

/// Unclosed and repeated markup costs the Discord and Reddit readers linear work: the work
/// they count (one step per byte a scan reads and per table entry built) for 4n bytes of a
/// pattern is about 4 times that for n bytes — a reader that searches again from every
/// opener would take 16 times — and stays within a fixed number of steps per byte.
///
/// Not timed: the readers count their own work.
@Suite struct PlatformLinearTimeTests {
    static func bytes(_ head: String, _ unit: String, _ count: Int) -> [UInt8] {
        Array((head + String(repeating: unit, count: count)).utf8)
    }

    static func discordSteps(_ b: [UInt8]) -> Int {
        var scanner = DiscordScanner(b)
        scanner.blocks()
        return scanner.steps
    }

    static func redditSteps(_ b: [UInt8]) -> Int {
        var steps = 0
        _ = RedditParser.markdown(from: b, steps: &steps)
        return steps
    }

    /// Steps for 4n bytes ÷ steps for n bytes, and steps per byte at 4n.
    static func growth(_ steps: ([UInt8]) -> Int, _ head: String, _ unit: String) -> (ratio: Double, perByte: Double) {
        let n = 1_500
        let small = steps(bytes(head, unit, n))
        let input = bytes(head, unit, 4 * n)
        let big = steps(input)
        return (Double(big) / Double(max(small, 1)), Double(big) / Double(input.count))
    }

    @Test(arguments: [
        ("*a", "**"), ("*a", " **"), ("_a", "__"), ("", "*a "), ("", "_a "), ("", "||a"), ("", "|| "), ("", "~~_"),
        ("", "**_"), ("", "__a_"), ("", "***"), ("``", "`a"), ("", "```a"), ("", "[a](http"), ("", "<https://"),
        ("", "[a]("), ("a", "\\|"), ("", "> ||"), ("", "||\n"), ("", "# ~~"), ("", "http://a."),
    ])
    func discordWorkIsLinear(head: String, unit: String) {
        let g = Self.growth(Self.discordSteps, head, unit)
        #expect(g.ratio < 5, "\(g)")
        #expect(g.perByte < 200, "\(g)")
    }

    @Test func discordBacktickRunsOfEveryLength() {
        func runs(_ count: Int) -> [UInt8] {
            var s = ""
            for k in 1...count { s += String(repeating: "`", count: k) + "a" }
            return Array(s.utf8)
        }
        // Every run is unclosed: 4 times the runs is about 16 times the bytes.
        let small = runs(60)
        let big = runs(240)
        let ratio = Double(Self.discordSteps(big)) / Double(Self.discordSteps(small))
        let bytes = Double(big.count) / Double(small.count)
        #expect(ratio < 1.3 * bytes, "\(ratio) for \(bytes) times the bytes")
    }

    @Test(arguments: [
        (">!a", " >!a"), ("", ">!a "), ("", ">!\\!< "), ("", ">!a\n"), ("`", "``a"), ("", ">!`a"), ("", ">! !<"),
    ])
    func redditWorkIsLinear(head: String, unit: String) {
        let g = Self.growth(Self.redditSteps, head, unit)
        #expect(g.ratio < 5, "\(g)")
        #expect(g.perByte < 50, "\(g)")
    }

    @Test func redditBacktickRunsOfEveryLength() {
        func runs(_ count: Int) -> [UInt8] {
            var s = ""
            for k in 1...count { s += String(repeating: "`", count: k) + "a" }
            return Array(s.utf8)
        }
        let small = runs(60)
        let big = runs(240)
        let ratio = Double(Self.redditSteps(big)) / Double(Self.redditSteps(small))
        #expect(ratio < 1.3 * Double(big.count) / Double(small.count))
    }

    /// Many spoilers with reasons: cutting the reasons out is linear too (it was a scan of
    /// every cut for every entity).
    @Test func manyReasons() throws {
        let input = String(repeating: "||r|t|| ", count: 40_000)
        let m = try MessageParser.parse(input, from: .discord, options: ParseOptions(spoilerReasons: true))
        #expect(m.entities.count == 40_000)
        #expect(m.entities.last == Entity(.spoiler, offset: 2 * 39_999, length: 1, reason: "r"))
    }

    /// A list item of many lines, each with formatting: the entities are moved line by
    /// line with a search, not by trying every line for every entity (which took 10^10
    /// steps here).
    @Test func matrixListOfManyFormattedLines() {
        let html = "<ul><li>" + String(repeating: "<b>x</b><br>", count: 100_000) + "y</li></ul>"
        let m = MatrixParser.message(fromHTML: html)
        #expect(m.entities.count == 100_000)
        #expect(m.entities.last == Entity(.bold, offset: 2 + 99_999 * 4, length: 1))
    }
}
