import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

/// The per-frame form (`--timeline frames`), DESIGN.md §5's keys.
@Suite struct TimelineRendererTests {
    func timeline(
        _ layout: TextLayout, seed: UInt64 = 1, fps: FrameRate = 10, duration: Double = 1, form: TimelineForm = .frames,
        prepare: (inout SpoilerScene) -> Void = { _ in }
    ) -> [UInt8] {
        var scene = SpoilerScene(layout: layout, preset: .dust, seed: seed)
        prepare(&scene)
        var out: [UInt8] = []
        TimelineRenderer.render(scene: scene, layout: layout, fps: fps, duration: duration, form: form, into: &out)
        return out
    }

    func keys(_ v: JSONValue?) -> [String] {
        guard case .object(let m)? = v else { return [] }
        return m.map(\.key)
    }

    @Test func hasExactlyTheSpecKeys() throws {
        let layout = try layoutOf("hi ||secret|| x")
        let doc = try JSONValue.parse(timeline(layout, duration: 2) { $0.reveal(word: 0, at: 0.5) })
        #expect(keys(doc) == ["fps", "duration", "seed", "preset", "width", "height", "words", "frames"])
        #expect(doc["fps"]?.intValue == 10 && doc["seed"]?.intValue == 1 && doc["preset"]?.stringValue == "dust")
        #expect(doc["width"]?.intValue == 88 && doc["height"]?.intValue == 16)
        let words = try #require(doc["words"]?.arrayValue)
        #expect(words.count == 1)
        #expect(keys(words[0]) == ["x", "y", "width", "height", "graphemes"])
        #expect(words[0]["x"]?.intValue == 24 && words[0]["graphemes"]?.intValue == 6)
        let frames = try #require(doc["frames"]?.arrayValue)
        #expect(frames.count == 20)
        #expect(frames[0]["t"] == .number("0.1") && frames[19]["t"] == .number("2"))
        for f in frames {
            #expect(keys(f) == ["t", "reveal", "particles"])
            #expect(keys(f["particles"]) == ["word", "x", "y", "size", "alpha", "color"])
            let columns = ["word", "x", "y", "size", "alpha", "color"].map {
                f["particles"]?[$0]?.arrayValue?.count ?? -1
            }
            #expect(Set(columns).count == 1)
            for c in f["particles"]?["color"]?.arrayValue ?? [] { #expect(RGBColor(hex: c.stringValue ?? "") != nil) }
        }
        #expect(frames[3]["reveal"] == .array([.null]))  // t = 0.4
        #expect(frames[4]["reveal"] == .array([.number("0")]))  // t = 0.5: the click; the circle waits 0.1 s
        // Grown (t ≥ 1.15): the word's farthest corner from its centre ÷ 0.7.
        let final = (24.0 * 24 + 8 * 8).squareRoot() / 0.7
        #expect(abs((frames[12]["reveal"]?.arrayValue?.first?.doubleValue ?? 0) - final) < 0.01)
        #expect((frames[0]["particles"]?["x"]?.arrayValue?.count ?? 0) > 50)
        #expect((frames[19]["particles"]?["x"]?.arrayValue?.count ?? 1) == 0)
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        let layout = try layoutOf("a ||b c|| d")
        #expect(timeline(layout, seed: 9) == timeline(layout, seed: 9))
        #expect(timeline(layout, seed: 9) != timeline(layout, seed: 10))
    }

    @Test func fixture() throws {
        let layout = try layoutOf("||ok|| go")
        let out = timeline(layout, fps: 5, duration: 0.4) {
            $0.reveal(word: 0, origin: SpoilerPoint(x: 2, y: 8), at: 0.2)
        }
        expectMatchesFixture(String(decoding: out, as: UTF8.self) + "\n", "timeline/short-reveal.json")
    }
}
