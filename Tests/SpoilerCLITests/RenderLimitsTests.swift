import Foundation
import SpoilerTestSupport
import Testing

/// The documented limits of RenderLimits, end to end: a message with too much hidden text
/// is refused at once with one line naming the input, the count and the limit, and
/// nothing on standard output.
@Suite struct RenderLimitsTests {
    /// 30,000 spoilers of two letters: 60,000 hidden graphemes, over the 20,000 limit
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
                + "20000; use --format html or split the message\n")
    }

    /// One spoiler of 25,000 words: the lower bound counts them too.
    @Test func oneLongSpoilerIsRefused() throws {
        let r = try runSpoiler(
            ["render", "--format", "svg"], input: "||" + String(repeating: "a ", count: 25_000) + "||")
        #expect(r.status == 1)
        #expect(
            r.err
                == "error: <stdin>: 1 spoiler, at least 25000 hidden graphemes: --format svg draws at most "
                + "20000; use --format html or split the message\n")
    }

    /// Hidden graphemes the lower bound cannot see (two-byte letters) are counted after
    /// the layout, before the scene.
    @Test func hiddenGraphemesAreCountedAfterTheLayout() throws {
        let r = try runSpoiler(
            ["render", "--format", "svg"], input: "||" + String(repeating: "é", count: 20_001) + "||")
        #expect(r.status == 1)
        #expect(
            r.err
                == "error: <stdin>: 20001 hidden graphemes: --format svg draws at most 20000; use --format html "
                + "or split the message\n")
    }

    /// An animation holds hidden graphemes × frames; a still of the same message is drawn.
    @Test func framesCountForAnimations() throws {
        let message = String(repeating: "||abcdefghij|| ", count: 300)  // 3,000 hidden graphemes
        let still = try runSpoiler(["render", "--format", "svg"], input: message)
        #expect(still.status == 0, "\(still.err)")
        let loop = try runSpoiler(["render", "--format", "svg", "--duration", "2"], input: message)
        #expect(loop.status == 1)
        #expect(
            loop.err
                == "error: <stdin>: 3000 hidden graphemes over 60 frames: --format svg animates at most 120000 "
                + "grapheme-frames; lower --duration or --fps, use --format html or split the message\n")
        let json = try runSpoiler(["render", "--format", "json", "--duration", "1", "--fps", "10"], input: message)
        #expect(json.status == 0, "\(json.err)")
        let jsonLong = try runSpoiler(["render", "--format", "json"], input: message)
        #expect(jsonLong.status == 1)
        #expect(jsonLong.err.contains("3000 hidden graphemes over 60 frames: --format json animates at most 120000"))
    }

    /// Density scales the particles, and so the limit; the page has no limit.
    @Test func densityAndThePage() throws {
        let message = String(repeating: "||abcdefghij|| ", count: 1_100)  // 11,000 hidden graphemes
        let dense = try runSpoiler(["render", "--format", "svg", "--density", "40"], input: message)
        #expect(dense.status == 1)
        #expect(
            dense.err
                == "error: <stdin>: 1100 spoilers, at least 11000 hidden graphemes: --format svg draws at most "
                + "20000 at --density 20; use --format html or split the message\n")

        let page = try runSpoiler(["render", "--format", "html"], input: message)
        #expect(page.status == 0, "\(page.err)")
    }
}
