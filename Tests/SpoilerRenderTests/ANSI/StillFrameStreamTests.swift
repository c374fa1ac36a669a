import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import Testing

/// The still frame of a long unwrapped message drawn a piece at a time
/// (``StillFrameWriter/writeMessage(_:engine:options:scene:write:)``).
@Suite struct StillFrameStreamTests {
    /// The still frame of `message` (unwrapped `mono`), and the grapheme count of each
    /// piece's layout (the work: each is laid out, simulated and drawn once).
    static func still(_ message: Message, glyphs: GlyphSet = .braille, wrap: Int? = nil) -> (String, [Int]) {
        var pieces: [Int] = []
        var out: [UInt8] = []
        StillFrameWriter.writeMessage(
            message, engine: LayoutEngine(wrapWidth: wrap),
            options: ANSIFrameOptions(capability: .none, glyphs: glyphs),
            scene: { layout in
                pieces.append(layout.graphemes.count)
                return SpoilerScene(layout: layout, preset: .dust, seed: 3)
            }, write: { out.append(contentsOf: $0) })
        return (String(decoding: out, as: UTF8.self), pieces)
    }

    /// `x ||ab cd ab cd …|| y`: one spoiler of `count` words on one line.
    static func oneSpoiler(words count: Int) -> Message {
        var text = "x "
        for i in 0..<count { text += i % 2 == 0 ? "ab " : "cd " }
        text.removeLast()
        let length = text.utf16.count - 2
        text += " y"
        return Message(text: text, entities: [Entity(.spoiler, offset: 2, length: length)])
    }

    /// `ab ab ab …`, each `ab` a spoiler of its own.
    static func manySpoilers(_ count: Int) -> Message {
        var text = ""
        var entities: [Entity] = []
        for _ in 0..<count {
            entities.append(Entity(.spoiler, offset: text.utf16.count, length: 2))
            text += "ab "
        }
        return Message(text: text, entities: entities)
    }

    /// Every cell of `row` under a letter of `text` holds dust or the mask (not a blank,
    /// not a letter); the letters of `visible` are shown as they are.
    static func expectMasked(
        _ row: Substring, text: String, visible: Set<Int>, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let cells = Array(row)
        let letters = Array(text)
        #expect(cells.count <= letters.count + 1, sourceLocation: sourceLocation)
        var bad = 0
        for (i, c) in letters.enumerated() where c != " " {
            let cell = i < cells.count ? cells[i] : " "
            if visible.contains(i) {
                if cell != c { bad += 1 }
            } else if cell == " " || cell.isLetter {
                bad += 1
            }
        }
        #expect(bad == 0, "\(bad) cells wrong", sourceLocation: sourceLocation)
    }

    @Test(arguments: [GlyphSet.braille, .blocks, .ascii])
    func aLongLineWithOneSpoilerIsMaskedAndComplete(glyphs: GlyphSet) throws {
        let message = StillFrameStreamTests.oneSpoiler(words: 30_000)  // 90 KB on one line
        let (output, pieces) = StillFrameStreamTests.still(message, glyphs: glyphs)
        #expect(pieces.count > 4)
        let rows = output.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(rows.count == 2 && rows[1].isEmpty)
        #expect(!output.contains("ab") && !output.contains("cd"))
        #expect(rows[0].hasPrefix("x ") && rows[0].hasSuffix(" y"))
        let count = message.text.count
        StillFrameStreamTests.expectMasked(rows[0], text: message.text, visible: [0, count - 1])
    }

    @Test func aLongLineOfManySpoilersIsMaskedAndComplete() throws {
        let message = StillFrameStreamTests.manySpoilers(30_000)
        let (output, pieces) = StillFrameStreamTests.still(message)
        #expect(pieces.count > 4)
        let rows = output.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(rows.count == 2)
        #expect(!output.contains("a") && !output.contains("b"))
        StillFrameStreamTests.expectMasked(rows[0], text: message.text, visible: [])
    }

    @Test func theWorkGrowsLinearlyAndEachPieceIsBounded() throws {
        var totals: [Int] = []
        for words in [10_000, 20_000, 40_000] {
            let message = StillFrameStreamTests.oneSpoiler(words: words)
            let (_, pieces) = StillFrameStreamTests.still(message)
            // Each piece is about pieceBytes long (cut after the next space), plus the tab pad.
            #expect(pieces.allSatisfy { $0 <= StillFrameWriter.pieceBytes + 16 }, "\(pieces.max() ?? 0)")
            // Every grapheme is laid out once (the pads are at most 7 a piece).
            let total = pieces.reduce(0, +)
            #expect(total >= message.text.count && total <= message.text.count + 7 * pieces.count)
            totals.append(total)
        }
        // Twice the text, twice the work (within the pads).
        #expect(abs(Double(totals[1]) / Double(totals[0]) - 2) < 0.01)
        #expect(abs(Double(totals[2]) / Double(totals[1]) - 2) < 0.01)
    }

