import Foundation
import SpoilerKit
import SpoilerTestSupport
import Testing

/// ``SpoilerView`` laid out in a bitmap font's pixels, and sent between tasks.
@Suite("SpoilerView in a bitmap font")
struct SpoilerViewFontTests {
    /// Terminus 12 × 6: 6 pixels a character, 12 a line (console-setup-linux, which CI installs).
    static func terminus() throws -> BitmapFont {
        let path = "/usr/share/consolefonts/Uni2-Terminus12x6.psf.gz"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return try BitmapFont.parse([UInt8](bytes), file: path)
    }

    /// The glyphs drawn in an SVG of a bitmap font: one `<path>` per grapheme shown.
    static func glyphs(_ svg: String) -> Int {
        svg.components(separatedBy: "<path d=\"M").count - 1
    }

    static func view(options: SceneOptions = SceneOptions()) throws -> SpoilerView {
        try SpoilerView(
            Message(parsing: "the butler ||did it||"), font: terminus(), capability: .none, options: options)
    }

    @Test("The layout, the scene and the SVG are in the font's pixels")
    func pixelsOfTheFont() throws {
        var view = try Self.view()
        #expect(view.font?.defaultAdvance == 6)
        #expect(view.layout.metrics.lineHeight == 12)
        #expect(view.layout.width == 17 * 6)
        let did = try #require(view.layout.words.first)
        #expect(did.rect == SpoilerRect(x: 66, y: 0, width: 18, height: 12))
        #expect(view.scene.words.first?.rect == did.rect)
        let svg = view.svg()
        // The layout's 102 × 12 pixels and a margin of 4.
        #expect(svg.contains(#"viewBox="-4 -4 110 20""#), "\(svg.prefix(200))")
        #expect(!svg.contains("did"))
        #expect(Self.glyphs(svg) == "thebutler".count, "a glyph for each letter shown, none for the hidden ones")
        // The terminal frame is still in cells, every hidden letter covered.
        let frame = view.ansi()
        #expect(frame.hasPrefix("the butler ") && !frame.contains("did"), "\(frame)")
    }

    @Test("A click in the font's pixels reveals the word there, in the SVG and in the terminal frame")
    func clickInFontPixels() throws {
        var view = try Self.view()
        // x = 70 is in "did" in the font (66…84); in 8-pixel cells it would be the "l" of "butler".
        let onButler = view.click(pixelX: 40, pixelY: 6)
        #expect(!onButler, "'butler' is not hidden")
        let onDid = view.click(pixelX: 70, pixelY: 6)
        #expect(onDid)
        let again = view.click(pixelX: 70, pixelY: 6)
        #expect(!again, "already revealed")
        view.advance(to: 2)
        #expect(Self.glyphs(view.svg()) == "thebutlerdidit".count)
        let frame = view.ansi()
        #expect(frame == "the butler did it\n")
        #expect(!view.needsFrames)
    }

    @Test("In word scope a pixel click reveals one word, in both drawings")
    func wordScope() throws {
        var options = SceneOptions()
        options.revealScope = .word
        var view = try Self.view(options: options)
        let onIt = view.click(pixelX: 15 * 6 + 2, pixelY: 6)
        #expect(onIt)
        view.advance(to: 2)
        #expect(Self.glyphs(view.svg()) == "thebutlerit".count)
        let frame = view.ansi()
        #expect(frame.hasSuffix(" it\n") && !frame.contains("did"), "\(frame)")
    }

    @Test("A click on a terminal cell reveals the same words in the font's pixels")
    func clickInCells() throws {
        var view = try Self.view()
        let onDid = view.click(column: 12, row: 0)
        #expect(onDid)
        view.advance(to: 2)
        #expect(Self.glyphs(view.svg()) == "thebutlerdidit".count)
        let frame = view.ansi()
        #expect(frame == "the butler did it\n")
    }

    /// Sends `value` to another task and back: compiles only for a `Sendable` type.
    static func roundTrip<T: Sendable>(_ value: T) async -> T {
        await Task.detached { value }.value
    }

    @Test("A view made on one task is clicked, stepped and drawn on another")
    func crossesTasks() async throws {
        let view = try SpoilerView(Message(parsing: "the butler ||did it||"), capability: .none)
        let drawn = await Task.detached { () -> String in
            var mine = view
            mine.click(column: 12, row: 0)
            mine.advance(to: 2)
            return mine.ansi()
        }.value
        #expect(drawn == "the butler did it\n")
        // The other values a host hands between tasks.
        let message = try Message(parsing: "a ||b||")
        #expect(await Self.roundTrip(message) == message)
        let layout = message.layout(width: 20)
        #expect(await Self.roundTrip(layout) == layout)
        let scene = SpoilerScene(layout: layout, preset: .dust)
        #expect(await Self.roundTrip(scene).words == scene.words)
        let font = try Self.terminus()
        #expect(await Self.roundTrip(font) == font)
        #expect(await Self.roundTrip(FrameRate(24)) == 24)
        var terminal = SpoilerTerminalView(message: message, size: TerminalSize(columns: 10, rows: 1))
        terminal.step(to: 0)
        var moved = await Self.roundTrip(terminal)
        #expect(moved.frame(at: 1).width == 10)
        #expect(await Self.roundTrip(SpoilerView(message, font: font)).font == font)
    }
}
