import SpoilerCore
import SpoilerRender
import SpoilerTestSupport
import Testing

@Suite struct ANSIEncoderTests {
    static let palette: [CellColor] = [
        .default, .indexed(1), .indexed(12), .indexed(200), .rgb(RGBColor(red: 10, green: 20, blue: 30)),
        .rgb(RGBColor(red: 255, green: 255, blue: 255)),
    ]
    static let symbols: [String] = ["a", "b", " ", "é", "e\u{301}", "漢", "字", "😀", "⣿", "⠁", "x", "👍🏽"]

    /// A random canvas: mostly a few symbols and styles, with wide and multi-scalar graphemes.
    static func randomCanvas(_ rng: inout SplitMix64, width: Int, height: Int, from base: CellCanvas? = nil)
        -> CellCanvas
    {
        var canvas = base ?? CellCanvas(width: width, height: height)
        let changes = base == nil ? width * height : Int(rng.next() % UInt64(width * height / 2 + 1))
        for _ in 0..<changes {
            let column = Int(rng.next() % UInt64(width))
            let row = Int(rng.next() % UInt64(height))
            let s = symbols[Int(rng.next() % UInt64(symbols.count))]
            var style = CellStyle(
                foreground: palette[Int(rng.next() % UInt64(palette.count))],
                background: rng.next() % 4 == 0 ? palette[Int(rng.next() % UInt64(palette.count))] : .default)
            style.attributes = CellAttributes(rawValue: UInt8(rng.next() % 4 == 0 ? rng.next() % 32 : 0))
            canvas.put(s, column: column, row: row, columns: ANSIScreen.width(of: s), style: style)
        }
        return canvas
    }

    @Test func applyingTheDiffOfBToAScreenShowingAYieldsB() {
        forAll(
            { rng -> [CellCanvas] in
                let width = Int(rng.next() % 12) + 2
                let height = Int(rng.next() % 5) + 1
                var frames = [ANSIEncoderTests.randomCanvas(&rng, width: width, height: height)]
                for _ in 0..<5 {
                    frames.append(ANSIEncoderTests.randomCanvas(&rng, width: width, height: height, from: frames.last!))
                }
                return frames
            }, count: 300
        ) { frames in
            var screen = ANSIScreen(width: frames[0].width, height: frames[0].height)
            var encoder = ANSIEncoder(capability: .trueColor)
            var previous: CellCanvas? = nil
            for frame in frames {
                var out: [UInt8] = []
                encoder.encodeFrame(from: previous, to: frame, into: &out)
                screen.apply(out)
                let d = differences(screen, frame)
                if !d.isEmpty {
                    Issue.record("\(d.prefix(5))\noutput: \(visibleEscapes(out))")
                    return false
                }
                previous = frame
            }
            return true
        }
    }

    @Test func anUnchangedFrameWritesNothing() {
        var rng = SplitMix64(seed: 7)
        let frame = ANSIEncoderTests.randomCanvas(&rng, width: 20, height: 5)
        var encoder = ANSIEncoder(capability: .trueColor)
        var out: [UInt8] = []
        encoder.encodeFrame(from: nil, to: frame, into: &out)
        #expect(!out.isEmpty)
        out.removeAll()
        encoder.encodeFrame(from: frame, to: frame, into: &out)
        #expect(out.isEmpty)
    }

    @Test func framesAreWrappedInSynchronizedOutput() {
        var canvas = CellCanvas(width: 4, height: 1)
        canvas.write("hi", column: 0, row: 0, style: .plain)
        var encoder = ANSIEncoder(capability: .trueColor)
        var out: [UInt8] = []
        encoder.encodeFrame(from: nil, to: canvas, into: &out)
        #expect(visibleEscapes(out) == "␛[?2026h␛[0m␛[H␛[2Jhi␛[?2026l")
    }

    @Test func oneChangedCellCostsOneMoveAndTheGlyph() {
        var a = CellCanvas(width: 10, height: 3)
        a.write("abcdefghij", column: 0, row: 1, style: .plain)
        var b = a
        b.put("X", column: 6, row: 1, style: .plain)
        var encoder = ANSIEncoder(capability: .trueColor, synchronized: false)
        var out: [UInt8] = []
        encoder.encodeFrame(from: nil, to: a, into: &out)
        out.removeAll()
        encoder.encodeFrame(from: a, to: b, into: &out)
        #expect(visibleEscapes(out) == "␛[2;7HX")
        // The cursor is known now: the cell two to the right needs one byte to get there
        // (writing the unchanged "h" again is shorter than CUF 1).
        var c = b
        c.put("Y", column: 8, row: 1, style: .plain)
        out.removeAll()
        encoder.encodeFrame(from: b, to: c, into: &out)
        #expect(visibleEscapes(out) == "hY")
    }

    @Test func sgrChangesOnlyWhatDiffers() {
        var canvas = CellCanvas(width: 6, height: 1)
        let red = CellStyle(foreground: .indexed(1))
        canvas.put("a", column: 0, row: 0, style: red)
        canvas.put("b", column: 1, row: 0, style: red)
        canvas.put("c", column: 2, row: 0, style: CellStyle(foreground: .indexed(1), attributes: .bold))
        canvas.put("d", column: 3, row: 0, style: CellStyle(foreground: .indexed(9)))
        var encoder = ANSIEncoder(capability: .palette16, synchronized: false)
        var out: [UInt8] = []
        encoder.encodeFrame(from: nil, to: canvas, into: &out)
        #expect(visibleEscapes(out) == "␛[0m␛[H␛[2J␛[31mab␛[1mc␛[0;91md")
    }

    @Test func aFullRedrawIsTheBaseline() {
        var rng = SplitMix64(seed: 3)
        let frame = ANSIEncoderTests.randomCanvas(&rng, width: 30, height: 6)
        var encoder = ANSIEncoder(capability: .trueColor)
        var full: [UInt8] = []
        encoder.encodeFullRedraw(frame, into: &full)
        var screen = ANSIScreen(width: 30, height: 6)
        screen.apply(full)
        #expect(differences(screen, frame).isEmpty)
    }
}
