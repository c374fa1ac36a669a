import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import Testing

/// A long message laid out from its beginning only as far as the screen goes
/// (``SpoilerTerminalView/init(size:options:prefixLayout:scene:)``), against the view of
/// the whole layout.
@Suite struct PrefixLayoutTests {
    /// One spoiler of 30,000 words on one line (about 250 KB), between two shown words.
    static let message: Message = {
        var rng = SplitMix64(seed: 7)
        var words: [String] = []
        for _ in 0..<30_000 {
            let n = 3 + Int(rng.next() % 10)
            words.append(String((0..<n).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.next() % 26))) }))
        }
        let text = "start " + words.joined(separator: " ") + " end"
        return Message(text: text, entities: [Entity(.spoiler, offset: 6, length: text.utf16.count - 10)])
    }()

    static let size = TerminalSize(columns: 80, rows: 24)

    static func options() -> SpoilerTerminalView.Options {
        var frame = ANSIFrameOptions(capability: .none, glyphs: .braille)
        frame.formatting = message.entities
        return SpoilerTerminalView.Options(frame: frame)
    }

    static func scene(_ layout: TextLayout) -> SpoilerScene {
        SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, seed: 5)
    }

    static func lazy() -> SpoilerTerminalView {
        SpoilerTerminalView(
            size: size, options: options(),
            prefixLayout: { size, bytes in
                let head = PrefixLayoutTests.message.prefix(cuttingNear: bytes)
                return (LayoutEngine(wrapWidth: size.columns).layout(head.message), head.isWhole)
            }, scene: PrefixLayoutTests.scene)
    }

    static func eager() -> SpoilerTerminalView {
        SpoilerTerminalView(
            size: size, options: options(), layout: { LayoutEngine(wrapWidth: $0.columns).layout(message) },
            scene: PrefixLayoutTests.scene)
    }

    /// Each row's cells: text as it is, dust and hidden cells as `#` or blank (`.`).
    static func rows(_ canvas: CellCanvas) -> [String] {
        (0..<canvas.height).map { row in
            String(
                canvas.text(row: row).map { c -> Character in
                    c.unicodeScalars.allSatisfy { (0x2800...0x28FF).contains($0.value) } ? "#" : c
                })
        }
    }

    @Test func theFirstFrameIsCompleteAndMaskedFromAFewScreensOfLayout() throws {
        var view = PrefixLayoutTests.lazy()
        let frame = view.frame(at: 0)
        #expect((view.layout.rows ?? 0) < 40 * 24, "\(view.layout.rows ?? 0) rows laid out")
        let rows = PrefixLayoutTests.rows(frame)
        #expect(rows[0].hasPrefix("start #"))
        // Every row of the screen is hidden text: dust in it, no letter.
        for (i, row) in rows.enumerated() {
            #expect(row.contains("#"), "row \(i) has no dust: \(row)")
            #expect(!row.dropFirst(i == 0 ? 6 : 0).contains { $0.isLetter }, "row \(i) shows text: \(row)")
        }
    }

    @Test(arguments: [["PgDn"], Array(repeating: "PgDn", count: 60), ["End"], ["End", "PgUp", "Home"]])
    func theRowsAreTheWholeLayouts(_ keys: [String]) throws {
        var lazy = PrefixLayoutTests.lazy()
        var eager = PrefixLayoutTests.eager()
        var t = 0.0
        for k in keys {
            t += 0.1
            let key: TerminalKey = k == "PgDn" ? .pageDown : k == "PgUp" ? .pageUp : k == "End" ? .end : .home
            lazy.key(key, at: t)
            eager.key(key, at: t)
        }
        _ = lazy.frame(at: t)
        _ = eager.frame(at: t)
        #expect(lazy.firstVisibleRow == eager.firstVisibleRow)
        // The same words on the same rows: the hidden cells of both cover the same columns.
        let l = lazy.layout.words.filter { $0.line == lazy.firstVisibleRow }.map(\.column)
        let e = eager.layout.words.filter { $0.line == eager.firstVisibleRow }.map(\.column)
        #expect(l == e)
    }

    /// A view that lays out in the background (as the player's does) asks its host for a
    /// long prefix instead of making it: End answers at once, keys work meanwhile (Page Up
    /// keeps the screen where it takes it), and the layout, once given, is the whole
    /// layout; a resize meanwhile drops the layout made for the old size and asks again.
    @Test(arguments: [(false, true), (true, true), (false, false)])
    func aLongLayoutIsLeftToTheHostAndKeysWorkMeanwhile(resized: Bool, scrolledBack: Bool) throws {
        var lazy = PrefixLayoutTests.lazy()
        lazy.laysOutInBackground = true
        lazy.backgroundPrefixBytes = 16_384
        var eager = PrefixLayoutTests.eager()
        lazy.key(.end, at: 0.1)
        let request = try #require(lazy.prefixLayoutRequest)
        #expect(request.bytes > 16_384)
        _ = lazy.frame(at: 0.2)
        let waiting = lazy.firstVisibleRow
        // While it waits the screen says so at its lower right.
        let note = "laying out the rest…"
        #expect(SpoilerTerminalView.pendingLayoutNote.contains(note))
        #expect(PrefixLayoutTests.rows(lazy.lastFrame).last?.contains(note) == true)
        if scrolledBack {
            lazy.key(.pageUp, at: 0.3)
            #expect(lazy.firstVisibleRow < waiting)
        }
        #expect(lazy.handle(.key(.character("q")), at: 0.35) == .quit)
        if resized {
            let narrow = TerminalSize(columns: 60, rows: 24)
            lazy.resize(to: narrow, at: 0.4)
            eager.resize(to: narrow, at: 0.4)
            lazy.adoptPrefixLayout(request.make(), for: request, at: 0.5)
            let again = try #require(lazy.prefixLayoutRequest)
            #expect(again.size == narrow && again.bytes == request.bytes)
            lazy.adoptPrefixLayout(again.make(), for: again, at: 0.6)
        } else {
            lazy.adoptPrefixLayout(request.make(), for: request, at: 0.6)
        }
        #expect(lazy.prefixLayoutRequest == nil)
        if scrolledBack {
            // Scrolled back meanwhile: the screen stays there; End goes to the end at once.
            _ = lazy.frame(at: 0.6)
            #expect(lazy.firstVisibleRow < waiting)
            lazy.key(.end, at: 0.65)
            #expect(lazy.prefixLayoutRequest == nil)
        }
        eager.key(.end, at: 0.6)
        _ = lazy.frame(at: 0.7)
        _ = eager.frame(at: 0.7)
        #expect(lazy.firstVisibleRow == eager.firstVisibleRow && lazy.firstVisibleRow > waiting)
        #expect(lazy.layout.rows == eager.layout.rows)
        #expect(PrefixLayoutTests.rows(lazy.lastFrame).last?.hasSuffix(" end") == true)
        #expect(!PrefixLayoutTests.rows(lazy.lastFrame).contains { $0.contains(note) })
    }

    @Test func aPrefixIsCutAfterASpaceWithItsEntitiesClipped() throws {
        let m = Message(text: "ab cd ef gh", entities: [Entity(.spoiler, offset: 3, length: 5)])
        let (head, whole) = m.prefix(cuttingNear: 4)
        #expect(head.text == "ab cd " && !whole)
        #expect(head.entities == [Entity(.spoiler, offset: 3, length: 3)])
        #expect(m.prefix(cuttingNear: 100).isWhole)
    }
}

