import Foundation
import SpoilerTestSupport
import Testing

/// The documented limits of RenderLimits, end to end: a message with too much hidden text
/// is refused at once with one line naming the input, the count and the limit, and
/// nothing on standard output.
@Suite struct RenderLimitsTests {
    /// 30,000 spoilers of two letters: 60,000 hidden graphemes, over the 4,096 limit
    /// before the layout is made.
    let manySpoilers = String(repeating: "||ab|| ", count: 30_000)

    @Test(arguments: ["svg", "json", "cast", "ansi"])
    func manySpoilersAreRefusedBeforeTheLayout(format: String) throws {
        let r = try runSpoiler(["render", "--format", format, "--duration", "0.2"], input: manySpoilers)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(
            r.err
                == "error: <stdin>: 30000 spoilers, at least 60000 hidden graphemes: --format \(format) draws at most "
                + "4096; use --format html or split the message\n")
    }

    /// One spoiler of 25,000 words: the lower bound counts them too.
    @Test func oneLongSpoilerIsRefused() throws {
        let r = try runSpoiler(
            ["render", "--format", "svg"], input: "||" + String(repeating: "a ", count: 25_000) + "||")
        #expect(r.status == 1)
        #expect(
            r.err
                == "error: <stdin>: 1 spoiler, at least 25000 hidden graphemes: --format svg draws at most "
                + "4096; use --format html or split the message\n")
    }

    /// Hidden graphemes the lower bound cannot see (two-byte letters) are counted after
    /// the layout, before the scene.
    @Test func hiddenGraphemesAreCountedAfterTheLayout() throws {
        let r = try runSpoiler(
            ["render", "--format", "svg"], input: "||" + String(repeating: "é", count: 4_097) + "||")
        #expect(r.status == 1)
        #expect(
            r.err
                == "error: <stdin>: 4097 hidden graphemes: --format svg draws at most 4096; use --format html "
                + "or split the message\n")
    }

    /// An animation holds hidden graphemes × frames, and two scenes; a still of the same
    /// message is drawn.
    @Test func framesCountForAnimations() throws {
        let message = String(repeating: "||abcdefghij|| ", count: 100)  // 1,000 hidden graphemes
        let still = try runSpoiler(["render", "--format", "svg"], input: message)
        #expect(still.status == 0, "\(still.err)")
        let loop = try runSpoiler(["render", "--format", "svg", "--duration", "3"], input: message)
        #expect(loop.status == 1)
        #expect(
            loop.err
                == "error: <stdin>: 1000 hidden graphemes over 90 frames: --format svg animates at most 65536 "
                + "grapheme-frames; lower --duration or --fps, use --format html or split the message\n")
        let json = try runSpoiler(["render", "--format", "json", "--duration", "1", "--fps", "10"], input: message)
        #expect(json.status == 0, "\(json.err)")
        let jsonLong = try runSpoiler(["render", "--format", "json", "--duration", "3"], input: message)
        #expect(jsonLong.status == 1)
        #expect(jsonLong.err.contains("1000 hidden graphemes over 90 frames: --format json animates at most 65536"))

        let more = String(repeating: "||abcdefghij|| ", count: 300)  // 3,000 hidden graphemes
        #expect(try runSpoiler(["render", "--format", "svg"], input: more).status == 0)
        let short = try runSpoiler(["render", "--format", "svg", "--duration", "0.1"], input: more)
        #expect(short.status == 1)
        #expect(
            short.err
                == "error: <stdin>: 3000 hidden graphemes: --format svg animates at most 1024; use --format html "
                + "or split the message\n")
    }

    /// With reduced motion the hidden words' area is what counts: 700 double-width
    /// graphemes are refused for an animation and drawn still.
    @Test func reducedMotionCountsTheArea() throws {
        let message = "||" + String(repeating: "映", count: 700) + "||"
        let loop = try runSpoiler(["render", "--format", "svg", "--duration", "1", "--reduced-motion"], input: message)
        #expect(loop.status == 1)
        #expect(
            loop.err
                == "error: <stdin>: 2037 hidden graphemes' worth of dots (--reduced-motion: one per 4 px² of a hidden "
                + "word): --format svg animates at most 1024; use --format html or split the message\n")
        #expect(try runSpoiler(["render", "--format", "svg", "--duration", "1"], input: message).status == 0)
        #expect(try runSpoiler(["render", "--format", "svg", "--reduced-motion"], input: message).status == 0)
    }

    /// Density scales the particles, and so the limit; the page has no limit.
    @Test func densityAndThePage() throws {
        let message = String(repeating: "||abcdefghij|| ", count: 300)  // 3,000 hidden graphemes
        let dense = try runSpoiler(["render", "--format", "svg", "--density", "40"], input: message)
        #expect(dense.status == 1)
        #expect(
            dense.err
                == "error: <stdin>: 300 spoilers, at least 3000 hidden graphemes: --format svg draws at most "
                + "4096 at --density 20; use --format html or split the message\n")

        let page = try runSpoiler(["render", "--format", "html"], input: message)
        #expect(page.status == 0, "\(page.err)")
    }

    /// A long line among many short ones: the terminal animations and the whole still
    /// frame (with a reveal) are refused before any canvas; the still frame of the text
    /// alone is drawn, in bands or pieces, and shows every row; wrapped, the short one's
    /// animation is drawn.
    @Test(arguments: [false, true])
    func aScreenOfTooManyCellsIsRefusedOrDrawnInBands(short: Bool) throws {
        // 600 columns × 301 rows (a short message, drawn whole), or 9,000 × 1,801 (drawn in pieces).
        let width = short ? 600 : 9_000
        let message =
            String(repeating: "a", count: width) + String(repeating: "\n", count: short ? 300 : 1_800)
            + "b ||x||"
        let rows = short ? 301 : 1_801
        for args in [
            ["--format", "cast"], ["--format", "ansi", "--duration", "0.1"],
            ["--format", "ansi", "--reveal-at", "0.1"],
        ] {
            let r = try runSpoiler(["render"] + args, input: message)
            #expect(r.status == 1)
            #expect(r.stdout.isEmpty)
            #expect(
                r.err
                    == "error: <stdin>: a screen of \(width)x\(rows) cells: --format \(args[1]) draws at most 131072 "
                    + "cells; wrap the text with --width N, use --format html or split the message\n")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID().uuidString).ans")
        defer { try? FileManager.default.removeItem(at: file) }
        for toFile in [false, true] {
            let still = try runSpoiler(
                ["render", "--format", "ansi", "--color", "never"] + (toFile ? ["-o", file.path] : []), input: message)
            #expect(still.status == 0, "\(still.err)")
            let text = toFile ? try String(contentsOf: file, encoding: .utf8) : still.out
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == rows + 1)
            #expect(lines.first == String(repeating: "a", count: width)[...])
            #expect(lines.count > rows - 1 && lines[rows - 1].hasPrefix("b "))
            #expect(!text.contains("x"))
        }
        // Wrapped at 80 columns: 80 × 301 cells are drawn; 80 × 1,913 are still too many.
        let wrapped = try runSpoiler(
            ["render", "--format", "cast", "--width", "80", "--duration", "0.1"], input: message)
        #expect(wrapped.status == (short ? 0 : 1), "\(wrapped.err)")
    }
}
