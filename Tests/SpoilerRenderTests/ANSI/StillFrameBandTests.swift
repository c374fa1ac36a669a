import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import Testing

/// The still frame of a whole message (``StillFrameWriter/writeMessage(layout:options:scene:into:)``),
/// drawn in bands of rows when it is long.
@Suite struct StillFrameBandTests {
    static func still(_ message: Message, width: Int = 40) -> String {
        let layout = LayoutEngine(wrapWidth: width).layout(message)
        var out: [UInt8] = []
        StillFrameWriter.writeMessage(
            layout: layout, options: ANSIFrameOptions(capability: .none),
            scene: { SpoilerScene(layout: $0, preset: .dust, seed: 3) }, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `count` lines `line N ||secretN||`, then `blank` empty lines and `tail`.
    static func lines(_ count: Int, blank: Int = 0, tail: String = "") -> Message {
        var text = ""
        var entities: [Entity] = []
        for i in 0..<count {
            text += "line \(i) "
            entities.append(Entity(.spoiler, offset: text.utf16.count, length: "secret\(i)".utf16.count))
            text += "secret\(i)\n"
        }
        text += String(repeating: "\n", count: blank) + tail
        return Message(text: text, entities: entities)
    }

    @Test func aLongMessageKeepsEveryRowInOrderAndHidesEveryWord() throws {
        let output = StillFrameBandTests.still(StillFrameBandTests.lines(700))
        let rows = output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count == 700)
        for (i, row) in rows.enumerated() {
            #expect(row.hasPrefix("line \(i) "), "row \(i): \(row)")
            // Masked: dust or the mask symbol in every cell of the word, never its text.
            #expect(!row.contains("secret"))
            // (Dust may still stray a cell past the word: the dust raster's own issue.)
            #expect(row.count >= "line \(i) secret\(i)".count, "row \(i): \(row)")
        }
    }

    @Test func blankRowsAcrossABandBoundaryStayAndTrailingOnesGo() throws {
        // 250 rows, 20 blank (crossing row 256), a last word; then blank rows at the end.
        let withTail = StillFrameBandTests.still(StillFrameBandTests.lines(250, blank: 20, tail: "end\n\n\n"))
        let rows = withTail.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 250 + 20 + 1 + 1)
        #expect(rows[270] == "end" && rows[271] == "")
    }

    @Test func aShortMessageIsDrawnInOnePieceAsTheFrameBuilderDrawsIt() throws {
        let message = StillFrameBandTests.lines(5)
        let layout = LayoutEngine(wrapWidth: 40).layout(message)
        var options = ANSIFrameOptions(capability: .none)
        options.fillHiddenCells = true
        var builder = ANSIFrameBuilder(layout: layout, options: options)
        var canvas = CellCanvas(width: builder.columns, height: builder.rows)
        builder.draw(SpoilerScene(layout: layout, preset: .dust, seed: 3), into: &canvas)
        var expected: [UInt8] = []
        StillFrameWriter.write(canvas, capability: .none, into: &expected)
        #expect(StillFrameBandTests.still(message) == String(decoding: expected, as: UTF8.self))
    }
}
