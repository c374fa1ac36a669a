import SpoilerCore
import SpoilerTerminal
import SpoilerTestSupport
import Testing

@Suite struct InputDecoderTests {
    static func decodeAll(_ bytes: [UInt8]) -> [InputEvent] {
        var d = InputDecoder()
        return d.feed(bytes) + d.finish()
    }

    static func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var events: [InputEvent]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "letters", input: "qrh",
            events: [.key(.character("q")), .key(.character("r")), .key(.character("h"))]),
        Case(
            name: "arrows CSI", input: "\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D",
            events: [.key(.up), .key(.down), .key(.right), .key(.left)]),
        Case(name: "arrows SS3", input: "\u{1B}OA\u{1B}OD", events: [.key(.up), .key(.left)]),
        Case(name: "modified arrow", input: "\u{1B}[1;5C", events: [.key(.right)]),
        Case(
            name: "tab, backtab, enter", input: "\t\u{1B}[Z\r\n",
            events: [.key(.tab), .key(.backTab), .key(.enter), .key(.enter)]),
        Case(name: "ctrl-c", input: "\u{03}", events: [.key(.control("c"))]),
        Case(name: "lone escape", input: "\u{1B}", events: [.key(.escape)]),
        Case(name: "escape escape", input: "\u{1B}\u{1B}[A", events: [.key(.escape), .key(.up)]),
        Case(
            name: "page keys", input: "\u{1B}[5~\u{1B}[6~\u{1B}[3~",
            events: [.key(.pageUp), .key(.pageDown), .key(.delete)]),
        Case(
            name: "SGR mouse press and release", input: "\u{1B}[<0;12;3M\u{1B}[<0;12;3m",
            events: [
                .mouse(MouseEvent(kind: .press, button: 0, column: 11, row: 2)),
                .mouse(MouseEvent(kind: .release, button: 0, column: 11, row: 2)),
            ]),
        Case(
            name: "SGR wheel", input: "\u{1B}[<64;1;1M\u{1B}[<65;300;200M",
            events: [
                .mouse(MouseEvent(kind: .wheelUp, button: 0, column: 0, row: 0)),
                .mouse(MouseEvent(kind: .wheelDown, button: 1, column: 299, row: 199)),
            ]),
        Case(name: "legacy mouse is consumed", input: "\u{1B}[M !!q", events: [.unknown, .key(.character("q"))]),
        Case(
            name: "UTF-8", input: "é漢😀", events: [.key(.character("é")), .key(.character("漢")), .key(.character("😀"))]),
        Case(name: "focus in and out", input: "\u{1B}[I\u{1B}[O", events: [.focus(true), .focus(false)]),
        Case(name: "unknown CSI", input: "\u{1B}[200~x", events: [.unknown, .key(.character("x"))]),
    ]

    @Test(arguments: cases) func decodes(_ c: Case) {
        #expect(InputDecoderTests.decodeAll(InputDecoderTests.bytes(c.input)) == c.events)
    }

    @Test func invalidUTF8IsUnknownNotATrap() {
        #expect(
            InputDecoderTests.decodeAll([0xFF, 0xC3, 0x41, 0xE2, 0x82])
                == [.unknown, .unknown, .key(.character("A")), .unknown])
    }

    @Test func anOverlongSequenceIsNotSwallowed() {
        let input = [0x1B, UInt8(ascii: "[")] + Array(repeating: UInt8(ascii: "1"), count: 100) + [UInt8(ascii: "q")]
        let events = InputDecoderTests.decodeAll(input)
        #expect(events.first == .unknown)
        #expect(events.last == .key(.character("q")))
    }

    /// A sequence whose final byte is its 65th (the longest accepted, as the fuzzer found):
    /// whole, it is one event; fed a byte at a time, the decoder must wait for that byte
    /// rather than give up on the 64 before it. One byte longer, it is no sequence either way.
    @Test func theLongestSequenceIsTheSameByteByByte() {
        for (pluses, isSequence) in [(61, true), (62, false)] {
            let input = Self.bytes("\u{1B}[0") + Array(repeating: UInt8(ascii: "+"), count: pluses) + Self.bytes("F")
            let whole = InputDecoderTests.decodeAll(input)
            var decoder = InputDecoder()
            var single: [InputEvent] = []
            for b in input { single += decoder.feed([b]) }
            single += decoder.finish()
            #expect(single == whole, "\(pluses) parameter bytes")
            #expect((whole == [InputEvent.key(.end)]) == isSequence, "\(pluses) parameter bytes")
        }
    }

    /// The fuzzer's input (Fixtures/fuzz/input-decoder): the same events whole and byte by byte.
    @Test func theFuzzersInputDecodesTheSameByteByByte() throws {
        let input = [UInt8](try fixtureData("fuzz/input-decoder/longest-csi-sequence.bin"))
        var decoder = InputDecoder()
        var single: [InputEvent] = []
        for b in input { single += decoder.feed([b]) }
        single += decoder.finish()
        #expect(single == InputDecoderTests.decodeAll(input))
    }

    /// Pieces the property draws from: complete sequences, and bytes that make broken ones.
    static let pieces: [[UInt8]] =
        cases.map { bytes($0.input) } + [
            [0x1B], [0x1B, UInt8(ascii: "[")], [0x1B, UInt8(ascii: "O")], [0xE6, 0xBC], [0x9B], [0x00], [0x7F],
            bytes("\u{1B}[<2;5;5M"), bytes("\u{1B}[<35;9;9M"), bytes("\u{1B}[12;"),
        ]

    @Test func anyChunkingOfTheInputYieldsTheSameEvents() {
        forAll(
            { rng -> ([UInt8], [Int]) in
                var input: [UInt8] = []
                for _ in 0..<Int(rng.next() % 12) + 1 {
                    input += InputDecoderTests.pieces[Int(rng.next() % UInt64(InputDecoderTests.pieces.count))]
                }
                var cuts: [Int] = []
                for i in 1..<max(2, input.count) where rng.next() % 3 == 0 { cuts.append(i) }
                return (input, cuts)
            }, count: 1000
        ) { input, cuts in
            let whole = InputDecoderTests.decodeAll(input)
            var decoder = InputDecoder()
            var events: [InputEvent] = []
            var start = 0
            for cut in cuts + [input.count] where cut >= start {
                events += decoder.feed(input[start..<cut])
                start = cut
            }
            events += decoder.finish()
            return events == whole
        }
    }

    @Test func everyByteSplitYieldsTheSameEvents() {
        let input = InputDecoderTests.pieces.flatMap { $0 }
        let whole = InputDecoderTests.decodeAll(input)
        var decoder = InputDecoder()
        var events: [InputEvent] = []
        for b in input { events += decoder.feed([b]) }
        events += decoder.finish()
        #expect(events == whole)
    }
}
