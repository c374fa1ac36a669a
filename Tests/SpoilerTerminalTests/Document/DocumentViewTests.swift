import Glibc
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTerminal
import Synchronization
import Testing

/// The reader over a document read a chunk at a time
/// (``SpoilerTerminalView/init(document:size:options:layout:scene:)``) against the reader
/// over the whole message: the same screens at the same places, the same search hits.
@Suite struct DocumentViewTests {
    /// `||x||` as a spoiler, nothing else; a stand-in for the plain parser (spoilers do not
    /// cross chunks here).
    static func parse(_ text: String) -> Message {
        var out = ""
        var entities: [Entity] = []
        var open: Int?
        var rest = Substring(text)
        while let r = rest.range(of: "||") {
            out += rest[..<r.lowerBound]
            if let o = open {
                entities.append(Entity(.spoiler, offset: o, length: out.utf16.count - o))
                open = nil
            } else {
                open = out.utf16.count
            }
            rest = rest[r.upperBound...]
        }
        out += rest
        return Message(text: out, entities: entities)
    }

    /// Paragraphs of numbered words, a few hidden, some of several lines.
    static let text: String = {
        var rng = SplitMix64(seed: 11)
        var paragraphs: [String] = []
        for p in 0..<60 {
            var words: [String] = ["p\(p)"]
            for w in 0..<Int(5 + rng.next() % 50) {
                words.append(rng.next() % 9 == 0 ? "||h\(p)x\(w)||" : "w\(p)x\(w)")
            }
            var para = words.joined(separator: " ")
            if rng.next() % 3 == 0 { para += "\nsecond line of p\(p)" }
            paragraphs.append(para)
        }
        return paragraphs.joined(separator: "\n\n") + "\n"
    }()

    static let size = TerminalSize(columns: 50, rows: 12)

    static func options() -> SpoilerTerminalView.Options {
        var o = SpoilerTerminalView.Options(frame: ANSIFrameOptions(capability: .none, glyphs: .braille))
        o.reader = ReaderOptions(theme: .mono)
        return o
    }

    static func layout(_ size: TerminalSize, _ message: Message) -> TextLayout {
        LayoutEngine(wrapWidth: ReaderOptions(theme: .mono).textWidth(columns: size.columns)).layout(message)
    }

    static func scene(_ layout: TextLayout) -> SpoilerScene {
        SpoilerScene(words: ANSIFrameBuilder.sceneWords(for: layout), preset: .dust, seed: 5)
    }

    static func eager() -> SpoilerTerminalView {
        var whole = text
        whole.removeLast()
        let message = parse(whole)
        var o = options()
        o.frame.formatting = message.entities
        return SpoilerTerminalView(
            size: size, options: o, layout: { DocumentViewTests.layout($0, message) }, scene: DocumentViewTests.scene)
    }

    static func lazy(minimumBytes: Int = 200) -> SpoilerTerminalView {
        let document = ChunkedDocument(
            bytes: Array(text.utf8), rule: .paragraphs, minimumBytes: minimumBytes, maximumBytes: 4096,
            separator: "\n"
        ) { bytes, _ in DocumentViewTests.parse(String(decoding: bytes, as: UTF8.self)) }
        return SpoilerTerminalView(
            document: document, size: size, options: options(), layout: DocumentViewTests.layout,
            scene: DocumentViewTests.scene)
    }

    /// The text rows of a frame, dust (braille) shown as blanks, the bar left out.
    static func textRows(_ canvas: CellCanvas) -> [String] {
        (0..<(canvas.height - 1)).map { row in
            String(
                canvas.text(row: row).unicodeScalars.map { (0x2800...0x28FF).contains($0.value) ? " " : Character($0) })
        }
    }

    /// Presses `keys` on both views, a tenth of a second apart ("wait": three seconds pass;
    /// "k!": the key, its screen not compared), and expects the same text rows after each
    /// (then calls `each`); the time reached.
    @discardableResult
    static func pressAndCompare(
        _ keys: [String], _ eager: inout SpoilerTerminalView, _ lazy: inout SpoilerTerminalView,
        each: (SpoilerTerminalView, SpoilerTerminalView) -> Void = { _, _ in }
    ) -> Double {
        var t = 0.0
        #expect(textRows(eager.frame(at: t)) == textRows(lazy.frame(at: t)))
        for k in keys {
            t += 0.1
            if k == "wait" {
                // Until the glide to the top, or the reveal wave, is over.
                t += 3
            } else {
                eager.key(key(String(k.prefix(while: { $0 != "!" }))), at: t)
                lazy.key(key(String(k.prefix(while: { $0 != "!" }))), at: t)
            }
            let e = textRows(eager.frame(at: t))
            let l = textRows(lazy.frame(at: t))
            // "g!": the glide to the top starts two screens above it in a document.
            if k.hasSuffix("!") { continue }
            #expect(e == l, "after \(keys) at \(k):\n\(e.joined(separator: "\n"))\n---\n\(l.joined(separator: "\n"))")
            if e != l { return t }
            each(eager, lazy)
        }
        return t
    }

