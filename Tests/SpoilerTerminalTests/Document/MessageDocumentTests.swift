import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import Testing

/// One long message read a chunk at a time (``MessageDocument``): the chunks put back
/// together are the message, every entity over them, and the view shows what the view of
/// the whole message shows.
@Suite struct MessageDocumentTests {
    /// Texts that cut in each way: short lines, CRLF, a long line of words, a long run of
    /// CJK without a space, emoji sequences, a line break at the very end, nothing.
    static let texts: [String] = {
        var rng = SplitMix64(seed: 3)
        func words(_ n: Int, _ pool: [String]) -> String {
            (0..<n).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }.joined(separator: " ")
        }
        let latin = ["alpha", "beta", "gamma", "naïve", "café", "x"]
        // A word that starts with a combining accent joins the space before it.
        let emoji = ["👩‍👩‍👧", "🇺🇦", "👍🏽", "e\u{301}", "한국어", "\u{301}x"]
        var lines: [String] = []
        for i in 0..<400 { lines.append(words(Int(rng.next() % 30), latin) + (i % 7 == 0 ? "\n" : "")) }
        return [
            lines.joined(separator: "\n"),
            lines.joined(separator: "\r\n"),
            words(30_000, latin),
            String(repeating: "秘密映画結局", count: 8_000),
            words(20_000, emoji) + "\n" + words(100, latin),
            lines.joined(separator: "\n") + "\n",
            "",
            "\n\n\n",
        ]
    }()

    /// Entities over `text`: every few words hidden, a bold run, and one spoiler over
    /// most of the text.
    static func message(_ text: String) -> Message {
        let n = text.utf16.count
        var entities: [Entity] = []
        var offset = 0
        var k = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let units = word.utf16.count
            if k % 4 == 1 && units > 0 { entities.append(Entity(.spoiler, offset: offset, length: units)) }
            if k % 50 == 7 { entities.append(Entity(.bold, offset: offset, length: min(n - offset, 200))) }
            offset += units + 1
            k += 1
        }
        if n > 10 { entities.append(Entity(.italic, offset: 3, length: n - 6)) }
        entities.sort { $0.offset < $1.offset }
        return Message(text: text, entities: entities)
    }

    /// For each UTF-16 unit, the entity types over it.
    static func coverage(_ entities: [Entity], units: Int) -> [[String]] {
        var out = Array(repeating: [String](), count: units)
        for e in entities {
            for u in e.offset..<min(units, e.offset + e.length) { out[u].append("\(e.type)") }
        }
        return out.map { $0.sorted() }
    }

    @Test(arguments: 0..<8)
    func theChunksPutBackTogetherAreTheMessage(_ which: Int) throws {
        let message = Self.message(Self.texts[which])
        let document = MessageDocument(message, minimumBytes: 300, maximumBytes: 2000)
        let bytes = Array(message.text.utf8)
        #expect(document.byteCount == bytes.count)
        let chunks = (0..<document.chunkCount).map { document.chunk(at: $0)! }
        #expect(document.chunk(at: chunks.count) == nil)
        // The chunks' bytes and what is between them (a line break, or nothing) are the text.
        var rebuilt: [UInt8] = []
        var units: [[String]] = []
        var glueUnits: Set<Int> = []
        for (i, chunk) in chunks.enumerated() {
            #expect(Array(chunk.message.text.utf8) == Array(bytes[chunk.bytes]))
            rebuilt += chunk.message.text.utf8
            units += Self.coverage(chunk.message.entities, units: chunk.message.text.utf16.count)
            let next = i + 1 < chunks.count ? chunks[i + 1].bytes.lowerBound : bytes.count
            let glue = Array(bytes[chunk.bytes.upperBound..<next])
            #expect(glue == [] || glue == [0x0A] || glue == [0x0D, 0x0A])
            if glue == [] && i + 1 < chunks.count {
                // Cut without a line break: only past the longest a chunk may be.
                #expect(chunk.bytes.count > 1000)
            } else if i + 1 < chunks.count {
                #expect(chunk.bytes.count + glue.count >= 300)
            }
            for _ in glue {
                glueUnits.insert(units.count)
                units.append([])
                rebuilt.append(0)
            }
            #expect(chunk.bytes.count <= 2000)
        }
        #expect(rebuilt.count == bytes.count)
        #expect(zip(rebuilt, bytes).allSatisfy { $0 == $1 || $0 == 0 })
        // Every unit but the line breaks cut at is under the entities it was under.
        let whole = Self.coverage(message.entities, units: message.text.utf16.count)
        #expect(units.count == whole.count)
        let differing = (0..<min(units.count, whole.count)).filter { !glueUnits.contains($0) && units[$0] != whole[$0] }
        #expect(differing.count == 0, "first at \(differing.first ?? -1)")
        // Every chunk starts where a character does.
        var boundaries: Set<Int> = []
        var offset = 0
        for c in message.text {
            boundaries.insert(offset)
            offset += c.utf8.count
        }
        boundaries.insert(offset)
        #expect(chunks.allSatisfy { boundaries.contains($0.bytes.lowerBound) })
    }

    /// The view of the message read a chunk at a time shows, after each key, what the view
    /// of the whole message shows.
    @Test(arguments: [
        ["j", "j", "j"], ["PgDn", "PgDn", "PgDn", "PgDn", "PgDn", "PgDn", "PgDn"], ["End"],
        ["End", "PgUp", "PgUp", "k"], ["End", "Home"], Array(repeating: "PgDn", count: 40) + ["PgUp", "PgUp"],
        ["j", "Tab", "Enter", "wait", "PgDn"], ["r", "wait", "End", "wait"],
    ])
    func theViewShowsWhatTheWholeMessagesViewShows(_ keys: [String]) throws {
        for crlf in [false, true] {
            try theViewShowsWhatTheWholeMessagesViewShows(keys, crlf: crlf)
        }
    }

    func theViewShowsWhatTheWholeMessagesViewShows(_ keys: [String], crlf: Bool) throws {
        var whole = DocumentViewTests.text
        whole.removeLast()
        if crlf { whole = whole.replacing("\n", with: "\r\n") }
        let message = DocumentViewTests.parse(whole)
        var o = DocumentViewTests.options()
        o.frame.formatting = message.entities
        var eager = SpoilerTerminalView(
            size: DocumentViewTests.size, options: o, layout: { DocumentViewTests.layout($0, message) },
            scene: DocumentViewTests.scene)
        var lazy = SpoilerTerminalView(
            document: MessageDocument(message, minimumBytes: 200, maximumBytes: 4096), size: DocumentViewTests.size,
            options: DocumentViewTests.options(), layout: DocumentViewTests.layout, scene: DocumentViewTests.scene)
        DocumentViewTests.pressAndCompare(keys, &eager, &lazy)
        #expect((lazy.layout.rows ?? 0) < (eager.layout.rows ?? 0) / 2)
    }

    /// Scope `message` over one message kept a chunk at a time: a click reveals the whole
    /// message, the chunks far from the screen too; scope `spoiler` reveals only its word.
    @Test(arguments: [RevealScope.message, .spoiler])
    func aClickOfScopeMessageRevealsTheChunksNotLaidOut(scope: RevealScope) throws {
        var whole = DocumentViewTests.text
        whole.removeLast()
        let message = DocumentViewTests.parse(whole)
        var view = SpoilerTerminalView(
            document: MessageDocument(message, minimumBytes: 200, maximumBytes: 4096), size: DocumentViewTests.size,
            options: DocumentViewTests.options(), layout: DocumentViewTests.layout,
            scene: { layout in
                var options = SceneOptions()
                options.revealScope = scope
                return SpoilerScene(
                    words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, options: options, seed: 5)
            })
        // A click on the first cell of dust on the first screen.
        let first = view.frame(at: 0)
        var cell: (column: Int, row: Int)?
        for r in 0..<first.height where cell == nil {
            let scalars = Array(first.text(row: r).unicodeScalars)
            if let c = scalars.firstIndex(where: { (0x2801...0x28FF).contains($0.value) }) { cell = (c, r) }
        }
        let (column, row) = try #require(cell)
        view.handle(.mouse(MouseEvent(kind: .press, button: 0, column: column, row: row)), at: 0.1)
        view.key(.end, at: 3)
        let end = view.frame(at: 6)
        // Dust left on the last screen, far from the click (the bar below it left out).
        let dust = (0..<(end.height - 1)).contains { r in
            end.text(row: r).unicodeScalars.contains { (0x2801...0x28FF).contains($0.value) }
        }
        #expect(dust == (scope != .message))
    }
}
