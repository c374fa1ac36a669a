import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler play` and `spoiler render --format ansi|cast` as a user runs them, when the
/// output is not a terminal (a file here): still frames, recordings, usage errors.
@Suite struct PlayCommandTests {
    /// OSC 52 (write the clipboard), CSI 2J (erase the screen), BEL, C1 CSI, DEL and a
    /// right-to-left override, around a hidden word.
    static let hostile = "a\u{1B}]52;c;aGk=\u{07} b\u{1B}[2J c\u{9B}31m d\u{7F} \u{202E}e ||secret|| f\n"

    static func visible(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).split(separator: "\u{1B}", omittingEmptySubsequences: false)
            .joined(separator: "␛")
    }

    @Test func notATerminalGivesOneMaskedStillFrameWithoutEscapes() throws {
        let r = try runSpoiler(
            ["play"], input: "the butler ||did it|| in the library\n", environment: ["TERM": "xterm-256color"])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.stdout.contains(0x1B))
        #expect(r.out.hasPrefix("the butler "))
        #expect(r.out.hasSuffix(" in the library\n"))
        #expect(!r.out.contains("did") && !r.out.contains(" it "))
        #expect(r.out.split(separator: "\n").count == 1)
    }

    @Test func colorAlwaysColoursTheStillFrame() throws {
        let r = try runSpoiler(
            ["play", "--color", "always"], input: "the butler ||did it||\n",
            environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        #expect(r.status == 0)
        #expect(r.out.contains("\u{1B}[0;38;2;") || r.out.contains("\u{1B}[38;2;"))
        #expect(!r.out.contains("did"))
        // NO_COLOR does not override an explicit --color always, and --color never wins.
        let never = try runSpoiler(
            ["play", "--color", "never"], input: "x ||y||\n", environment: ["TERM": "xterm-256color"])
        #expect(!never.stdout.contains(0x1B))
    }

    @Test func controlCharactersInTheMessageAreShownAsSymbols() throws {
        let r = try runSpoiler(["play", "--glyphs", "ascii"], input: PlayCommandTests.hostile)
        #expect(r.status == 0, "\(r.err)")
        let bytes = [UInt8](r.stdout)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x07) && !bytes.contains(0x7F))
        #expect(!r.out.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(!r.out.contains("secret"))
        expectMatchesFixture(r.out, "ansi/play-still-hostile.txt")
    }

    @Test func hostileTextInTheColouredFramesStaysInert() throws {
        let r = try runSpoiler(
            [
                "render", "--format", "ansi", "--duration", "1", "--fps", "10", "--reveal-at", "0.1", "--color",
                "always",
            ],
            input: PlayCommandTests.hostile, environment: ["TERM": "xterm-256color"])
        #expect(r.status == 0, "\(r.err)")
        let bytes = [UInt8](r.stdout)
        // Every ESC starts one of the renderer's own CSI sequences; no BEL, DEL, C1, RLO.
        for (i, b) in bytes.enumerated() where b == 0x1B {
            #expect(i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "["))
        }
        #expect(!bytes.contains(0x07) && !bytes.contains(0x7F))
        #expect(!r.out.unicodeScalars.contains { (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        var screen = ANSIScreen(width: 44, height: 2)
        screen.apply(bytes)
        #expect(screen.unexpected.isEmpty, "\(screen.unexpected)")
        #expect(screen.lines[0].hasPrefix("a␛]52;c;aGk=␇ b␛[2J c�31m d␡ �e secret f"))
    }

    @Test func aStillANSIFrameWithReducedMotion() throws {
        let r = try runSpoiler(
            ["render", "--format", "ansi", "--reduced-motion", "--color", "always"],
            input: "the code is ||swordfish|| and ||marmalade||\n", environment: ["TERM": "xterm-256color"])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.out.contains("swordfish") && !r.out.contains("marmalade"))
        expectMatchesFixture(PlayCommandTests.visible(r.stdout), "ansi/still-reduced-motion.txt")
    }

    @Test func framesOfARevealWithReducedMotion() throws {
        let r = try runSpoiler(
            [
                "render", "--format", "ansi", "--reduced-motion", "--duration", "0.4", "--fps", "5", "--reveal-at",
                "0.2",
                "--reveal-origin", "100,8", "--color", "always",
            ],
            input: "the code is ||swordfish|| and ||marmalade||\n", environment: ["TERM": "xterm-256color"])
        #expect(r.status == 0, "\(r.err)")
        var screen = ANSIScreen(width: 35, height: 2)
        screen.apply([UInt8](r.stdout))
        #expect(screen.lines[0].hasPrefix("the code is swordfish and "))
        #expect(!screen.lines[0].contains("marmalade"))
        expectMatchesFixture(
            PlayCommandTests.visible(r.stdout) + "\n" + screen.lines.joined(separator: "\n") + "\n",
            "ansi/frames-reveal.txt")
    }

    @Test func aCastRecording() throws {
        let r = try runSpoiler(
            [
                "render", "--format", "cast", "--reduced-motion", "--duration", "0.4", "--fps", "5", "--reveal-at",
                "0.2",
            ],
            input: "the code is ||swordfish|| and ||marmalade||\n", environment: ["TERM": "xterm-256color"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix(#"{"version":2,"width":35,"height":2,"#))
        expectMatchesFixture(r.out, "cast/reveal-reduced-motion.cast")
    }

    struct ColorCase: Sendable, CustomTestStringConvertible {
        var environment: [String: String]
        var color: String
        /// The SGR form of the particle colour: "38;2;" (24-bit), "38;5;" (256), "9" (16), nil (none).
        var expected: String?
        var testDescription: String { "\(environment) --color \(color)" }
    }

    @Test(arguments: [
        ColorCase(
            environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], color: "always", expected: "38;2;"),
        ColorCase(environment: ["TERM": "xterm-256color"], color: "always", expected: "38;5;"),
        ColorCase(environment: ["TERM": "xterm"], color: "always", expected: "[9"),
        ColorCase(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], color: "auto", expected: nil),
        ColorCase(environment: ["TERM": "xterm-256color", "NO_COLOR": "1"], color: "always", expected: "38;5;"),
        ColorCase(environment: ["TERM": "dumb"], color: "auto", expected: nil),
        ColorCase(environment: ["TERM": "xterm-256color", "COLORTERM": "24bit"], color: "never", expected: nil),
        // The output here is a pipe, not a terminal: auto means no colour, whatever TERM says.
        ColorCase(environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor"], color: "auto", expected: nil),
        ColorCase(environment: ["TERM": "xterm"], color: "auto", expected: nil),
    ])
    func colourCapabilityFollowsTheEnvironment(_ c: ColorCase) throws {
        let r = try runSpoiler(
            ["render", "--format", "ansi", "--reduced-motion", "--color", c.color], input: "a ||b||\n",
            environment: c.environment)
        #expect(r.status == 0, "\(r.err)")
        if let expected = c.expected {
            #expect(r.out.contains(expected), "\(PlayCommandTests.visible(r.stdout))")
        } else {
            #expect(!r.out.contains("38;") && !r.out.contains("[9"), "\(PlayCommandTests.visible(r.stdout))")
        }
    }

    @Test(arguments: [
        ["render", "--format", "cast", "--at", "1"],
        ["render", "--format", "ansi", "--glyphs", "dots"],
        ["render", "--format", "ansi", "--color", "sometimes"],
        ["play", "--fps", "0"],
        ["play", "--from", "export"],
    ])
    func usageErrors(_ arguments: [String]) throws {
        let r = try runSpoiler(arguments, input: "x ||y||\n")
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("error: "))
    }
}
