import Foundation
import SpoilerTestSupport
import Testing

@Suite struct RenderCommandTests {
    let message = "the butler ||did it|| in the ||library||"

    @Test(arguments: [
        ["--format", "json", "--duration", "0.5"],
        ["--format", "svg", "--at", "0.4", "--reveal-at", "0.1", "--reveal-origin", "92,8"],
        ["--format", "svg", "--duration", "1", "--fps", "10", "--reveal-at", "0.2", "--rehide-after", "0.5"],
        [
            "--format", "json", "--preset", "confetti", "--duration", "0.3", "--seed", "7", "--reveal-scope", "message",
            "--reveal-at", "0",
        ],
    ])
    func sameInputSameBytes(arguments: [String]) throws {
        let a = try runSpoiler(["render"] + arguments, input: message)
        let b = try runSpoiler(["render"] + arguments, input: message)
        #expect(a.status == 0, "\(a.err)")
        #expect(a.stdout == b.stdout)
        #expect(!a.stdout.isEmpty)
    }

    @Test func jsonIsTheTimeline() throws {
        let r = try runSpoiler(["render", "--format", "json", "--fps", "10", "--duration", "0.2"], input: message)
        #expect(r.status == 0)
        let header = #"{"fps":10,"duration":0.2,"seed":1,"preset":"dust","width":256,"height":16,"words":[{"x":88,"#
        #expect(r.out.hasPrefix(#"{"format":"tracks","# + header.dropFirst()))
        #expect(r.out.contains(#""frameCount":2,"units":{"x":20,"y":20,"size":20,"alpha":100,"rotation":100}"#))
        #expect(!r.out.contains("library") && !r.out.contains("did") && !r.out.contains("butler"))
        let frames = try runSpoiler(
            ["render", "--format", "json", "--fps", "10", "--duration", "0.2", "--timeline", "frames"], input: message)
        #expect(frames.status == 0)
        #expect(frames.out.hasPrefix(header))
        #expect(frames.out.contains(#""frames":[{"t":0.1,"reveal":[null,null,null],"particles":{"word":["#))
        #expect(!frames.out.contains("library") && !frames.out.contains("did") && !frames.out.contains("butler"))
    }

    /// `--reveal-scope` takes the same values for the page as for every other format
    /// (the effect's `RevealScope`), and the page's runtime is given the one chosen.
    @Test func revealScopeIsTheSameOptionForThePage() throws {
        for scope in ["spoiler", "word", "message"] {
            let r = try runSpoiler(["render", "--format", "html", "--reveal-scope", scope], input: message)
            #expect(r.status == 0, "\(r.err)")
            #expect(r.out.contains(#""scope":"\#(scope)""#), "\(scope)")
        }
    }

    @Test func svgStillLeavesHiddenWordsOut() throws {
        let r = try runSpoiler(["render", "--format", "svg", "--at", "1"], input: message)
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        // What a reader gets: the text of the <text> elements, one per run of words.
        #expect(textOfSVG(r.out) == "the butler in the ")
        #expect(r.out.contains("<text x=\"0 8 16 24 32 40 48 56 64 72 80\" y=\"12\">the butler </text>"))
        let revealed = try runSpoiler(["render", "--format", "svg", "--at", "1", "--reveal-at", "0"], input: message)
        #expect(textOfSVG(revealed.out) == "the butler did it in the library")
    }

    /// The character data of an SVG's `<text>` elements, joined.
    func textOfSVG(_ svg: String) -> String {
        svg.split(separator: "<text").dropFirst().compactMap { part in
            part.split(separator: ">", maxSplits: 1).last?.components(separatedBy: "</text>").first
        }.joined()
    }

    @Test func outputFileAndReducedMotion() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("render-\(UUID().uuidString).svg").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let r = try runSpoiler(["render", "--format", "svg", "--reduced-motion", "-o", path], input: message)
        #expect(r.status == 0 && r.stdout.isEmpty)
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        // REDUCED_MOTION=1 and any seed give the same still pattern.
        let env = try runSpoiler(
            ["render", "--format", "svg", "--seed", "99", "--at", "3"], input: message,
            environment: ["REDUCED_MOTION": "1"])
        #expect(env.stdout == file)
        let moving = try runSpoiler(["render", "--format", "svg"], input: message)
        #expect(moving.stdout != file)
    }

    @Test func presetFromAFile() throws {
        let dir = FileManager.default.temporaryDirectory
        let good = dir.appendingPathComponent("preset-\(UUID().uuidString).json")
        let bad = dir.appendingPathComponent("preset-\(UUID().uuidString).json")
        defer {
            try? FileManager.default.removeItem(at: good)
            try? FileManager.default.removeItem(at: bad)
        }
        try Data(
            ##"{"name":"embers","emitterShape":"rectangle","confinement":"bounce","emitterCells":[{"birthRate":20,"lifetime":1,"velocityRange":20,"emissionRange":6.2832,"color":"#ff8800"}]}"##
                .utf8
        ).write(to: good)
        try Data("{\n  \"emitterCells\": [{\"velocity\": true}]\n}".utf8).write(to: bad)
        let r = try runSpoiler(
            ["render", "--format", "json", "--duration", "0.1", "--preset", good.path], input: message)
        #expect(r.status == 0)
        #expect(r.out.contains(#""preset":"embers""#) && r.out.contains("#ff8800"))
        // These fail before reading the input: give them none.
        let e = try runSpoiler(["render", "--format", "json", "--preset", bad.path])
        #expect(e.status == 1)
        #expect(
            e.err == "error: \(bad.path):2:21: field 'emitterCells[0].velocity': expected a number\n", "\(e.err)")
        let missing = try runSpoiler(["render", "--format", "json", "--preset", "glitter"])
        #expect(missing.status == 1 && missing.err.contains("built-in presets: confetti, dust, snow"))
    }

    @Test(arguments: [
        (["render"], "'--format' is required"),
        (["render", "--format", "gif"], "unknown value 'gif'"),
        (["render", "--format", "json", "--at", "1"], "'--at' applies to --format svg"),
        (["render", "--format", "svg", "--fps", "0"], "'--fps' needs a whole number from 1 to 240"),
        (["render", "--format", "svg", "--reveal-origin", "3"], "'--reveal-origin' needs X,Y"),
        (["render", "--format", "svg", "--rehide-after", "1"], "need '--reveal-at'"),
        (["render", "--format", "svg", "--reveal-scope", "all"], "unknown value 'all'"),
        (["render", "--format", "html", "--reveal-scope", "all"], "unknown value 'all'"),
        (["render", "--format", "json", "--timeline", "keyframes"], "unknown value 'keyframes'"),
        (["render", "--format", "svg", "--timeline", "frames"], "'--timeline' applies to --format json"),
    ])
    func usageErrors(arguments: [String], reason: String) throws {
        let r = try runSpoiler(arguments)  // usage errors come before the input is read
        #expect(r.status == 2)
        #expect(r.err.contains(reason), "\(r.err)")
    }
}
