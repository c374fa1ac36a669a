import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import SpoilerTestSupport
import Testing

/// The reader's `less` keys and search, in-process on ``ReaderTests/document`` (40 lines
/// on a 40 × 10 screen: nine text rows, so a page is 8 rows and half a page 4).
@Suite struct ReaderKeysTests {
    /// Plays `keys` (one event each, 0.1 s apart) then `q`; returns the exit and screen.
    static func read(_ keys: [String], sceneOptions: SceneOptions = SceneOptions()) throws -> (
        PlayerExit, ANSIScreen
    ) {
        var script: [(Double, DeviceEvent)] = []
        for (i, k) in keys.enumerated() { script.append((0.1 * Double(i + 1), ReaderTests.keys(k))) }
        script.append((0.1 * Double(keys.count + 1) + 1.5, ReaderTests.keys("q")))
        let (exit, _, screen) = try ReaderTests.read(ReaderTests.reader(sceneOptions: sceneOptions), script)
        return (exit, screen)
    }

    @Test(arguments: [
        // (keys, the first line on the screen after them)
        (["\u{04}"], "line 04"), (["\u{04}", "\u{15}"], "line 00"), (["d"], "line 04"), (["d", "d", "u"], "line 04"),
        (["f"], "line 08"), (["\u{06}"], "line 08"), (["f", "\u{06}", "\u{02}"], "line 08"),
        (["f", "f", "b"], "line 08"),
        (["z"], "line 08"), (["e", "e"], "line 02"), (["e", "e", "y"], "line 01"), (["\u{05}"], "line 01"),
        ([">"], "line 31"), ([">", "<"], "line 00"), (["G", "\u{15}"], "line 27"),
    ])
    func lessKeysScroll(_ keys: [String], _ firstLine: String) throws {
        let (exit, screen) = try ReaderKeysTests.read(keys)
        #expect(exit == .quit)
        #expect(
            screen.lines[0].hasPrefix("  " + firstLine), "after \(keys.map(\.debugDescription)): \(screen.lines[0])")
    }

    @Test func ctrlDScrollsInsteadOfQuitting() throws {
        let (_, _, screen) = try ReaderTests.read(
            ReaderTests.reader(), [(0.1, ReaderTests.keys("\u{04}")), (0.3, .endOfInput)])
        #expect(screen.lines[0].hasPrefix("  line 04"))
    }

    @Test func slashSearchesAndNAndShiftNMove() throws {
        let (_, found) = try ReaderKeysTests.read(["/", "l", "i", "n", "e", " ", "2", "\r"])
        #expect(found.lines[0].hasPrefix("  line 20"), "\(found.lines[0])")
        // The match is in reverse video (SGR 7), its neighbour is not.
        for column in 2..<8 { #expect(found[column, 0].pen.attributes.contains(7), "column \(column)") }
        #expect(!found[8, 0].pen.attributes.contains(7))
        let (_, next) = try ReaderKeysTests.read(["/", "l", "i", "n", "e", " ", "2", "\r", "n", "n"])
        #expect(next.lines[0].hasPrefix("  line 22"), "\(next.lines[0])")
        let (_, back) = try ReaderKeysTests.read(["/", "l", "i", "n", "e", " ", "2", "\r", "n", "n", "N"])
        #expect(back.lines[0].hasPrefix("  line 21"), "\(back.lines[0])")
        // The last match (the text cannot scroll past line 31 at the top).
        let (_, last) = try ReaderKeysTests.read(["/", "3", "9", "\r"])
        #expect(last.lines.contains { $0.contains("line 39") })
        #expect(last.lines[8].hasPrefix("  line 39"))
    }

    @Test func aPatternNotFoundIsSaidAndTheScreenStays() throws {
        let (exit, screen) = try ReaderKeysTests.read(["/", "x", "y", "z", "\r"])
        #expect(exit == .quit)
        #expect(screen.lines[0].hasPrefix("  line 00"))
        #expect(ReaderTests.bar(screen).contains("Pattern not found"))
    }

    @Test func searchNeverFindsHiddenTextBeforeItIsRevealed() throws {
        let search = ["/", "a", "p", "p", "l", "e", "\r"]
        let (_, hidden) = try ReaderKeysTests.read(search)
        #expect(ReaderTests.bar(hidden).contains("Pattern not found"))
        #expect(!hidden.lines.joined().contains("apple"))
        // Revealed (r), the same search finds it on line 2.
        let (_, shown) = try ReaderKeysTests.read(["r"] + search)
        #expect(shown.lines[0].hasPrefix("  line 02 has pineapple"), "\(shown.lines[0])")
        #expect(shown[2 + 16, 0].pen.attributes.contains(7) && !shown[2 + 15, 0].pen.attributes.contains(7))
    }

    @Test func escapeGivesUpTheSearchWithoutQuitting() throws {
        let (_, _, screen) = try ReaderTests.read(
            ReaderTests.reader(),
            [
                (0.1, ReaderTests.keys("/")), (0.2, ReaderTests.keys("3")), (0.3, ReaderTests.keys("\u{1B}")),
                (0.5, ReaderTests.keys("j")), (0.7, .endOfInput),
            ])
        #expect(screen.lines[0].hasPrefix("  line 01"))
        #expect(!ReaderTests.bar(screen).contains("/3"))
    }

    @Test func thePromptShowsWhatIsTyped() throws {
        let (_, _, screen) = try ReaderTests.read(
            ReaderTests.reader(),
            [
                (0.1, ReaderTests.keys("/")), (0.2, ReaderTests.keys("l")), (0.3, ReaderTests.keys("i")),
                (0.5, .endOfInput),
            ])
        #expect(ReaderTests.bar(screen).hasPrefix("/li"))
    }
}
