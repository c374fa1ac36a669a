import Foundation
import SpoilerTestSupport
import Testing

/// `render --format html --celebrate` in Chromium: confetti over the window after the
/// last hidden word's click, falling, then gone; none with reduced motion.
extension HTMLPageTests {
    struct Celebrate: Decodable {
        struct Shot: Decodable {
            var name: String
            var t: Double
        }
        var shots: [Shot]
        var pieces: [[Double]]
        var frames: [Int]
        var canvases: Int
    }
    struct CelebrateReport: Decodable {
        var celebrate: Celebrate
        var console: [[String: String]]
    }

    /// The confetti's pixels in a screenshot: which of its colours show, and the lowest row
    /// holding one (-1: none).
    func confettiPixels(_ image: PNGImage) -> (colours: Set<String>, count: Int, lowest: Int) {
        var colours: Set<String> = []
        var count = 0, lowest = -1
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x, y)
                var hit: String?
                if p.r > 200 && p.g < 100 && p.b < 100 { hit = "red" }  // #ff3b30
                if p.g > 150 && p.r < 100 && p.b < 150 { hit = "green" }  // #34c759
                if p.b > 200 && p.r < 50 && p.g < 160 { hit = "blue" }  // #007aff
                guard let hit else { continue }
                colours.insert(hit)
                count += 1
                lowest = y
            }
        }
        return (colours, count, lowest)
    }

    func celebrate(reducedMotion: Bool) throws -> (Celebrate, [String: PNGImage], [[String: String]]) {
        let (stdout, dir) = try driveRaw(
            ["--celebrate"], mode: ["--celebrate"] + (reducedMotion ? ["--reduced-motion"] : []))
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try JSONDecoder().decode(CelebrateReport.self, from: stdout)
        var images: [String: PNGImage] = [:]
        for shot in report.celebrate.shots { images[shot.name] = try image(dir, shot.name) }
        return (report.celebrate, images, report.console)
    }

    @Test func theLastRevealDropsConfettiOverThePageThenItIsGone() throws {
        let (party, images, console) = try celebrate(reducedMotion: false)
        #expect(console.isEmpty, "console errors: \(console)")
        let before = confettiPixels(try #require(images["before.png"]))
        #expect(before.count == 0, "confetti before the last spoiler was revealed: \(before)")

        // After the last click: red, green and blue pieces, their front falling down the
        // window (200 ± 50 px/s: about 100 px in the 0.5 s between the two screenshots).
        let a = confettiPixels(try #require(images["party-0.png"]))
        let b = confettiPixels(try #require(images["party-1.png"]))
        #expect(a.colours == ["red", "green", "blue"], "\(a)")
        #expect(b.colours == ["red", "green", "blue"], "\(b)")
        #expect(a.lowest > 40 && a.lowest < 300, "the front at \(a.lowest) px 0.5 s after the click")
        #expect(b.lowest > a.lowest + 40, "the front went from \(a.lowest) to \(b.lowest) px")
        #expect(party.pieces.dropFirst().first.map { $0[1] > 20 } == true, "pieces: \(party.pieces)")

        // After the births and the preset's lifetime: nothing left, the canvas removed,
        // and the page's animation stopped.
        let gone = confettiPixels(try #require(images["gone.png"]))
        #expect(gone.count == 0, "confetti left after its lifetime: \(gone)")
        #expect(party.pieces.last?[1] == 0 && party.canvases == 0)
        #expect(party.frames.count == 2 && party.frames[1] == party.frames[0], "frames after: \(party.frames)")
    }

    @Test func reducedMotionHasNoConfetti() throws {
        let (party, images, console) = try celebrate(reducedMotion: true)
        #expect(console.isEmpty, "console errors: \(console)")
        for name in ["party-0.png", "party-1.png", "gone.png"] {
            let seen = confettiPixels(try #require(images[name]))
            #expect(seen.count == 0, "\(name): \(seen)")
        }
        #expect(party.canvases == 0 && party.pieces.allSatisfy { $0[1] == -1 })
    }

    @Test func theScriptIsInThePageOnlyWhenAskedFor() throws {
        let plain = try runSpoiler(["render", "--format", "html"], input: message)
        #expect(!plain.out.contains("sk-confetti") && !plain.out.contains("\"celebration\""))
        let party = try runSpoiler(["render", "--format", "html", "--celebrate"], input: message)
        #expect(party.out.contains("sk-confetti") && party.out.contains("\"celebration\":{\"emitterShape\":\"line\""))
        let still = try runSpoiler(["render", "--format", "html", "--celebrate", "--reduced-motion"], input: message)
        #expect(!still.out.contains("sk-confetti"))
        let staged = try runSpoiler(["render", "--format", "html", "--stage", "100x100"], input: message)
        #expect(staged.status == 2 && staged.err.contains("--stage"))
    }
}
