import Foundation
import SpoilerTestSupport
import Testing

/// `render --celebrate`: confetti over the whole picture from the last reveal, looked at
/// frame by frame.
@Suite struct CelebrateRenderTests {
    let message = "the butler ||did it|| in the ||library||"

    /// One confetti piece of an SVG still: its serial number, corners and fill.
    struct Piece {
        var id: Int
        var points: [(x: Double, y: Double)]
        var fill: String

        var centre: (x: Double, y: Double) {
            (points.map(\.x).reduce(0, +) / Double(points.count), points.map(\.y).reduce(0, +) / Double(points.count))
        }
        /// The distance from the centre to the first corner (the shape's outer radius).
        var radius: Double {
            let c = centre
            return ((points[0].x - c.x) * (points[0].x - c.x) + (points[0].y - c.y) * (points[0].y - c.y)).squareRoot()
        }
        /// The first corner's direction, folded into the shape's symmetry period.
        var turn: Double {
            let c = centre
            let a = atan2(points[0].y - c.y, points[0].x - c.x)
            let period = 2 * Double.pi / Double(points.count == 10 ? 5 : points.count)
            return a - period * (a / period).rounded(.down)
        }
        var period: Double { 2 * Double.pi / Double(points.count == 10 ? 5 : points.count) }
    }

    func pieces(_ svg: String) -> [Int: Piece] {
        let pattern = #/<polygon points="([^"]*)" data-piece="(\d+)" fill="(#[0-9a-f]{6})"/#
        var out: [Int: Piece] = [:]
        for m in svg.matches(of: pattern) {
            let points = m.1.split(separator: " ").map { pair in
                let xy = pair.split(separator: ",").map { Double($0)! }
                return (x: xy[0], y: xy[1])
            }
            out[Int(m.2)!] = Piece(id: Int(m.2)!, points: points, fill: String(m.3))
        }
        return out
    }

    func svg(at t: Double, _ extra: [String] = []) throws -> String {
        let r = try runSpoiler(
            ["render", "--format", "svg", "--celebrate", "--reveal-at", "0.2", "--at", "\(t)", "--seed", "3"] + extra,
            input: message)
        #expect(r.status == 0, "\(r.err)")
        return r.out
    }

    @Test func framesHalfASecondApartFallAndSpin() throws {
        let a = pieces(try svg(at: 0.7))
        let b = pieces(try svg(at: 1.2))
        #expect(a.count >= 5)
        var matched = 0
        var turned = 0
        for (id, p) in a {
            guard let q = b[id] else { continue }
            matched += 1
            let dy = q.centre.y - p.centre.y
            // 200 ± 50 px/s within π/8 of straight down.
            #expect(dy > 60 && dy < 126, "piece \(id) fell \(dy) px in 0.5 s")
            // Scale speed −0.05/s: 0.025 of 8 px across, so the radius shrinks.
            #expect(q.radius < p.radius - 0.05, "piece \(id) did not shrink")
            var d = abs(q.turn - p.turn)
            d = min(d, p.period - d)
            if d > 0.02 { turned += 1 }
        }
        #expect(matched >= 5)
        #expect(turned * 10 >= matched * 8, "only \(turned) of \(matched) pieces turned")
    }

    @Test func colorsAreRedGreenAndBlue() throws {
        let fills = Set(pieces(try svg(at: 1.2)).values.map(\.fill))
        #expect(fills == ["#ff3b30", "#34c759", "#007aff"])
    }

    @Test func noPieceIsClippedAtTheTopAsItEnters() throws {
        var seen = 0
        for k in 0..<6 {
            let s = try svg(at: 0.2 + Double(k) * 0.05)
            // The picture starts at the margin: viewBox "-4 -4 W H".
            #expect(s.contains(#"viewBox="-4 -4 "#))
            for p in pieces(s).values {
                seen += 1
                #expect(p.points.allSatisfy { $0.y >= -4 }, "piece \(p.id) sticks out of the top: \(p.points)")
            }
        }
        #expect(seen > 5)
    }

    @Test func theStageGivesRoomBelowTheText() throws {
        let s = try svg(at: 1.2)
        #expect(s.contains(#"height="320""#))
        #expect(pieces(s).values.contains { $0.centre.y > 100 })
        let staged = try svg(at: 1.2, ["--stage", "200x150"])
        #expect(staged.contains(#"width="200" height="150" viewBox="-4 -4 200 150""#))
        let bad = try runSpoiler(["render", "--format", "svg", "--stage", "200"], input: message)
        #expect(bad.status == 2 && bad.err.contains("--stage"))
    }

