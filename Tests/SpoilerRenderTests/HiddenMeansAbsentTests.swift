import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTestSupport
import Testing

/// DESIGN.md §9: an output that shows a word hidden holds none of its text in any form. The
/// property: swapping every hidden grapheme for another of the same width changes not
/// one byte of the output, and no hidden character (raw, or as an XML or JSON escape)
/// appears in it.
@Suite struct HiddenMeansAbsentTests {
    static let narrow = Array("αβγδεζηθικλμνξοπρστυφχψω").map(String.init)
    static let wide = Array("漢字秘密映画结局終謎").map(String.init)
    static let visibleWords = ["the", "butler", "did", "<b>", "a&b", "\"q\"", "it's", "x"]

    /// A message as tokens: visible words and spoilers of hidden words (each a list of
    /// graphemes), and a twin with every hidden grapheme swapped for another.
    struct Case: CustomStringConvertible {
        var plain: String
        var twin: String
        /// Indices of hidden words whose text may show in the output (the revealed one).
        var revealFirst: Bool
        var description: String { "\(plain) | \(twin) reveal: \(revealFirst)" }
    }

    static func generate(_ rng: inout SplitMix64) -> Case {
        var plain = "", twin = ""
        var firstHidden = true
        let revealFirst = rng.next() % 3 == 0
        for t in 0..<(Int(rng.next() % 5) + 2) {
            if t > 0 {
                let sep = rng.next() % 6 == 0 ? "\n" : " "
                plain += sep
                twin += sep
            }
            if rng.next() % 2 == 0 {
                let w = visibleWords[Int(rng.next() % UInt64(visibleWords.count))]
                plain += w
                twin += w
                continue
            }
            plain += "||"
            twin += "||"
            for w in 0..<(Int(rng.next() % 3) + 1) {
                if w > 0 {
                    plain += " "
                    twin += " "
                }
                let keep = firstHidden && revealFirst
                for _ in 0..<(Int(rng.next() % 5) + 1) {
                    let table = rng.next() % 4 == 0 ? wide : narrow
                    let a = Int(rng.next() % UInt64(table.count))
                    let b = keep ? a : (a + 1 + Int(rng.next() % UInt64(table.count - 1))) % table.count
                    plain += table[a]
                    twin += table[b]
                }
                firstHidden = false
            }
            plain += "||"
            twin += "||"
        }
        return Case(plain: plain, twin: twin, revealFirst: revealFirst)
    }

    enum Output: CaseIterable { case timeline, timelineFrames, svgStill, svgBeforeReveal, svgLoop, svgFont }

    static func render(_ plain: String, _ output: Output, revealFirst: Bool) throws -> [UInt8] {
        let font = output == .svgFont ? try unifontSubset() : nil
        let message = try MessageParser.parse(plain, from: .plain)
        let layout = (font.map { LayoutEngine(model: .font($0)) } ?? LayoutEngine()).layout(message)
        // One word at a time: the case says which word's text may show.
        var options = SceneOptions()
        options.revealScope = .word
        var scene = SpoilerScene(layout: layout, preset: .dust, options: options, seed: 4)
        if revealFirst, !layout.words.isEmpty { scene.reveal(word: 0, at: 0) }
        var out: [UInt8] = []
        switch output {
        case .timeline:
            TimelineRenderer.render(scene: scene, layout: layout, fps: 10, duration: 1, into: &out)
        case .timelineFrames:
            TimelineRenderer.render(scene: scene, layout: layout, fps: 10, duration: 1, form: .frames, into: &out)
        case .svgStill, .svgFont:
            scene.advance(to: 1)
            SVGRenderer.renderStill(scene: scene, layout: layout, font: font, into: &out)
        case .svgBeforeReveal:
            for i in layout.words.indices { scene.reveal(word: i, at: 2) }
            scene.advance(to: 1.9)
            SVGRenderer.renderStill(scene: scene, layout: layout, into: &out)
        case .svgLoop:
            SVGRenderer.renderLoop(scene: scene, layout: layout, fps: 5, duration: 1, into: &out)
        }
        return out
    }

    /// A font with glyphs for the test's alphabets: the cut of GNU Unifont in Fixtures/fonts.
    static let unifont: BitmapFont? = {
        let path = fixturesRoot.appendingPathComponent("fonts/unifont.hex").path
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else { return nil }
        return try? BitmapFont.parse([UInt8](data), file: path)
    }()

    static func unifontSubset() throws -> BitmapFont {
        try #require(unifont, "Fixtures/fonts/unifont.hex is needed")
    }

    @Test(arguments: Output.allCases)
    func swappingHiddenTextChangesNoByte(output: Output) throws {
        let hiddenScalars = Set((HiddenMeansAbsentTests.narrow + HiddenMeansAbsentTests.wide).flatMap(\.unicodeScalars))
        try forAll(HiddenMeansAbsentTests.generate, count: output == .svgFont ? 20 : 40, seed: 11) { c in
            let a = try HiddenMeansAbsentTests.render(c.plain, output, revealFirst: c.revealFirst)
            let b = try HiddenMeansAbsentTests.render(c.twin, output, revealFirst: c.revealFirst)
            guard a == b else { return false }
            if c.revealFirst { return true }  // the revealed word's letters may show
            let text = String(decoding: a, as: UTF8.self)
            return !text.unicodeScalars.contains(where: hiddenScalars.contains) && !text.contains("&#x")
                && !text.contains("\\u")
        }
    }
}

import Foundation
