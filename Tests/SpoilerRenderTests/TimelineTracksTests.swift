import SpoilerCore
import SpoilerEffect
import SpoilerLayout
import SpoilerRender
import SpoilerTestSupport
import Testing

/// The compact timeline (`"format": "tracks"`, the default), read back as a client
/// would from the README's description, frame by frame.
@Suite struct TimelineTracksTests {
    static let channels = ["x", "y", "size", "alpha", "rotation"]

    func scene(_ layout: TextLayout, preset: Preset = .dust, seed: UInt64 = 1, prepare: (inout SpoilerScene) -> Void)
        -> SpoilerScene
    {
        var scene = SpoilerScene(layout: layout, preset: preset, seed: seed)
        prepare(&scene)
        return scene
    }

    func tracks(
        _ layout: TextLayout, preset: Preset = .dust, seed: UInt64 = 1, fps: FrameRate = 30, duration: Double = 2,
        prepare: (inout SpoilerScene) -> Void = { _ in }
    ) -> [UInt8] {
        let s = scene(layout, preset: preset, seed: seed, prepare: prepare)
        var out: [UInt8] = []
        TimelineRenderer.render(scene: s, layout: layout, fps: fps, duration: duration, into: &out)
        return out
    }

    /// One decoded particle: its frames and, per channel, one value per frame from `first`.
    struct Decoded {
        var word: Int, first: Int, last: Int, color: String, shape: String
        var values: [String: [Double]]
    }

    /// Decodes the particles as the README says: a track `[v0, d1, dv1, …]` from the
    /// particle's first frame, linear between keyframes, held after the last, divided by
    /// the channel's units.
    func decode(_ doc: JSONValue) throws -> [Decoded] {
        let p = try #require(doc["particles"])
        let colors = try #require(doc["colors"]?.arrayValue).map { $0.stringValue ?? "" }
        let shapes = try #require(doc["shapes"]?.arrayValue).map { $0.stringValue ?? "" }
        func ints(_ key: String) throws -> [Int] { try #require(p[key]?.arrayValue).map { Int($0.intValue ?? -1) } }
        let word = try ints("word"), first = try ints("first"), last = try ints("last")
        let color = try ints("color"), shape = try ints("shape")
        var out: [Decoded] = []
        for i in word.indices {
            var d = Decoded(
                word: word[i], first: first[i], last: last[i], color: colors[color[i]], shape: shapes[shape[i]],
                values: [:])
            for c in Self.channels {
                let units = try #require(doc["units"]?[c]?.doubleValue)
                let track = try #require(p[c]?.arrayValue?[i].arrayValue).map { Double($0.intValue ?? 0) }
                var series = [track[0]]
                var j = 1
                while j + 1 < track.count {
                    let (n, dv) = (Int(track[j]), track[j + 1])
                    let from = series.last!
                    for s in 1...n { series.append(from + dv * Double(s) / Double(n)) }
                    j += 2
                }
                let frames = last[i] - first[i] + 1
                #expect(series.count <= frames, "a track runs past its particle's last frame")
                while series.count < frames { series.append(series.last!) }
                d.values[c] = series.map { $0 / units }
            }
            out.append(d)
        }
        return out
    }

    /// Every frame's particles, decoded, match the scene's within one unit of each
    /// channel: the same particles in the same words, colours and shapes, and none
    /// drawn (opacity above one unit) where the scene shows none.
    func expectDecodesToTheScene(
        _ layout: TextLayout, preset: Preset = .dust, fps: Int = 30, duration: Double = 2,
        prepare: (inout SpoilerScene) -> Void = { _ in }
    ) throws {
        let doc = try JSONValue.parse(
            tracks(layout, preset: preset, fps: FrameRate(fps), duration: duration, prepare: prepare))
        #expect(doc["format"]?.stringValue == "tracks")
        let frameCount = Int(try #require(doc["frameCount"]?.intValue))
        #expect(frameCount == Int((duration * Double(fps)).rounded()))
        let decoded = try decode(doc)
        let units = Self.channels.map { doc["units"]?[$0]?.doubleValue ?? 0 }
        let reveal = try #require(doc["reveal"]?.arrayValue)
        #expect(reveal.count == layout.words.count)

        var s = scene(layout, preset: preset, prepare: prepare)
        var visible = VisibleParticles()
        var order: [UInt32: Int] = [:]  // particles are listed in the order they first show
        var worst = [Double](repeating: 0, count: Self.channels.count)
        for k in 1...frameCount {
            s.advance(to: Double(k) / Double(fps))
            for w in s.words.indices {
                let r = reveal[w].arrayValue?[k - 1]
                if let radius = s.revealRadius(word: w) {
                    #expect(abs((r?.doubleValue ?? -1) - radius) <= 0.005 + 1e-9, "frame \(k) word \(w)")
                } else {
                    #expect(r == .null, "frame \(k) word \(w)")
                }
            }
            s.visibleParticles(into: &visible)
            var shown = Set<Int>()
            for i in 0..<visible.count {
                let p = order[visible.id[i]] ?? order.count
                order[visible.id[i]] = p
                shown.insert(p)
                guard p < decoded.count else {
                    Issue.record("frame \(k): particle \(p) is not in the timeline")
                    continue
                }
                let d = decoded[p]
                guard d.first <= k && k <= d.last else {
                    Issue.record("frame \(k): particle \(p) shows outside its frames \(d.first)…\(d.last)")
                    continue
                }
                #expect(d.word == Int(visible.word[i]))
                #expect(d.shape == visible.shape[i].rawValue)
                #expect(
                    RGBColor(hex: d.color).map { UInt32($0.red) << 16 | UInt32($0.green) << 8 | UInt32($0.blue) }
                        == visible.color[i])
                let truth = [visible.x[i], visible.y[i], visible.size[i], visible.alpha[i], visible.rotation[i]]
                for (c, name) in Self.channels.enumerated() {
                    let error = abs(d.values[name]![k - d.first] - Double(truth[c]))
                    worst[c] = max(worst[c], error * units[c])
                    #expect(
                        error <= 1 / units[c] + 1e-6,
                        "frame \(k) particle \(p) \(name): off by \(error * units[c]) units")
                }
            }
            for (p, d) in decoded.enumerated() where d.first <= k && k <= d.last && !shown.contains(p) {
                let alpha = d.values["alpha"]![k - d.first]
                #expect(alpha <= 1 / units[3] + 1e-6, "frame \(k): particle \(p) drawn at \(alpha), the scene has none")
            }
        }
        #expect(order.count == decoded.count, "the timeline lists particles that never show")
        #expect([0, 1].allSatisfy { worst[$0] > 0.2 }, "the check is too loose to see errors: \(worst)")
    }

