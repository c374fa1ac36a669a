import SpoilerCore
import SpoilerLayout
import Testing

/// Cell widths of single graphemes in the `mono` model, as emoji-aware terminals show them.
@Suite struct MonoWidthTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var columns: [Int]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "ASCII", text: "ab1!", columns: [1, 1, 1, 1]),
        Case(name: "Cyrillic", text: "Жж", columns: [1, 1]),
        Case(name: "CJK ideographs are wide", text: "漢字", columns: [2, 2]),
        Case(name: "fullwidth Latin", text: "Ａ", columns: [2]),
        Case(name: "Hangul syllable and conjoining jamo", text: "가\u{1100}\u{1161}\u{11A8}", columns: [2, 2]),
        Case(name: "Hangul syllable with a final jamo", text: "가\u{11A8}각", columns: [2, 2]),
        Case(name: "Hangul LV syllable with a vowel jamo", text: "가\u{1161}", columns: [2]),
        Case(name: "combining acute joins its base", text: "e\u{301}x", columns: [1, 1]),
        Case(name: "two combining marks", text: "a\u{308}\u{323}", columns: [1]),
        Case(name: "emoji presentation", text: "😀🎬", columns: [2, 2]),
        Case(name: "ZWJ family counts once", text: "👩‍👩‍👧", columns: [2]),
        Case(name: "skin tone modifier adds nothing", text: "👍🏽", columns: [2]),
        Case(name: "flag is a regional indicator pair", text: "🇺🇦🇯🇵", columns: [2, 2]),
        Case(name: "lone regional indicator", text: "🇺", columns: [1]),
        Case(name: "VS16 makes a text-default emoji wide", text: "❤\u{FE0F}☺\u{FE0F}", columns: [2, 2]),
        Case(name: "text-default emoji without VS16", text: "❤☺", columns: [1, 1]),
        Case(name: "VS15 keeps text presentation", text: "❤\u{FE0E}", columns: [1]),
        Case(name: "keycap sequence", text: "1\u{FE0F}\u{20E3}", columns: [2]),
        Case(name: "ESC and BEL are control pictures", text: "\u{1B}\u{7}", columns: [1, 1]),
        Case(name: "DEL is a control picture", text: "\u{7F}", columns: [1]),
        Case(name: "C1 control CSI is shown", text: "\u{9B}", columns: [1]),
        Case(name: "bidi override is shown", text: "\u{202E}", columns: [1]),
        Case(
            name: "zero-width space takes nothing; LRM is shown as a symbol", text: "\u{200B}\u{200E}", columns: [0, 1]),
        Case(name: "ideographic space is wide", text: "\u{3000}", columns: [2]),
        Case(name: "no-break space", text: "a\u{A0}b", columns: [1, 1, 1]),
    ]

    @Test(arguments: cases) func widths(_ c: Case) {
        let layout = LayoutEngine().layout(Message(text: c.text))
        #expect(layout.graphemes.map(\.columns) == c.columns)
        #expect(layout.columns == c.columns.reduce(0, +))
        #expect(layout.graphemes.map(\.text).joined() == c.text)
    }

    @Test func tabsAdvanceToTheNextMultipleOfEight() {
        let layout = LayoutEngine().layout(Message(text: "a\tbcdefghijklm\tn"))
        let tabs = layout.graphemes.filter { $0.text == "\t" }
        #expect(tabs.map(\.column) == [1, 20])
        #expect(tabs.map(\.columns) == [7, 4])
        #expect(layout.columns == 25)
    }

    @Test func controlsAreShownAsVisibleSymbols() {
        let layout = LayoutEngine().layout(Message(text: "\u{1B}[31m\u{0}\u{7F}\u{85}x\u{9B}\u{202E}\u{2066}\u{200B}"))
        #expect(
            layout.graphemes.map(\.display) == [
                "\u{241B}", "[", "3", "1", "m", "\u{2400}", "\u{2421}", "", "x", "\u{FFFD}", "\u{FFFD}", "\u{FFFD}", "",
            ])
        // NEL U+0085 is a line break.
        #expect(layout.lines.count == 2)
        for g in layout.graphemes {
            for s in g.display.unicodeScalars {
                #expect(
                    !(s.value < 0x20 || (0x7F...0x9F).contains(s.value) || (0x202A...0x202E).contains(s.value)
                        || (0x2066...0x2069).contains(s.value)),
                    "raw control U+\(String(s.value, radix: 16)) in display")
            }
        }
    }

    @Test func lineBreaksAreKept() {
        let layout = LayoutEngine().layout(Message(text: "ab\r\ncd\n\nxyz\n"))
        #expect(layout.lines.map(\.utf16Offset) == [0, 4, 7, 8, 12])
        #expect(layout.lines.map(\.utf16Length) == [2, 2, 0, 3, 0])
        #expect(layout.lines.map(\.width) == [16, 16, 0, 24, 0])
        #expect(layout.rows == 5)
        #expect(layout.height == 80)
    }

    @Test func cellSizeScalesPixels() {
        let engine = LayoutEngine(model: .mono(cellWidth: 10, cellHeight: 20))
        let layout = engine.layout(Message(text: "a漢b", entities: [Entity(.spoiler, offset: 1, length: 1)]))
        #expect(layout.width == 40)
        #expect(layout.height == 20)
        #expect(layout.words.map(\.rect) == [SpoilerRect(x: 10, y: 0, width: 20, height: 20)])
        #expect(layout.metrics.ascent == 15)
    }
}
