import Foundation
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTestSupport
import Testing

/// SVG text that reads as text: runs with per-glyph positions, formatting as in the
/// terminal, hidden words' dust titled without their text.
@Suite struct SVGTextTests {
    func still(_ markdownV2: String, at time: Double = 0.5) throws -> (TextLayout, [UInt8]) {
        let message = try MessageParser.parse(markdownV2, from: .markdownV2)
        let layout = LayoutEngine().layout(message)
        var scene = SpoilerScene(layout: layout, preset: .dust, seed: 3)
        scene.advance(to: time)
        var out: [UInt8] = []
        SVGRenderer.renderStill(scene: scene, layout: layout, formatting: message.entities, into: &out)
        return (layout, out)
    }

    @Test func oneTextElementPerRunWithAnXList() throws {
        let (_, svg) = try still("plain words *bold one* ||hidden|| tail")
        let source = String(decoding: svg, as: UTF8.self)
        #expect(source.contains("<text x=\"0 8 16 24 32 40 48 56 64 72 80 88\" y=\"12\">plain words </text>"))
        #expect(
            source.contains(
                "<text x=\"96 104 112 120 128 136 144 152 160\" y=\"12\" font-weight=\"bold\">bold one </text>"))
        #expect(svgTextContent(svg) == "plain words bold one tail")
    }

    @Test func formattingIsDrawnAsInTheTerminal() throws {
        let (layout, svg) = try still("_it_ __un__ ~st~ ab")
        let source = String(decoding: svg, as: UTF8.self)
        #expect(source.contains("font-style=\"italic\">it </text>"))
        let ascent = layout.metrics.ascent
        // Underline: one pixel row below the baseline, across "un" (x 24..<40).
        #expect(source.contains("<rect x=\"24\" y=\"\(ascent + 1)\" width=\"16\" height=\"1\"/>"))
        let image = try renderLayoutArea(svg)
        let underline = pixels(in: SpoilerRect(x: 24, y: Double(ascent + 1), width: 16, height: 1), of: image)
        #expect(underline.allSatisfy(isText), "the underline row is lit")
        let plain = pixels(in: SpoilerRect(x: 56, y: Double(ascent + 1), width: 16, height: 1), of: image)
        #expect(!plain.contains(where: isText), "no underline under plain text")
        // Strikethrough: a lit row through the middle of "st" (x 48..<64), none through "ab".
        let strikeRow = ascent - max(ascent * 3 / 10, 1)
        #expect(
            pixels(in: SpoilerRect(x: 48, y: Double(strikeRow), width: 16, height: 1), of: image).allSatisfy(isText))
    }

    @Test func hiddenWordsAreTitledWithoutTheirText() throws {
        let (_, svg) = try still("a ||secret|| b ||more||")
        let source = String(decoding: svg, as: UTF8.self)
        let titles = source.components(separatedBy: "<title>").dropFirst().map { $0.prefix { $0 != "<" } }
        #expect(titles == ["Hidden text (spoiler)", "Hidden text (spoiler)"])
        #expect(!svgTextContent(svg).contains("secret") && !source.contains("secret"))
    }
}
