import Foundation
import SpoilerTestSupport
import Testing

/// `spoiler render --format html` in a real browser: headless Chromium driven by selenium
/// (`Browser/drive_page.py`), screenshots read pixel by pixel.
@Suite(.serialized) struct HTMLPageTests {
    /// Two one-word spoilers, so a click on one must leave the other hidden.
    let message = "the butler ||did|| it, said ||Ana||"
    static let hidden = ["did", "Ana"]

    struct Rect: Decodable {
        var x: Double, y: Double, width: Double, height: Double, text: String
    }
    struct Page: Decodable {
        struct After: Decodable {
            var innerText: String
            var words: [Rect]
        }
        struct Focus: Decodable {
            var role: String?
            var name: String?
        }
        var words: [Rect]
        var innerText: String
        var textContent: String
        var selection: String
        var afterClick: After
        var afterKey: After
        var focus: Focus
        var console: [[String: String]]
    }

    /// What `drive_page.py --idle` reports: the runtime's frame counter read 0.5 s apart
    /// in each situation, and what the page saw when it was hidden and shown.
    struct Idle: Decodable {
        struct Change: Decodable {
            var state: String
            var frames: Int
            var ms: Double
        }
        var onScreen: [Int], offScreen: [Int], back: [Int], shown: [Int]
        var visibilityChanges: [Change]
    }
    struct IdleReport: Decodable {
        var idle: Idle
        var console: [[String: String]]
    }

    /// Writes the page, drives it in Chromium, and returns what the driver saw and the
    /// folder of its screenshots.
    func drive(_ arguments: [String] = [], reducedMotion: Bool = false) throws -> (Page, URL) {
        let (stdout, dir) = try driveRaw(arguments, mode: reducedMotion ? ["--reduced-motion"] : [])
        return (try JSONDecoder().decode(Page.self, from: stdout), dir)
    }