    @Test func piecesJoinAsTheWholeLayoutDrawsText() throws {
        // No spoilers, so no dust: the pieces must add up to the whole frame exactly, with
        // wide and combining characters and blank lines across the cuts.
        var text = ""
        var i = 0
        while text.utf8.count < 8 * StillFrameWriter.pieceBytes {
            text += ["a  b", "漢字", "e\u{301}", "word ", "  ", "x"][i % 6]
            if i % 9973 == 0 { text += "\n" }
            if i % 4999 == 0 { text += "\n\n" }
            i += 1
        }
        text += "\n\n\n"
        let message = Message(text: text, entities: [Entity(.bold, offset: 10, length: 40_000)])
        let (output, pieces) = StillFrameStreamTests.still(message)
        #expect(pieces.count > 4)
        var options = ANSIFrameOptions(capability: .none)
        options.formatting = message.entities
        var expected: [UInt8] = []
        StillFrameWriter.writeMessage(
            layout: LayoutEngine().layout(message), options: options,
            scene: { SpoilerScene(layout: $0, preset: .dust, seed: 3) }, into: &expected)
        #expect(output == String(decoding: expected, as: UTF8.self))
    }

    @Test func colourAndFormattingAcrossPiecesMatchTheWholeFrame() throws {
        var text = String(repeating: "plain words and more ", count: 2000)
        text += "\n"
        let message = Message(text: text, entities: [Entity(.bold, offset: 100, length: 30_000)])
        var options = ANSIFrameOptions(capability: .trueColor)
        options.formatting = message.entities
        var out: [UInt8] = []
        StillFrameWriter.writeMessage(
            message, engine: LayoutEngine(), options: options,
            scene: { SpoilerScene(layout: $0, preset: .dust, seed: 3) }, write: { out.append(contentsOf: $0) })
        var expected: [UInt8] = []
        StillFrameWriter.writeMessage(
            layout: LayoutEngine().layout(message), options: options,
            scene: { SpoilerScene(layout: $0, preset: .dust, seed: 3) }, into: &expected)
        #expect(out == expected)
    }

    @Test func aShortMessageIsTheWholeFrameByteForByte() throws {
        let message = StillFrameStreamTests.oneSpoiler(words: 40)
        let (output, pieces) = StillFrameStreamTests.still(message)
        #expect(pieces.count == 1)
        var expected: [UInt8] = []
        StillFrameWriter.writeMessage(
            layout: LayoutEngine().layout(message), options: ANSIFrameOptions(capability: .none),
            scene: { SpoilerScene(layout: $0, preset: .dust, seed: 3) }, into: &expected)
        #expect(output == String(decoding: expected, as: UTF8.self))
    }

    /// The whole layout's frame of `message` (no streaming), for comparison.
    static func whole(_ message: Message, wrap: Int?, capability: ColorCapability = .none) -> String {
        var options = ANSIFrameOptions(capability: capability)
        options.formatting = message.entities
        var expected: [UInt8] = []
        StillFrameWriter.writeMessage(
            layout: LayoutEngine(wrapWidth: wrap).layout(message), options: options,
            scene: { SpoilerScene(layout: $0, preset: .dust, seed: 3) }, into: &expected)
        return String(decoding: expected, as: UTF8.self)
    }

    /// Text that is hard to wrap: wide and combining characters, tabs, runs of spaces, words
    /// longer than a row, blank lines and a CR LF, `bytes` long or more.
    static func hardText(bytes: Int) -> String {
        var text = ""
        var i = 0
        while text.utf8.count < bytes {
            text +=
                ["a  b", "漢字", "e\u{301}", "word ", "   ", "x", "\t", String(repeating: "long", count: 30), " "][i % 9]
            if i % 997 == 0 { text += "\n" }
            if i % 4999 == 0 { text += "\n\n" }
            if i % 7919 == 0 { text += "\r\n" }
            i += 1
        }
        return text + "\n\n"
    }

    /// Wrapped, the pieces' rows are the whole layout's rows, byte for byte, at any width.
    @Test(arguments: [1, 7, 80, 333])
    func wrappedPiecesAreTheWholeFrame(width: Int) throws {
        let text = StillFrameStreamTests.hardText(bytes: 6 * StillFrameWriter.pieceBytes)
        let message = Message(text: text, entities: [Entity(.bold, offset: 10, length: 40_000)])
        let (output, pieces) = StillFrameStreamTests.still(message, wrap: width)
        #expect(pieces.count > 4)
        #expect(output == StillFrameStreamTests.whole(message, wrap: width))
    }

