import SpoilerKit
import Testing

/// ``SpoilerView``: frames as Strings by the caller's clock, clicks, and when to stop.
@Suite("SpoilerView")
struct SpoilerViewTests {
    static func view() throws -> SpoilerView {
        try SpoilerView(Message(parsing: "the butler ||did it||"), capability: .none)
    }

    /// The text of an SVG's `<text>` elements, in order.
    static func svgText(_ svg: String) -> String {
        var out = ""
        var rest = svg[...]
        while let open = rest.firstRange(of: "<text") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstIndex(of: ">"), let end = rest.firstRange(of: "</text>") else { break }
            out += rest[rest.index(after: close)..<end.lowerBound]
            rest = rest[end.upperBound...]
        }
        return out
    }

    @Test("Before a click the hidden words are dust, in ANSI and in SVG")
    func hiddenAtFirst() throws {
        var view = try Self.view()
        view.advance(to: 0.5)
        let line = view.ansi()
        #expect(line.hasPrefix("the butler "))
        #expect(!line.contains("did") && !line.contains("it\n"))
        let dust = line.dropFirst("the butler ".count).unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }
        #expect(dust.count >= 3, "dust over the hidden words: \(line)")
        let svg = view.svg()
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        #expect(!svg.contains("did"))
        #expect(Self.svgText(svg).filter { $0 != " " } == "thebutler")
    }

    @Test("A click on a cell of a hidden word reveals its spoiler by the caller's clock")
    func clickCell() throws {
        var view = try Self.view()
        view.advance(to: 0.2)
        let onThe = view.click(column: 2, row: 0)
        #expect(!onThe, "'the' is not hidden")
        let onDid = view.click(column: 12, row: 0)
        #expect(onDid)
        view.advance(to: 0.3)
        #expect(!view.ansi().contains("did"), "the wave starts 0.1 s after the click")
        view.advance(to: 1.5)
        #expect(view.ansi() == "the butler did it\n")
        #expect(Self.svgText(view.svg()).filter { $0 != " " } == "thebutlerdidit")
    }

    @Test("A click in pixels reveals the word under it, one word in word scope")
    func clickPixel() throws {
        var options = SceneOptions()
        options.revealScope = .word
        var view = try SpoilerView(Message(parsing: "the butler ||did it||"), capability: .none, options: options)
        let onThe = view.click(pixelX: 4, pixelY: 8)
        #expect(!onThe)
        let onIt = view.click(pixelX: 15 * 8 + 4, pixelY: 8)
        #expect(onIt)
        view.advance(to: 1.5)
        let line = view.ansi()
        #expect(line.hasSuffix(" it\n"))
        #expect(!line.contains("did"), "only the word clicked: \(line)")
    }

    @Test("Frames are needed while dust moves, and not once everything is shown and still")
    func needsFrames() throws {
        var view = try Self.view()
        #expect(view.needsFrames)
        view.advance(to: 1)
        #expect(view.needsFrames)
        view.revealAll()
        view.advance(to: 1.3)
        #expect(view.needsFrames, "the wave is still running")
        view.advance(to: 5)
        #expect(!view.needsFrames)
        let still = view.ansi()
        view.advance(to: 6)
        #expect(view.ansi() == still)
        view.hideAll()
        #expect(view.needsFrames)
    }

    @Test("Under reduced motion a hidden message needs no frames")
    func reducedMotion() throws {
        var options = SceneOptions()
        options.reducedMotion = true
        var view = try SpoilerView(Message(parsing: "a ||b||"), capability: .none, options: options)
        #expect(!view.needsFrames)
        let first = view.ansi()
        view.advance(to: 1)
        #expect(view.ansi() == first)
    }

    @Test("The same calls give the same frames")
    func deterministic() throws {
        var a = try Self.view()
        var b = try Self.view()
        for t in stride(from: 0.0, through: 1.0, by: 1.0 / 30) {
            a.advance(to: t)
            b.advance(to: t)
        }
        #expect(a.ansi() == b.ansi())
        #expect(a.svg() == b.svg())
    }
}
