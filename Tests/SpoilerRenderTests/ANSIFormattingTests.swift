import Foundation
import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerParser
import SpoilerRender
import SpoilerTestSupport
import Testing

/// Shown text takes on its formatting entities' terminal attributes; hidden text stays
/// hidden whatever its formatting.
@Suite struct ANSIFormattingTests {
    /// "a **bold** _it_ ~~gone~~ [l](u) ||**x**|| __u__" as a message.
    static let message = Message(
        text: "a bold it gone l xx u é🎬b",
        entities: [
            Entity(.bold, offset: 2, length: 4), Entity(.italic, offset: 7, length: 2),
            Entity(.strikethrough, offset: 10, length: 4),
            Entity(.textLink, offset: 15, length: 1, url: "https://example.org"),
            Entity(.spoiler, offset: 17, length: 2), Entity(.bold, offset: 17, length: 2),
            Entity(.underline, offset: 20, length: 1), Entity(.code, offset: 22, length: 1),
            Entity(.bold, offset: 23, length: 3),
        ])

    func frame(_ scene: (inout SpoilerScene) -> Void = { _ in }) -> CellCanvas {
        let layout = LayoutEngine().layout(Self.message)
        var options = ANSIFrameOptions(capability: .trueColor)
        options.formatting = Self.message.entities
        var builder = ANSIFrameBuilder(layout: layout, options: options)
        var s = SpoilerScene(layout: layout, preset: .dust, seed: 2)
        scene(&s)
        var canvas = CellCanvas(width: builder.columns, height: builder.rows)
        builder.draw(s, into: &canvas)
        return canvas
    }

    @Test func eachTypeGetsItsAttribute() {
        let canvas = frame()
        #expect(canvas.lines[0].hasPrefix("a bold it gone l "))
        let expected: [(column: Int, attributes: CellAttributes)] = [
            (0, []), (1, []), (2, .bold), (5, .bold), (6, []), (7, .italic), (8, .italic),
            (10, .strikethrough), (13, .strikethrough), (15, .underline), (20, .underline),
            (22, []),
            // 🎬 is two UTF-16 units and two columns; "b" after it is still bold.
            (23, .bold), (25, .bold),
        ]
        for (column, attributes) in expected {
            #expect(canvas[column, 0].attributes == attributes, "column \(column)")
        }
    }

    @Test func hiddenTextStaysHiddenWhateverItsFormatting() {
        let hidden = frame()
        #expect(!hidden.lines.joined().contains("xx"))
        let shown = frame { scene in
            scene.revealAll()
            scene.advance(to: 5)
        }
        #expect(shown.lines[0].contains("xx"))
        #expect(shown[17, 0].attributes.contains(.bold))
    }

    @Test func renderWritesTheSGRCodes() throws {
        let run = try runSpoiler(
            ["render", "--from", "markdown", "--format", "ansi", "--color", "always"],
            stdin: Data("a **bold** _it_ ~~gone~~ ||hid||".utf8))
        #expect(run.status == 0)
        #expect(run.out.contains("\u{1B}[1mbold"))
        #expect(run.out.contains("\u{1B}[3mit"))
        #expect(run.out.contains("\u{1B}[9mgone"))
        #expect(!run.out.contains("hid"))
        let plain = try runSpoiler(
            ["render", "--from", "markdown", "--format", "ansi", "--color", "never"],
            stdin: Data("a **bold**".utf8))
        #expect(!plain.out.contains("\u{1B}["), "no escape sequences without colour")
    }
}
