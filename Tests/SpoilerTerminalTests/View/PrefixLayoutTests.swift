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

    @Test func aPrefixIsCutAfterASpaceWithItsEntitiesClipped() throws {
        let m = Message(text: "ab cd ef gh", entities: [Entity(.spoiler, offset: 3, length: 5)])
        let (head, whole) = m.prefix(cuttingNear: 4)
        #expect(head.text == "ab cd " && !whole)
        #expect(head.entities == [Entity(.spoiler, offset: 3, length: 3)])
        #expect(m.prefix(cuttingNear: 100).isWhole)
    }
}
