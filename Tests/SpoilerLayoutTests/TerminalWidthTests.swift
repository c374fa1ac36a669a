import Foundation
import SpoilerCore
import SpoilerLayout
import SpoilerTestSupport
import Testing

/// Compares `mono` widths with what a real terminal shows: each string is printed inside
/// tmux, followed by a cursor position report (CSI 6n), and the column tmux answers with is
/// compared with the layout's.
///
/// tmux 3.3a measures each scalar with the C library's `wcwidth` and joins ZWJ sequences
/// and combining marks into one cell, but it does not make VS16 sequences wide, it gives a
/// skin-tone modifier its own two cells, and glibc gives a lone Hangul vowel jamo and an
/// unassigned code point no cell where utf8proc gives one. `mono` follows utf8proc and the emoji-aware
/// terminals (a grapheme cluster is as wide as its emoji presentation); the cases where tmux
/// differs are listed in ``tmuxDiffers`` with the width tmux shows, so a change on either
/// side makes this test fail.
@Suite(.serialized) struct TerminalWidthTests {
    /// Strings whose width tmux and `mono` agree on.
    static let agreed: [String] = [
        "plain ASCII text", "Привет, мир", "漢字と日本語のテキスト", "ＡＢＣ fullwidth", "한국어 가각",
        "e\u{301}te\u{301} a\u{308}\u{323}", "😀🎬🍿", "👩‍👩‍👧 family", "🇺🇦🇯🇵 flags",
        "\u{3000}ideographic space", "a\u{A0}b", "tab\tstop", "ab\t\tcd", "mixed Жж 漢 😀 é",
        "\u{1B}[31m escape", "bell\u{7} del\u{7F}", "csi\u{9B}1m", "\u{202E}override\u{202C}",
        "zero\u{200B}width\u{200E}", "🎬x", "x🎬", "Ⅻ ① ∀ ≠", "\u{1100}\u{1161}\u{11A8} jamo",
        "❤ text heart", "1\u{20E3} keycap without VS16", "❤\u{FE0E} VS15",
        "soft\u{AD}hyphen", "\u{1F3FD} lone modifier", "\u{E000} private use", "\u{301} lone mark",
        "👨‍👩‍👧‍👦 four", "क्ष Devanagari", "\u{200D} lone ZWJ",
    ]

    /// Strings where tmux 3.3a shows another width than `mono`: the string and tmux's width.
    static let tmuxDiffers: [(text: String, tmux: Int)] = [
        ("👍🏽", 4),  // tmux: the modifier U+1F3FD takes two cells of its own; mono: 2 (one cluster)
        ("❤\u{FE0F}", 1),  // tmux ignores VS16; mono: 2 (emoji presentation)
        ("☺\u{FE0F}", 1),
        ("1\u{FE0F}\u{20E3}", 1),  // keycap
        ("🇺", 1),  // lone regional indicator: tmux and mono agree on 1 (kept as a sentinel)
        ("\u{1160}", 0),  // a lone Hangul vowel jamo: glibc 0, utf8proc 1
        ("\u{378}", 0),  // an unassigned code point: glibc 0, utf8proc 1
        ("❤\u{FE0F}\u{200D}🔥", 1),  // a ZWJ sequence led by a VS16 emoji
        ("👩🏽\u{200D}💻", 4),  // a ZWJ sequence with a skin tone
    ]

    /// The columns tmux's cursor reaches after printing each string from column 0.
    static func tmuxColumns(_ strings: [String]) throws -> [Int] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.txt")
        let output = dir.appendingPathComponent("out.txt")
        let done = dir.appendingPathComponent("done")
        try (strings.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let script = """
            stty raw -echo
            while IFS= read -r s; do
              printf '\\r\\033[2K%s\\033[6n' "$s"
              IFS= read -r -d R resp < /dev/tty
              printf '%s\\n' "${resp##*;}" >> '\(output.path)'
            done < '\(input.path)'
            touch '\(done.path)'
            """
        let scriptURL = dir.appendingPathComponent("measure.sh")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        let socket = "spoilerkit-layout-\(getpid())-\(UUID().uuidString.prefix(8))"
        let tmux = URL(fileURLWithPath: "/usr/bin/tmux")
        let env = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]
        defer { _ = try? runProgram(tmux, ["-L", socket, "kill-server"], environment: env) }
        let start = try runProgram(
            tmux,
            [
                "-L", socket, "-f", "/dev/null", "-u", "new-session", "-d", "-x", "300", "-y", "10",
                "bash " + scriptURL.path,
            ],
            environment: env)
        #expect(start.status == 0, "tmux new-session: \(start.err)")
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: done.path) {  // up to 30 s on a busy machine
            usleep(50_000)
        }
        let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == strings.count, "tmux answered \(lines.count) of \(strings.count) reports")
        return lines.map { (Int($0) ?? 0) - 1 }
    }

    /// What renderers print for `text`: the display forms of its graphemes.
    static func displayed(_ text: String) -> (display: String, columns: Int) {
        let layout = LayoutEngine().layout(Message(text: text))
        return (layout.graphemes.map(\.display).joined(), layout.columns ?? 0)
    }

    @Test func monoWidthsMatchTmux() throws {
        let shown = Self.agreed.map(Self.displayed)
        let columns = try Self.tmuxColumns(shown.map(\.display))
        for (i, text) in Self.agreed.enumerated() {
            #expect(
                columns[i] == shown[i].columns,
                "\(String(reflecting: text)): tmux \(columns[i]), mono \(shown[i].columns)")
        }
    }

    @Test func knownDifferencesFromTmux() throws {
        let columns = try Self.tmuxColumns(Self.tmuxDiffers.map { Self.displayed($0.text).display })
        for (i, c) in Self.tmuxDiffers.enumerated() {
            #expect(columns[i] == c.tmux, "\(String(reflecting: c.text)): tmux now shows \(columns[i])")
        }
        // What mono says for them.
        #expect(Self.tmuxDiffers.map { Self.displayed($0.text).columns } == [2, 2, 2, 2, 1, 1, 1, 2, 2])
    }
}
