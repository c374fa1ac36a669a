import Foundation
import SpoilerCore
import SpoilerLayout
import Testing

/// Wrapping and per-word rectangles.
@Suite struct WrapAndWordTests {
    func spoiler(_ text: String, _ hidden: String) -> Message {
        let r = text.range(of: hidden)!
        let offset = text.utf16Offset(of: r.lowerBound)
        return Message(text: text, entities: [Entity(.spoiler, offset: offset, length: hidden.utf16.count)])
    }

    @Test func oneBoxPerWord() {
        let layout = LayoutEngine().layout(spoiler("the butler did it", "butler did"))
        #expect(layout.words.map(\.text) == ["butler", "did"])
        #expect(layout.words.map(\.word) == [0, 1])
        #expect(layout.words.map(\.column) == [4, 11])
        #expect(layout.words.map(\.columns) == [6, 3])
        #expect(
            layout.words.map(\.rect) == [
                SpoilerRect(x: 32, y: 0, width: 48, height: 16), SpoilerRect(x: 88, y: 0, width: 24, height: 16),
            ])
        #expect(layout.words.map(\.utf16Offset) == [4, 11])
        let hidden = layout.graphemes.filter { $0.word != nil }.map(\.text).joined()
        #expect(hidden == "butlerdid")
    }

    @Test func wrapsAtWhitespace() {
        let layout = LayoutEngine(wrapWidth: 10).layout(spoiler("the butler did it again", "did it"))
        #expect(layout.lines.map(\.utf16Offset) == [0, 11, 18])
        #expect(layout.lines.map(\.utf16Length) == [11, 7, 5])
        #expect(layout.words.map(\.line) == [1, 1])
        #expect(layout.words.map(\.column) == [0, 4])
        #expect(layout.columns! <= 10)
    }

    @Test func aLongWordBreaksBetweenGraphemesAndGivesOneBoxPerFragment() {
        let layout = LayoutEngine(wrapWidth: 4).layout(spoiler("ab supercalifragilistic", "supercalifragilistic"))
        #expect(layout.words.map(\.text) == ["supe", "rcal", "ifra", "gili", "stic"])
        #expect(Set(layout.words.map(\.word)) == [0])
        #expect(layout.words.map(\.line) == [1, 2, 3, 4, 5])
        #expect(layout.words.allSatisfy { $0.column == 0 && $0.columns == 4 })
    }

    @Test func ideographsBreakBetweenAnyTwo() {
        let layout = LayoutEngine(wrapWidth: 5).layout(spoiler("日本語のテキスト", "日本語のテキスト"))
        #expect(layout.lines.map(\.utf16Length) == [2, 2, 2, 2])
        #expect(layout.words.map(\.text) == ["日本", "語の", "テキ", "スト"])
        #expect(Set(layout.words.map(\.word)) == [0])
    }

    @Test func wideGraphemeNeverSplitsAcrossLines() {
        let layout = LayoutEngine(wrapWidth: 2).layout(Message(text: "a漢字"))
        #expect(layout.graphemes.map(\.line) == [0, 1, 2])
        #expect(layout.graphemes.map(\.column) == [0, 0, 0])
    }

    @Test func fontWrapWidthIsPixels() throws {
        let font = try BitmapFont.parse(LayoutFixtures.fixtureBytes("tiny.bdf"), file: "tiny.bdf")
        let layout = LayoutEngine(model: .font(font), wrapWidth: 20).layout(spoiler("ab ab ab", "ab ab ab"))
        #expect(layout.lines.count == 3)
        #expect(layout.words.map(\.line) == [0, 1, 2])
    }

    @Test func entitySplittingAClusterHidesAllOfIt() {
        // The entity covers only the combining mark of "é" (e + U+0301).
        let layout = LayoutEngine().layout(
            Message(text: "ce\u{301}a", entities: [Entity(.spoiler, offset: 2, length: 1)]))
        #expect(layout.words.map(\.text) == ["e\u{301}"])
        #expect(layout.words.map(\.utf16Offset) == [1])
        #expect(layout.words.map(\.utf16Length) == [2])
    }

    @Test func onlySpoilerEntitiesHaveWords() {
        let m = Message(
            text: "bold and hidden",
            entities: [Entity(.bold, offset: 0, length: 4), Entity(.spoiler, offset: 9, length: 6)])
        let layout = LayoutEngine().layout(m)
        #expect(layout.words.map(\.entity) == [1])
        #expect(layout.words.map(\.text) == ["hidden"])
    }

    @Test func redactedJSONHoldsNoHiddenText() {
        let layout = LayoutEngine().layout(spoiler("the butler did it", "butler"), includeGraphemes: false)
        let full = String(decoding: layout.jsonBytes(), as: UTF8.self)
        let redacted = String(decoding: layout.jsonBytes(redact: true), as: UTF8.self)
        #expect(full.contains("\"text\":\"butler\""))
        #expect(!redacted.contains("butler"))
        #expect(!redacted.contains("\"text\""))
        #expect(layout.graphemes.isEmpty)
    }
}
