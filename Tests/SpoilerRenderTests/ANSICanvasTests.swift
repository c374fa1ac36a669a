import SpoilerCore
import SpoilerRender
import SpoilerTestSupport
import Testing

@Suite struct ANSICanvasTests {
    /// Text carrying terminal attacks: OSC 52 (set the clipboard), CSI 2J (erase the
    /// screen), BEL, a C1 CSI, DEL and a right-to-left override.
    static let hostile = "a\u{1B}]52;c;aGVsbG8=\u{07}b\u{1B}[2Jc\u{07}\u{9B}31m\u{7F}\u{202E}d"

    @Test func controlCharactersInTextNeverReachTheOutput() {
        var canvas = CellCanvas(width: 42, height: 1)
        var column = 0
        for g in ANSICanvasTests.hostile { column += canvas.put(String(g), column: column, row: 0, style: .plain) }
        // Also as one multi-scalar grapheme, the way a cluster could carry them.
        canvas.put("x\u{1B}\u{202E}", column: 38, row: 0, style: .plain)
        var encoder = ANSIEncoder(capability: .trueColor, synchronized: false)
        var out: [UInt8] = []
        encoder.encodeFrame(from: nil, to: canvas, into: &out)
        let text = String(decoding: out, as: UTF8.self)
        // The only ESC bytes are the encoder's own CSI sequences.
        let escapes = out.enumerated().filter { $0.element == 0x1B }.map(\.offset)
        for e in escapes { #expect(out[e + 1] == UInt8(ascii: "[")) }
        #expect(!out.contains(0x07))
        #expect(!out.contains(0x7F))
        #expect(!text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) })
        #expect(!text.unicodeScalars.contains { $0.value == 0x202E })
        #expect(!text.contains("\u{1B}]"))
        // The encoder's own clear screen ("␛[H␛[2J") is the only erase.
        #expect(text.components(separatedBy: "\u{1B}[2J").count == 2)
        #expect(canvas.lines[0].hasPrefix("a␛]52;c;aGVsbG8=␇b␛[2Jc␇�31m␡�d"))
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = CellCanvas(width: 4, height: 1)
        canvas.put("漢", column: 0, row: 0, columns: 2, style: .plain)
        #expect(canvas.lines == ["漢  "])
        canvas.put("x", column: 1, row: 0, style: .plain)
        #expect(canvas.lines == [" x  "])
        canvas.put("字", column: 3, row: 0, columns: 2, style: .plain)
        #expect(canvas.lines == [" x  "], "a wide character does not fit in the last column")
    }
}

extension String {
    fileprivate func components(separatedBy s: String) -> [Substring] {
        split(separator: s, omittingEmptySubsequences: false)
    }
}