extension PrefixLayoutTests {
    /// 3,000 lines of shown words with a spoiler in every third, about 100 KB.
    static let mixed: Message = {
        var text = ""
        var entities: [Entity] = []
        for i in 0..<3000 {
            let line = "line \(i) shows its words"
            if i % 3 == 0 {
                let word = " secret\(i)"
                entities.append(
                    Entity(.spoiler, offset: text.utf16.count + line.utf16.count + 1, length: word.utf16.count - 1))
                text += line + word + "\n"
            } else {
                text += line + "\n"
            }
        }
        return Message(text: text, entities: entities)
    }()

    /// The lazily laid-out view keeps no graphemes (a hundred bytes each) and still draws
    /// the screens the whole layout draws: the same shown text on every row, the same
    /// hidden cells, before and after End.
    @Test func aPrefixViewKeepsNoGraphemesAndDrawsTheSameScreens() throws {
        var frame = ANSIFrameOptions(capability: .none, glyphs: .blocks)
        frame.formatting = Self.mixed.entities
        let options = SpoilerTerminalView.Options(frame: frame)
        var lazy = SpoilerTerminalView(
            size: Self.size, options: options,
            prefixLayout: { size, bytes in
                let head = PrefixLayoutTests.mixed.prefix(cuttingNear: bytes)
                return (LayoutEngine(wrapWidth: size.columns).layout(head.message), head.isWhole)
            }, scene: PrefixLayoutTests.scene)
        var eager = SpoilerTerminalView(
            size: Self.size, options: options, layout: { LayoutEngine(wrapWidth: $0.columns).layout(Self.mixed) },
            scene: PrefixLayoutTests.scene)
        // Shown letters as they are; a hidden cell, dust or not, as `#`.
        func screen(_ canvas: CellCanvas) -> [String] {
            (0..<canvas.height).map { row in
                String(
                    canvas.text(row: row).map { c -> Character in
                        c.unicodeScalars.allSatisfy { (0x2580...0x259F).contains($0.value) } ? "#" : c
                    })
            }
        }
        for (t, key) in [(0.1, TerminalKey.pageDown), (0.2, .end), (0.3, .pageUp)] {
            lazy.key(key, at: t)
            eager.key(key, at: t)
            #expect(lazy.layout.graphemes.isEmpty && !eager.layout.graphemes.isEmpty)
            #expect(lazy.firstVisibleRow == eager.firstVisibleRow)
            let l = screen(lazy.frame(at: t))
            let e = screen(eager.frame(at: t))
            for (a, b) in zip(l, e) {
                #expect(a.filter { $0 != "#" && $0 != " " } == b.filter { $0 != "#" && $0 != " " })
            }
            #expect(l.joined().contains("line") && !l.joined().contains("secret"))
        }
    }
}
