import Foundation
import SpoilerCore
import SpoilerEffect
import SpoilerRender
import SpoilerTestSupport
import Testing

/// The README's JavaScript decoder of the compact timeline, run by Node.js (Debian
/// `nodejs`), draws in every frame what this package's own reading of the format draws,
/// which ``TimelineTracksTests`` holds to the scene.
@Suite struct TimelineReadmeDecoderTests {
    /// The first `js` block of the README's "JSON timeline" section.
    static func snippet() throws -> String {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "#### The JSON timeline"), "no JSON timeline section")
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```js\n"), "no js block in the section")
        let close = try #require(rest[open.upperBound...].range(of: "\n```"))
        return String(rest[open.upperBound..<close.lowerBound])
    }

    @Test func theReadmesDecoderDrawsWhatTheFormatSays() throws {
        let layout = try layoutOf("hi ||secret|| x ||two words||")
        var scene = SpoilerScene(layout: layout, preset: .dust, seed: 3)
        scene.reveal(word: 1, origin: SpoilerPoint(x: 120, y: 8), at: 0.4)
        var json: [UInt8] = []
        TimelineRenderer.render(scene: scene, layout: layout, fps: 30, duration: 1.5, into: &json)

        let script =
            try Self.snippet() + """

                const timeline = JSON.parse(require("fs").readFileSync(0, "utf8"));
                const frames = [];
                for (let k = 1; k <= timeline.frameCount; k++) frames.push(particlesAt(timeline, k));
                process.stdout.write(JSON.stringify(frames));
                """
        let run = try runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["node", "-e", script], stdin: Data(json))
        try #require(run.status == 0, "node failed (needs Debian nodejs): \(run.err)")
        let drawn = try #require(JSONValue.parse(Array(run.stdout)).arrayValue)

        let doc = try JSONValue.parse(json)
        let decoded = try TimelineTracksTests().decode(doc)
        #expect(drawn.count == 45)
        var total = 0
        for (f, frame) in drawn.enumerated() {
            let k = f + 1
            let particles = frame.arrayValue ?? []
            let expected = decoded.indices.filter { p in
                let d = decoded[p]
                return d.first <= k && k <= d.last && d.values["alpha"]![k - d.first] > 0
            }
            #expect(particles.map { Int($0["index"]?.intValue ?? -1) } == expected, "frame \(k)")
            for q in particles {
                guard let p = q["index"]?.intValue.map(Int.init), p >= 0, p < decoded.count else { continue }
                let d = decoded[p]
                #expect(q["word"]?.intValue.map(Int.init) == d.word)
                #expect(q["color"]?.stringValue == d.color && q["shape"]?.stringValue == d.shape)
                for c in TimelineTracksTests.channels {
                    let js = q[c]?.doubleValue ?? .nan
                    #expect(abs(js - d.values[c]![k - d.first]) < 1e-9, "frame \(k) particle \(p) \(c)")
                }
            }
            total += particles.count
        }
        #expect(total > 1000, "\(total) particles drawn in all")
    }
}
