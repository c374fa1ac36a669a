import Foundation
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

@Suite struct SVGRendererTests {
    let background = PNGImage.Pixel(r: 0x17, g: 0x21, b: 0x2B, a: 255)

    @Test func hiddenWordsShowDustAndNoTextVisibleTextShows() throws {
        let layout = try layoutOf("ab ||secret|| cd")
        let svg = stillSVG(layout, at: 0.5)
        let full = try renderSVG(svg)
        let m = SVGRenderer.margin
        #expect(full.width == layout.width + 2 * m && full.height == layout.height + 2 * m)
        // Room around the content: nothing on the margin (a dot on a word's edge may spill
        // half a pixel onto its first row).
        let edge = m - 1
        for y in 0..<full.height {
            for x in 0..<full.width where x < edge || y < edge || x >= full.width - edge || y >= full.height - edge {
                #expect(full.pixel(x, y) == background, "(\(x), \(y)) on the margin")
            }
        }
        let image = try renderLayoutArea(svg)
        let hidden = layout.words[0].rect
        let inside = pixels(in: hidden, of: image)
        #expect(!inside.contains(where: isText))
        let dust = inside.filter { $0 != background }.count
        #expect(dust > 20, "\(dust) particle pixels")
        // Outside the hidden word: text, and no particle.
        #expect(pixels(in: SpoilerRect(x: 0, y: 0, width: 16, height: 16), of: image).contains(where: isText))
        #expect(pixels(in: SpoilerRect(x: 80, y: 0, width: 16, height: 16), of: image).contains(where: isText))
        #expect(!pixels(in: SpoilerRect(x: 16, y: 0, width: 8, height: 16), of: image).contains { $0 != background })
    }

    @Test func aRevealedWordShowsItsTextAndLosesItsDust() throws {
        let layout = try layoutOf("ab ||secret|| ||more||")
        let image = try renderLayoutArea(stillSVG(layout, at: 1.5) { $0.reveal(word: 0, at: 0.2) })
        let shown = pixels(in: layout.words[0].rect, of: image)
        #expect(shown.contains(where: isText))
        #expect(!shown.contains { !isText($0) && $0 != self.background && $0.r == 0x8e })
        // The other word is still hidden.
        #expect(!pixels(in: layout.words[1].rect, of: image).contains(where: isText))
    }

    @Test func bitmapFontGlyphPixelsAppearExactlyWhereTextIsShown() throws {
        let font = try consoleFont()
        let layout = try layoutOf("ab ||cd|| e", font: font)
        var style = SVGStyle()
        style.background = RGBColor(red: 0, green: 0, blue: 0)
        func expectedPixels(including words: Set<Int>) -> Set<[Int]> {
            var set = Set<[Int]>()
            for g in layout.graphemes where g.word.map(words.contains) ?? true {
                guard let glyph = font.glyph(forGrapheme: g.display) else { continue }
                let top = layout.lines[g.line].y
                glyph.forEachInkedPixel(ascent: font.ascent) { px, py in set.insert([g.x + px, top + py]) }
            }
            return set
        }
        func textPixels(_ image: PNGImage) -> Set<[Int]> {
            var set = Set<[Int]>()
            for y in 0..<image.height {
                for x in 0..<image.width where isText(image.pixel(x, y)) { set.insert([x, y]) }
            }
            return set
        }
        let hidden = try renderLayoutArea(stillSVG(layout, at: 0.3, font: font, style: style))
        #expect(textPixels(hidden) == expectedPixels(including: []))
        #expect(!textPixels(hidden).isEmpty)
        let revealed = try renderLayoutArea(stillSVG(layout, at: 2, font: font, style: style) { $0.revealAll(at: 0) })
        #expect(textPixels(revealed) == expectedPixels(including: [0]))
    }

    @Test func aPartialRevealIsMaskedAndFeathered() throws {
        let layout = try layoutOf("||abcdefghij||")
        let svg = stillSVG(layout, at: 0.4) { $0.reveal(word: 0, origin: SpoilerPoint(x: 4, y: 8), at: 0) }
        let source = String(decoding: svg, as: UTF8.self)
        #expect(source.contains("<mask id=\"reveal0\""))
        #expect(source.contains("stop offset=\"0.7\"") && source.contains("stop offset=\"0.95\""))
        let image = try renderLayoutArea(svg)
        // Text near the click, none at the far end yet.
        #expect(pixels(in: SpoilerRect(x: 0, y: 0, width: 16, height: 16), of: image).contains(where: isText))
        #expect(!pixels(in: SpoilerRect(x: 64, y: 0, width: 16, height: 16), of: image).contains(where: isText))
    }

