import SpoilerCore
import SpoilerLayout
import SpoilerRender
import Testing

/// The lower bound of hidden graphemes never exceeds the layout's count, and counts
/// every ASCII letter under a spoiler.
@Suite struct RenderLimitsCountTests {
    static let cases: [(text: String, entities: [Entity], atLeast: Int)] = [
        ("hi there", [Entity(.spoiler, offset: 3, length: 5)], 5),
        ("hi there", [], 0),
        ("hi there", [Entity(.bold, offset: 0, length: 8)], 0),
        ("a b c", [Entity(.spoiler, offset: 0, length: 5)], 3),
        ("ab  cd", [Entity(.spoiler, offset: 0, length: 2), Entity(.spoiler, offset: 1, length: 5)], 4),
        ("éa😀b", [Entity(.spoiler, offset: 0, length: 5)], 1),  // only the final b is sure
        ("e\u{301}x", [Entity(.spoiler, offset: 0, length: 3)], 1),  // e with a combining accent
        ("abc", [Entity(.spoiler, offset: 1, length: 1)], 1),
        ("abc", [Entity(.spoiler, offset: 0, length: 0)], 0),
    ]

    @Test func lowerBound() {
        let engine = LayoutEngine()
        for c in RenderLimitsCountTests.cases {
            let message = Message(text: c.text, entities: c.entities)
            let atLeast = RenderLimits.hiddenGraphemesAtLeast(in: message)
            #expect(atLeast == c.atLeast, "\(c.text.debugDescription)")
            #expect(atLeast <= RenderLimits.hiddenGraphemes(in: engine.layout(message)), "\(c.text.debugDescription)")
        }
    }

    @Test func problems() {
        let layout = LayoutEngine().layout(
            Message(text: "hi there", entities: [Entity(.spoiler, offset: 3, length: 5)]))
        #expect(RenderLimits.problem(layout: layout, frames: 60, density: 20, format: "svg") == nil)
        #expect(
            RenderLimits.problem(layout: layout, frames: 30_000, density: 20, format: "json")
                == "5 hidden graphemes over 30000 frames: --format json animates at most 120000 grapheme-frames; "
                + "lower --duration or --fps, use --format html or split the message")
        #expect(RenderLimits.problem(layout: layout, frames: 30_000, density: 0, format: "json") == nil)
    }
}