    @Test func theConfettiShowsInThePicture() throws {
        let image = try renderSVG(Array(try svg(at: 1.2).utf8))
        var colours: Set<String> = []
        for y in 24..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x, y)
                guard p.a > 200 else { continue }
                if p.r > 200 && p.g < 100 && p.b < 100 { colours.insert("red") }
                if p.g > 150 && p.r < 100 && p.b < 150 { colours.insert("green") }
                if p.b > 200 && p.r < 50 && p.g < 160 { colours.insert("blue") }
            }
        }
        #expect(colours == ["red", "green", "blue"])
    }

    @Test func noRevealNoConfettiAndReducedMotionNone() throws {
        let none = try runSpoiler(["render", "--format", "svg", "--celebrate", "--at", "1"], input: message)
        #expect(none.status == 0 && pieces(none.out).isEmpty)
        let still = try svg(at: 1.2, ["--reduced-motion"])
        #expect(pieces(still).isEmpty && !still.contains("celebration"))
    }

    @Test func jsonFramesCarryTheConfettiWithRotations() throws {
        let r = try runSpoiler(
            [
                "render", "--format", "json", "--timeline", "frames", "--celebrate", "--reveal-at", "0", "--fps", "2",
                "--duration", "1.5",
            ],
            input: message)
        #expect(r.status == 0, "\(r.err)")
        let doc = try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
        let party = doc["celebration"] as! [String: Double]
        #expect(party["start"] == 0 && party["height"] == 320)
        let frames = doc["frames"] as! [[String: Any]]
        let confetti = frames.map { $0["confetti"] as! [String: [Any]] }
        #expect((confetti[0]["rotation"]?.count ?? 0) > 0)
        #expect(Set(confetti[1]["shape"] as! [String]) == ["polygon", "square", "star"])
        let meanY = confetti.map { c in (c["y"] as! [Double]).reduce(0, +) / Double(max(1, c["y"]!.count)) }
        #expect(meanY[1] > meanY[0] + 30)
    }

    /// The compact timeline: every piece once under "confetti", its y track falling and
    /// its rotation track turning, in the palette's red, green and blue.
    @Test func jsonTracksCarryTheConfettiOnce() throws {
        let r = try runSpoiler(
            ["render", "--format", "json", "--celebrate", "--reveal-at", "0", "--fps", "10", "--duration", "1.5"],
            input: message)
        #expect(r.status == 0, "\(r.err)")
        let doc = try JSONSerialization.jsonObject(with: r.stdout) as! [String: Any]
        #expect(doc["format"] as? String == "tracks")
        let party = try #require(doc["celebration"] as? [String: Double])
        #expect(party["start"] == 0 && party["height"] == 320)
        let confetti = try #require(doc["confetti"] as? [String: Any])
        let colors = doc["colors"] as! [String], shapes = doc["shapes"] as! [String]
        let first = confetti["first"] as! [Int]
        #expect(first.count >= 20, "\(first.count) pieces")
        #expect(confetti["word"] == nil)
        let pieceColors = Set((confetti["color"] as! [Int]).map { colors[$0] })
        #expect(pieceColors == ["#ff3b30", "#34c759", "#007aff"])
        #expect(Set((confetti["shape"] as! [Int]).map { shapes[$0] }) == ["polygon", "square", "star"])
        // A track [v0, d1, dv1, …]: the sum of the changes is the last value minus the first.
        func change(_ track: [Int]) -> Int { stride(from: 2, to: track.count, by: 2).reduce(0) { $0 + track[$1] } }
        let ys = confetti["y"] as! [[Int]], turns = confetti["rotation"] as! [[Int]]
        let last = confetti["last"] as! [Int]
        let long = first.indices.filter { last[$0] - first[$0] >= 5 }
        #expect(long.count >= 10)
        #expect(long.allSatisfy { change(ys[$0]) > 0 }, "a piece that lived half a second did not fall")
        #expect(long.filter { change(turns[$0]) != 0 }.count * 10 >= long.count * 8)
    }

    @Test(arguments: ["ansi", "cast"])
    func terminalFormatsDrawConfettiBelowTheText(format: String) throws {
        let r = try runSpoiler(
            ["render", "--format", format, "--celebrate", "--reveal-at", "0", "--duration", "1", "--fps", "10"],
            input: message)
        #expect(r.status == 0, "\(r.err)")
        #expect(["■", "◆", "⬢", "⬣", "★"].contains { r.out.contains($0) })
        if format == "cast" {
            // The screen has room for the fall: 320 px of 16 px rows, and the row below;
            // as wide as the message (32 columns).
            #expect(r.out.hasPrefix(#"{"version":2,"width":32,"height":21"#), "\(r.out.prefix(80))")
        }
    }
}