    @Test func markupInTextIsEscaped() throws {
        let layout = try layoutOf("<b>&\"x'</b> ||y||")
        let svg = stillSVG(layout, at: 0)
        let source = String(decoding: svg, as: UTF8.self)
        #expect(
            source.contains("&lt;") && source.contains("&amp;") && source.contains("&quot;") && source.contains("&#39;")
        )
        #expect(!source.contains("<b>"))
        _ = try renderLayoutArea(svg)  // well-formed: rsvg-convert accepts it
    }

    @Test func sameSeedSameBytes() throws {
        let layout = try layoutOf("one ||two three|| four")
        #expect(stillSVG(layout, at: 0.7, seed: 5) == stillSVG(layout, at: 0.7, seed: 5))
        #expect(stillSVG(layout, at: 0.7, seed: 5) != stillSVG(layout, at: 0.7, seed: 6))
    }

    @Test func stillFrameFixture() throws {
        let layout = try layoutOf("the butler ||did it||")
        // "did" alone (not the whole spoiler), half uncovered.
        let svg = stillSVG(layout, at: 0.4) { $0.reveal(words: [0], origin: SpoilerPoint(x: 92, y: 8), at: 0.1) }
        expectMatchesFixture(String(decoding: svg, as: UTF8.self), "svg/still-partial-reveal.svg")
    }

    @Test func loopAnimatesAndLeavesNeverRevealedWordsOut() throws {
        let layout = try layoutOf("a ||shown|| b ||kept||")
        var scene = SpoilerScene(layout: layout, preset: .dust, seed: 2)
        scene.reveal(word: 0, at: 0.5)
        var out: [UInt8] = []
        SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 10, duration: 1.5, into: &out)
        let source = String(decoding: out, as: UTF8.self)
        #expect(source.contains("<animate attributeName=\"cx\" dur=\"1.5s\" repeatCount=\"indefinite\""))
        let text = svgTextContent(out)
        #expect(text.contains("shown") && text.contains("a") && text.contains("b"))
        #expect(!text.contains("k") && !text.contains("p"))
        // Frame 0 (what rsvg-convert shows): nothing revealed yet.
        let image = try renderLayoutArea(out)
        #expect(!pixels(in: layout.words[0].rect, of: image).contains(where: isText))
        // The same again.
        var again = SpoilerScene(layout: layout, preset: .dust, seed: 2)
        again.reveal(word: 0, at: 0.5)
        var out2: [UInt8] = []
        SVGRenderer.renderLoop(scene: again, layout: layout, fps: 10, duration: 1.5, into: &out2)
        #expect(out == out2)
    }

    @Test(arguments: ["confetti", "snow"])
    func otherPresetsDrawShapes(name: String) throws {
        let layout = try layoutOf("||confetti time||")
        let scene = SpoilerScene(layout: layout, preset: Preset.builtIn[name]!, seed: 3)
        var out: [UInt8] = []
        SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 10, duration: 1, into: &out)
        let source = String(decoding: out, as: UTF8.self)
        #expect(source.contains("<polygon points="))
        _ = try renderLayoutArea(out)
    }
}

@Suite struct SVGLoopTests {
    /// The opacities a loop shows in its first frame (the elements' static attributes).
    func firstFrameOpacities(_ svg: String) -> [Double] {
        svg.split(separator: "\n").filter { $0.hasPrefix("<circle") }.compactMap { line -> Double? in
            guard let r = line.range(of: "opacity=\"") else { return nil }
            return Double(line[r.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func aLoopWithoutRevealIsSeamlessAndStartsSettled() throws {
        let layout = try layoutOf("||abcdefghij||")
        let settled = SpoilerScene(layout: layout, preset: .dust, seed: 8).visibleParticles().count
        let scene = SpoilerScene(layout: layout, preset: .dust, seed: 8)
        var out: [UInt8] = []
        SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 20, duration: 2, into: &out)
        let source = String(decoding: out, as: UTF8.self)
        let shown = firstFrameOpacities(source).filter { $0 > 0 }.count
        #expect(
            abs(Double(shown - settled)) <= 0.25 * Double(settled), "\(shown) shown at the start, \(settled) settled")
        // Every particle born in the period is drawn once, plus a second element for those
        // alive across the wrap: about 20 × 10 × 2 births, and fewer than twice that.
        let elements = source.components(separatedBy: "<circle").count - 1
        #expect(elements > 300 && elements < 800, "\(elements) elements")
        // Seamless: every particle showing at the loop's end shows, at the same place, in
        // its first frame.
        var start = Set<String>()
        var end: [String] = []
        for line in source.split(separator: "\n") where line.hasPrefix("<circle") {
            let l = String(line)
            let x0 = attribute("cx", l), y0 = attribute("cy", l)
            if (Double(attribute("opacity", l)) ?? 0) > 0 { start.insert("\(x0),\(y0)") }
            let x1 = lastValue("cx", l) ?? x0, y1 = lastValue("cy", l) ?? y0
            if (Double(lastValue("opacity", l) ?? attribute("opacity", l)) ?? 0) > 0 { end.append("\(x1),\(y1)") }
        }
        #expect(!end.isEmpty)
        #expect(end.allSatisfy(start.contains), "\(end.filter { !start.contains($0) }.count) of \(end.count) jump")
    }

    func attribute(_ name: String, _ line: String) -> String {
        guard let r = line.range(of: " \(name)=\"") else { return "" }
        return String(line[r.upperBound...].prefix { $0 != "\"" })
    }

    func lastValue(_ name: String, _ line: String) -> String? {
        guard let r = line.range(of: "<animate attributeName=\"\(name)\"") else { return nil }
        let rest = line[r.upperBound...]
        guard let v = rest.range(of: "values=\"") else { return nil }
        let values = rest[v.upperBound...].prefix { $0 != "\"" }
        return values.split(separator: ";").last.map(String.init)
    }
}