    @Test func decodesToEveryFrameOfTheScene() throws {
        try expectDecodesToTheScene(layoutOf("the butler ||did|| it"))
    }

    @Test func decodesAReveal() throws {
        try expectDecodesToTheScene(layoutOf("hi ||secret|| x ||two words||")) {
            $0.reveal(word: 0, origin: SpoilerPoint(x: 30, y: 8), at: 0.5)
            $0.scheduleReveal(at: 1.2, origin: nil, rehideAfter: 0.3)
        }
    }

    @Test func decodesConfettiWithSpin() throws {
        try expectDecodesToTheScene(layoutOf("a ||b c|| d"), preset: .confetti, fps: 24, duration: 1.5)
    }

    /// `echo 'the butler ||did|| it' | spoiler render --format json --duration 2 --fps 30`.
    @Test func oneHiddenWordTwoSecondsIsAtMost30KB() throws {
        let one = tracks(try layoutOf("the butler ||did|| it"))
        #expect(one.count <= 30_000, "\(one.count) bytes")
        let s = scene(try layoutOf("the butler ||did|| it")) { _ in }
        var frames: [UInt8] = []
        TimelineRenderer.render(
            scene: s, layout: try layoutOf("the butler ||did|| it"), fps: 30, duration: 2, form: .frames,
            into: &frames)
        #expect(one.count * 3 <= frames.count, "tracks \(one.count) bytes, frames \(frames.count)")
        let two = tracks(try layoutOf("the butler ||did|| it ||twice||"))
        #expect(two.count <= 3 * 30_000, "\(two.count) bytes")
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        let layout = try layoutOf("a ||b c|| d")
        #expect(tracks(layout, seed: 9) == tracks(layout, seed: 9))
        #expect(tracks(layout, seed: 9) != tracks(layout, seed: 10))
    }

    @Test func keysInOrder() throws {
        let doc = try JSONValue.parse(tracks(try layoutOf("||ok|| go"), fps: 5, duration: 0.4))
        guard case .object(let members) = doc else { throw TimelineTestError.notAnObject }
        #expect(
            members.map(\.key) == [
                "format", "fps", "duration", "seed", "preset", "width", "height", "words", "frameCount", "units",
                "colors", "shapes", "reveal", "particles",
            ])
        guard case .object(let p)? = doc["particles"] else { throw TimelineTestError.notAnObject }
        #expect(p.map(\.key) == ["word", "first", "last", "color", "shape"] + Self.channels)
    }

    @Test func fixture() throws {
        let out = tracks(try layoutOf("||ok|| go"), fps: 5, duration: 0.4) {
            $0.reveal(word: 0, origin: SpoilerPoint(x: 2, y: 8), at: 0.2)
        }
        expectMatchesFixture(String(decoding: out, as: UTF8.self) + "\n", "timeline/short-reveal-tracks.json")
    }

    enum TimelineTestError: Error { case notAnObject }
}