    static func key(_ k: String) -> TerminalKey {
        switch k {
        case "End": .end
        case "Home": .home
        case "PgDn": .pageDown
        case "PgUp": .pageUp
        case "Down": .down
        case "Up": .up
        case "Enter": .enter
        case "Tab": .tab
        default: .character(Character(k))
        }
    }

    @Test(arguments: [
        ["j", "j", "j"], ["PgDn", "PgDn", "PgDn", "PgDn", "PgDn", "PgDn", "PgDn"],
        ["End"], ["End", "PgUp", "PgUp", "k"], ["End", "Home"], ["End", "g!", "wait"],
        Array(repeating: "PgDn", count: 40) + ["PgUp", "PgUp"],
        ["/", "w", "3", "0", "x", "Enter"], ["/", "w", "3", "0", "x", "Enter", "n", "n", "N"],
        ["End", "/", "p", "1", "Enter", "N", "N"], ["/", "w", "4", "4", "x", "Enter", "n", "n", "n"],
        ["/", "h", "2", "Enter"], ["r", "wait", "/", "h", "2", "Enter", "n", "wait", "End", "wait"],
        ["j", "Tab", "Enter", "wait", "PgDn"], ["d", "d", "u", "f", "b"],
    ])
    func theLazyReaderShowsWhatTheWholeOneShows(_ keys: [String]) throws {
        var eager = DocumentViewTests.eager()
        var lazy = DocumentViewTests.lazy()
        var t = DocumentViewTests.pressAndCompare(keys, &eager, &lazy) { eager, lazy in
            let top = eager.firstVisibleRow
            if let m = eager.searchMatch, m.row >= top, m.row < top + 11 {
                #expect(lazy.searchMatch.map { $0.column } == m.column)
                #expect(lazy.searchMatch.map { $0.row - lazy.firstVisibleRow } == m.row - top)
            }
        }
        t += 2
        eager.key(.end, at: t)
        lazy.key(.end, at: t)
        _ = eager.frame(at: t + 0.1)
        _ = lazy.frame(at: t + 0.1)
        #expect(lazy.readFraction == 1 && eager.readFraction == 1)
    }

    @Test func thePercentageCountsBytesAndEndsAt100() throws {
        var lazy = DocumentViewTests.lazy()
        _ = lazy.frame(at: 0)
        #expect(lazy.readFraction == 0)
        var last = 0.0
        for i in 1...30 {
            lazy.key(.pageDown, at: Double(i) * 0.1)
            _ = lazy.frame(at: Double(i) * 0.1)
            #expect(lazy.readFraction >= last)
            last = lazy.readFraction
        }
        #expect(last > 0.2 && last < 1)
        lazy.key(.end, at: 4)
        _ = lazy.frame(at: 4)
        #expect(lazy.readFraction == 1)
        lazy.key(.home, at: 5)
        _ = lazy.frame(at: 5)
        #expect(lazy.readFraction == 0)
    }

    @Test func onlyTheChunksNearTheScreenAreLaidOut() throws {
        var lazy = DocumentViewTests.lazy()
        _ = lazy.frame(at: 0)
        let whole = DocumentViewTests.eager().layout.rows ?? 0
        #expect((lazy.layout.rows ?? 0) < whole / 3, "\(lazy.layout.rows ?? 0) of \(whole)")
        lazy.key(.end, at: 1)
        _ = lazy.frame(at: 1)
        #expect((lazy.layout.rows ?? 0) < whole / 3)
    }