    /// Runs the driver on a fresh page with `mode`'s flags; its standard output and folder.
    func driveRaw(_ arguments: [String] = [], mode: [String]) throws -> (Data, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let page = dir.appendingPathComponent("page.html")
        let r = try runSpoiler(["render", "--format", "html", "-o", page.path] + arguments, input: message)
        #expect(r.status == 0, "\(r.err)")
        let script = packageRoot.appendingPathComponent("Tests/SpoilerCLITests/Browser/drive_page.py")
        let env = ProcessInfo.processInfo.environment
        let run = try runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", script.path, page.path, dir.path] + mode,
            environment: ["HOME": env["HOME"] ?? dir.path, "PYENV_ROOT": env["PYENV_ROOT"] ?? ""])
        try #require(
            run.status == 0,
            "the browser driver failed (needs Debian chromium, chromium-driver and selenium from PyPI): \(run.err)")
        return (run.stdout, dir)
    }

    func image(_ dir: URL, _ name: String) throws -> PNGImage {
        try PNGImage(Data(contentsOf: dir.appendingPathComponent(name)))
    }

    /// Pixels where two screenshots differ, as (x, y).
    func differences(_ a: PNGImage, _ b: PNGImage) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) where a.pixel(x, y) != b.pixel(x, y) { out.append((x, y)) }
        }
        return out
    }

    func inside(_ p: (Int, Int), _ r: Rect, grow: Double = 0) -> Bool {
        Double(p.0) >= r.x - grow && Double(p.0) < r.x + r.width + grow && Double(p.1) >= r.y - grow
            && Double(p.1) < r.y + r.height + grow
    }

    /// Bright pixels (text; the dust is at most #8e8e93) inside `r`.
    func textPixels(_ image: PNGImage, in r: Rect) -> Int {
        var n = 0
        for y in Int(r.y)..<Int(r.y + r.height) {
            for x in Int(r.x)..<Int(r.x + r.width) {
                let p = image.pixel(x, y)
                if p.r > 200 && p.g > 200 && p.b > 200 { n += 1 }
            }
        }
        return n
    }

    @Test func dustCoversEachWordMovesAndRevealsOnClickAndKey() throws {
        let (page, dir) = try drive()
        defer { try? FileManager.default.removeItem(at: dir) }
        try #require(page.words.count == 2)
        #expect(page.console.isEmpty, "console errors: \(page.console)")

        // Dust: the page with and without its canvases differs inside each word, nowhere else.
        let a = try image(dir, "a.png"), bare = try image(dir, "a-bare.png"), b = try image(dir, "b.png")
        let dust = differences(a, bare)
        for (i, word) in page.words.enumerated() {
            let n = dust.filter { inside($0, word) }.count
            #expect(n > 20, "word \(i): \(n) dust pixels")
        }
        let stray = dust.filter { p in !page.words.contains { inside(p, $0, grow: 1) } }
        #expect(stray.isEmpty, "dust outside the words: \(stray.prefix(5))")
        // It moves: two screenshots 200 ms apart differ inside each word.
        let moved = differences(a, b)
        for (i, word) in page.words.enumerated() {
            #expect(moved.filter { inside($0, word) }.count > 5, "word \(i) does not move")
        }

        // Hidden means absent: not in the page's text, a select-all copy, or its text nodes.
        for word in Self.hidden {
            #expect(!page.innerText.contains(word) && !page.selection.contains(word))
            #expect(!page.textContent.contains(word))
            #expect(textPixels(bare, in: page.words[0]) == 0 && textPixels(bare, in: page.words[1]) == 0)
        }
        #expect(page.innerText.contains("the butler") && page.innerText.contains("it, said"))

        // A click on "did" reveals it (DOM text and pixels) and leaves "Ana" hidden, both
        // boxes keeping their size.
        #expect(page.afterClick.innerText.contains("the butler did it, said"))
        #expect(!page.afterClick.innerText.contains("Ana"))
        #expect(page.afterClick.words.map(\.width) == page.words.map(\.width))
        let clickBare = try image(dir, "click-bare.png"), click = try image(dir, "click.png")
        #expect(textPixels(clickBare, in: page.words[0]) > 20, "the revealed word's text shows")
        #expect(textPixels(clickBare, in: page.words[1]) == 0)
        #expect(differences(click, clickBare).filter { inside($0, page.words[1]) }.count > 20, "Ana keeps its dust")
        #expect(differences(click, clickBare).filter { inside($0, page.words[0], grow: 1) }.isEmpty, "did lost it")

        // Tab reaches the first spoiler, a button with its name; Enter reveals it.
        #expect(page.focus.role == "button" && page.focus.name == "spoiler, press to reveal")
        #expect(page.afterKey.innerText.contains("did") && !page.afterKey.innerText.contains("Ana"))
    }

    @Test func reducedMotionGivesAStillDotPattern() throws {
        let (page, dir) = try drive(reducedMotion: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try image(dir, "a.png"), bare = try image(dir, "a-bare.png"), b = try image(dir, "b.png")
        #expect(differences(a, b).isEmpty, "the still pattern moved")
        for word in page.words { #expect(differences(a, bare).filter { inside($0, word) }.count > 20) }
        #expect(page.console.isEmpty, "console errors: \(page.console)")
    }

    /// The dust animates only while someone can see it: the runtime's frame counter stands
    /// still with the page scrolled so that no spoiler shows, and while the page is hidden,
    /// and moves again when the spoilers come back.
    @Test func animationStopsWhileHiddenOrOffScreen() throws {
        let (stdout, dir) = try driveRaw(mode: ["--idle"])
        defer { try? FileManager.default.removeItem(at: dir) }
        let report = try JSONDecoder().decode(IdleReport.self, from: stdout)
        let idle = report.idle
        func frames(_ pair: [Int]) -> Int { pair.count == 2 ? pair[1] - pair[0] : -1 }
        #expect(frames(idle.onScreen) >= 10, "the dust does not animate on screen: \(idle.onScreen)")
        #expect(frames(idle.offScreen) == 0, "frames drawn with no spoiler on screen: \(idle.offScreen)")
        #expect(frames(idle.back) >= 10, "the dust does not start again on screen: \(idle.back)")
        let hidden = try #require(idle.visibilityChanges.first { $0.state == "hidden" }, "never hidden")
        let shown = try #require(idle.visibilityChanges.last { $0.state == "visible" }, "never shown again")
        #expect(shown.ms - hidden.ms >= 500, "hidden for \(shown.ms - hidden.ms) ms")
        #expect(shown.frames - hidden.frames <= 1, "frames drawn while hidden: \(shown.frames - hidden.frames)")
        #expect(frames(idle.shown) >= 10, "the dust does not start again when shown: \(idle.shown)")
        #expect(report.console.isEmpty, "console errors: \(report.console)")
    }

    @Test func redactLeavesHiddenTextOutOfTheFile() throws {
        let r = try runSpoiler(["render", "--format", "html", "--redact"], input: message)
        #expect(r.status == 0)
        for word in Self.hidden + ["ZGlk", "QW5h"] { #expect(!r.out.contains(word)) }
        #expect(r.out.contains("\"t\":null"))
        let plain = try runSpoiler(["render", "--format", "html"], input: message)
        #expect(plain.out.contains("\"t\":\"ZGlk\""), "without --redact the word travels as Base64")
        #expect(!plain.out.contains(">did<") && !plain.out.contains("Ana"))
    }

    @Test func aOneLinePageIsSmallAndAFragmentIsAFragment() throws {
        let page = try runSpoiler(["render", "--format", "html"], input: message)
        #expect(page.out.hasPrefix("<!DOCTYPE html>"))
        #expect(page.stdout.count <= 16 * 1024, "\(page.stdout.count) bytes")
        let fragment = try runSpoiler(["render", "--format", "html", "--embed"], input: message)
        #expect(fragment.out.hasPrefix("<style>") && !fragment.out.contains("<html"))
        #expect(fragment.out.contains("<div class=\"spoilerkit\"") && fragment.out.contains("<script>"))
    }

    @Test func markupInTheMessageIsEscapedAndFormattingKept() throws {
        let r = try runSpoiler(
            ["render", "--format", "html", "--from", "html"],
            input: "<b>bold</b> &lt;script&gt; <a href=\"javascript:alert(1)\">x</a> <tg-spoiler>h</tg-spoiler>")
        #expect(r.out.contains("<b>bold</b> &lt;script&gt;"))
        #expect(!r.out.contains("javascript:"))
    }
}
