import Foundation
import SpoilerCore
import SpoilerLayout
import SpoilerParser
import SpoilerTestSupport

/// Sample messages, fonts and a readable dump of a layout for the golden-file tests.
enum LayoutFixtures {
    /// Messages in plain chat markup mixing Latin, Cyrillic, CJK, emoji (ZWJ sequences,
    /// flags, skin tones), combining marks, tabs, line breaks and control characters.
    static let samples: [String] = [
        "the butler ||did it|| in the library",
        "Привет, ||мир|| и ||漢字 日本語||!",
        "family ||👩‍👩‍👧 🇺🇦 👍🏽|| ok ❤\u{FE0F}",
        "||cafe\u{301} nai\u{308}ve|| e\u{301}te\u{301}",
        "tab\t||x||\nnew line ||hidden\nacross|| lines",
        "ctrl ||\u{1B}[31m red\u{7}|| \u{202E}abc\u{200B}d",
        "a ||supercalifragilistic|| word and ||日本語のテキストです||",
        "bide ||ж a 漢 e\u{301}||",
    ]

    static func message(_ plain: String) throws -> Message {
        try MessageParser.parse(Array(plain.utf8), from: .plain)
    }

    /// The bytes of `Fixtures/layout/<name>`.
    static func fixtureBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try fixtureData("layout/" + name))
    }

    /// The bytes of a file, such as one of the fonts kept in `Fixtures/fonts`.
    static func systemBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Fonts kept in `Fixtures/fonts` (see its README for their source and licences), so
    /// that the goldens do not change when the distribution's fonts do.
    static let unifontPSF = fontPath("Unifont-APL8x16.psf.gz")
    static let terminusPSF2 = fontPath("Uni2-Terminus12x6.psf.gz")
    /// GNU Unifont 15.0.01 cut down to the blocks the samples use (3,723 glyphs).
    static let unifontHex = fontPath("unifont.hex")

    static func fontPath(_ name: String) -> String {
        fixturesRoot.appendingPathComponent("fonts/" + name).path
    }

    /// Every sample laid out by `engine`, dumped: the input, the geometry JSON, then each
    /// line with its graphemes as `display@x+width` (`*N`: in word box N; `!`: fallback).
    static func dump(_ engine: LayoutEngine) throws -> String {
        var out = ""
        for (i, sample) in samples.enumerated() {
            let m = try message(sample)
            let layout = engine.layout(m)
            out += "# \(i): \(visible(sample))\n"
            out += String(decoding: layout.jsonBytes(), as: UTF8.self) + "\n"
            for line in layout.lines {
                let cells = layout.graphemes.filter { $0.line == line.index }.map { g -> String in
                    var s = "\(visible(g.display))@\(g.x)+\(g.width)"
                    if let w = g.word { s += "*\(w)" }
                    if g.isFallback { s += "!" }
                    return s
                }
                out += "  line \(line.index): " + cells.joined(separator: " ") + "\n"
            }
        }
        return out
    }

    /// `s` with line breaks and tabs written as escapes, so each dump entry stays on one line.
    static func visible(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar.value {
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x00..<0x20, 0x7F...0x9F, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A glyph drawn as text: `#` for ink, `.` for none, one row a line.
    static func art(_ glyph: Glyph) -> String {
        var rows: [String] = []
        for y in 0..<glyph.height {
            rows.append(String((0..<glyph.width).map { glyph.isInked(x: $0, y: y) ? "#" : "." }))
        }
        return rows.joined(separator: "\n")
    }
}