    @Test func theChunksAreCutAfterBlankLinesAndJoinAsTheText() throws {
        let document = ChunkedDocument(
            bytes: Array(DocumentViewTests.text.utf8), rule: .paragraphs, minimumBytes: 200, separator: "\n"
        ) { bytes, _ in Message(text: String(decoding: bytes, as: UTF8.self)) }
        var joined: [String] = []
        var i = 0
        while let c = document.chunk(at: i) {
            joined.append(c.message.text)
            if i > 0 { #expect(c.bytes.lowerBound == document.chunk(at: i - 1)!.bytes.upperBound) }
            i += 1
        }
        #expect(i == document.chunkCount && i > 10)
        var whole = DocumentViewTests.text
        whole.removeLast()
        #expect(joined.joined(separator: "\n") == whole)
    }
}

extension DocumentViewTests {
    /// Parts far apart (about 80 KB), in chunks of 4 KB: `/` and `n` put each match at
    /// the top of the screen, `N` goes back.
    @Test func aSearchReadsOnThroughTheChunksAndPutsTheMatchAtTheTop() throws {
        var text = ""
        for part in 0..<6 {
            text += "=== part \(part) ===\n\n"
            for p in 0..<40 {
                text += (0..<60).map { "w\(part)x\(p)x\($0)" }.joined(separator: " ") + "\n\n"
            }
        }
        let document = ChunkedDocument(bytes: Array(text.utf8), rule: .paragraphs, separator: "\n") { bytes, _ in
            DocumentViewTests.parse(String(decoding: bytes, as: UTF8.self))
        }
        var lazy = SpoilerTerminalView(
            document: document, size: TerminalSize(columns: 80, rows: 24), options: DocumentViewTests.options(),
            layout: DocumentViewTests.layout, scene: DocumentViewTests.scene)
        var t = 0.0
        var tops: [String] = []
        for k in ["/", "=", "=", " ", "p", "Enter", "n", "n", "n", "N", "N"] {
            t += 0.1
            lazy.key(DocumentViewTests.key(k), at: t)
            tops.append(DocumentViewTests.textRows(lazy.frame(at: t))[0])
        }
        let expected = [0, 1, 2, 3, 2, 1].map { "  === part \($0) ===" }
        #expect(Array(tops.suffix(6)) == expected)
        #expect((lazy.layout.rows ?? 0) < 400)
    }
}

extension DocumentViewTests {
    /// A file of several index blocks indexed on a worker while the reader's own calls go
    /// on: the same chunks, in the same places, as an index built only on demand.
    @Test(arguments: [ChunkBoundaryScanner.Rule.paragraphs, .markdownBlocks])
    func anIndexBuiltInTheBackgroundIsTheLazyOne(rule: ChunkBoundaryScanner.Rule) throws {
        var bytes: [UInt8] = []
        while bytes.count < 3 << 20 + 12_345 { bytes += Array(DocumentViewTests.text.utf8) + [0x0A] }
        let parse: ChunkedDocument.Parse = { bytes, _ in Message(text: String(decoding: bytes, as: UTF8.self)) }
        let lazy = ChunkedDocument(bytes: bytes, rule: rule, separator: "\n", parse: parse)
        let background = ChunkedDocument(bytes: bytes, rule: rule, separator: "\n", parse: parse)
        #expect(!background.isIndexed)
        background.indexInBackground()
        // The reader reads on meanwhile.
        for i in stride(from: 0, to: 600, by: 37) {
            #expect(background.chunk(at: i)?.bytes == lazy.chunk(at: i)?.bytes)
        }
        var waited = 0
        while !background.isIndexed && waited < 3000 {
            usleep(10_000)
            waited += 1
        }
        #expect(background.isIndexed)
        #expect(!lazy.isIndexed)
        let count = lazy.chunkCount
        #expect(background.chunkCount == count && count > 600)
        for i in [0, 1, count / 2, count - 2, count - 1] {
            #expect(background.chunk(at: i) == lazy.chunk(at: i))
        }
        #expect(background.chunk(at: count) == nil)
    }
}

/// A document whose index is said to be built off the loop until the test lets it be done.
final class GatedDocument: ReaderDocument {
    let inner: ChunkedDocument
    let indexing = Mutex(true)
    init(_ inner: ChunkedDocument) { self.inner = inner }
    var byteCount: Int { inner.byteCount }
    var separator: String { inner.separator }
    func chunk(at index: Int) -> ReaderChunk? { inner.chunk(at: index) }
    var chunkCount: Int { inner.chunkCount }
    var isIndexingInBackground: Bool { indexing.withLock { $0 } }
}

extension DocumentViewTests {
    /// While the index is built off the loop, End is answered at once: the screen says it
    /// is finding the end and keeps answering keys; once the index is done the next frame
    /// is at the end, unless a scroll came first.
    @Test(arguments: [false, true])
    func endWaitsForABackgroundIndexWithoutHoldingKeys(scrolledMeanwhile: Bool) throws {
        let gated = GatedDocument(
            ChunkedDocument(
                bytes: Array(DocumentViewTests.text.utf8), rule: .paragraphs, minimumBytes: 200, separator: "\n"
            ) { bytes, _ in DocumentViewTests.parse(String(decoding: bytes, as: UTF8.self)) })
        var view = SpoilerTerminalView(
            document: gated, size: DocumentViewTests.size, options: DocumentViewTests.options(),
            layout: DocumentViewTests.layout, scene: DocumentViewTests.scene)
        _ = view.frame(at: 0)
        view.key(.end, at: 0.1)
        let waiting = view.frame(at: 0.1)
        #expect(view.readFraction < 1)
        #expect((0..<waiting.height).contains { waiting.text(row: $0).contains("finding the end…") })
        #expect(view.nextChange(after: 0.1).map { $0 < 0.2 } == true)
        #expect(view.handle(.key(.character("q")), at: 0.12) == .quit)
        if scrolledMeanwhile {
            view.key(.pageDown, at: 0.15)
            _ = view.frame(at: 0.15)
        }
        gated.indexing.withLock { $0 = false }
        let done = view.frame(at: 0.2)
        #expect(!(0..<done.height).contains { done.text(row: $0).contains("finding the end…") })
        if scrolledMeanwhile {
            #expect(view.readFraction < 1)
        } else {
            #expect(view.readFraction == 1)
        }
    }
}