    @Test func wrappedColourAndFormattingMatchTheWholeFrame() throws {
        let text = String(repeating: "plain words and more ", count: 3000) + "\n"
        let message = Message(text: text, entities: [Entity(.italic, offset: 100, length: 30_000)])
        var options = ANSIFrameOptions(capability: .trueColor)
        options.formatting = message.entities
        var out: [UInt8] = []
        StillFrameWriter.writeMessage(
            message, engine: LayoutEngine(wrapWidth: 50), options: options,
            scene: { SpoilerScene(layout: $0, preset: .dust, seed: 3) }, write: { out.append(contentsOf: $0) })
        #expect(
            String(decoding: out, as: UTF8.self)
                == StillFrameStreamTests.whole(message, wrap: 50, capability: .trueColor))
    }

    /// A long spoiler wrapped at 80 columns: every row masked where the whole layout has
    /// letters, no hidden letter written, each piece bounded and the work linear.
    @Test(arguments: [GlyphSet.braille, .blocks, .ascii])
    func aLongWrappedSpoilerIsMaskedAndComplete(glyphs: GlyphSet) throws {
        let message = StillFrameStreamTests.oneSpoiler(words: 30_000)
        let (output, pieces) = StillFrameStreamTests.still(message, glyphs: glyphs, wrap: 80)
        #expect(pieces.count > 4)
        #expect(pieces.allSatisfy { $0 <= 2 * StillFrameWriter.pieceBytes }, "\(pieces.max() ?? 0)")
        #expect(!output.contains("ab") && !output.contains("cd"))
        let rows = output.split(separator: "\n", omittingEmptySubsequences: false)
        let wholeLayout = LayoutEngine(wrapWidth: 80).layout(message)
        try #require(rows.count == wholeLayout.lines.count + 1)
        for line in wholeLayout.lines {
            let units = Array(message.text.utf16)[line.utf16Offset..<(line.utf16Offset + line.utf16Length)]
            let lineText = String(decoding: units, as: UTF16.self)
            var visible: Set<Int> = []
            if line.index == 0 { visible.insert(0) }
            if line.index == wholeLayout.lines.count - 1 { visible.insert(lineText.count - 1) }
            StillFrameStreamTests.expectMasked(rows[line.index], text: lineText, visible: visible)
        }
        // Each grapheme is laid out about once: the left-out last row of each piece again.
        let total = pieces.reduce(0, +)
        #expect(total >= message.text.count && total <= message.text.count + 81 * pieces.count)
    }

    /// A long line among many short ones, unwrapped and wrapped: no piece spans much more
    /// than 131,072 cells (once 9,000 columns × 1,800 rows), and every row is there, the
    /// hidden word masked.
    @Test(arguments: [nil, 100_000])
    func aLongLineAmongManyRowsComesInSmallPieces(wrap: Int?) throws {
        let text = String(repeating: "a", count: 9_000) + String(repeating: "\n", count: 1_800) + "b ||x||"
        let message = Message(text: text, entities: [Entity(.spoiler, offset: text.utf16.count - 3, length: 1)])
        var largest = 0
        var out: [UInt8] = []
        StillFrameWriter.writeMessage(
            message, engine: LayoutEngine(wrapWidth: wrap), options: ANSIFrameOptions(capability: .none),
            scene: { layout in
                largest = max(largest, (layout.columns ?? 0) * (layout.rows ?? 0))
                return SpoilerScene(layout: layout, preset: .dust, seed: 3)
            }, write: { out.append(contentsOf: $0) })
        #expect(largest > 0 && largest <= 140_000)
        let rows = String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(rows.count == 1_802)
        #expect(rows.first == String(repeating: "a", count: 9_000)[...])
        let blank = rows.dropFirst().dropLast(2).allSatisfy { $0.isEmpty }
        #expect(blank)
        #expect(rows[1_800].hasPrefix("b ") && !rows[1_800].contains("x"))
    }

    /// A row wider than a piece: the piece is taken longer until a row ends in it.
    @Test func aRowWiderThanAPieceIsWholeToo() throws {
        let text = String(repeating: "wide words ", count: 6000)
        let message = Message(text: text, entities: [Entity(.spoiler, offset: 0, length: 5)])
        let width = 3 * StillFrameWriter.pieceBytes
        let (output, pieces) = StillFrameStreamTests.still(message, wrap: width)
        #expect(pieces.count >= 2)
        let rows = output.split(separator: "\n")
        #expect(rows.count == LayoutEngine(wrapWidth: width).layout(message).lines.count)
        #expect(
            rows.dropFirst().joined()
                == StillFrameStreamTests.whole(message, wrap: width).split(separator: "\n").dropFirst().joined())
    }
}
