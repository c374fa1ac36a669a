import Foundation
import SpoilerTestSupport
import Testing

/// The README's examples, run against the built `spoiler` as a reader would type them.
///
/// The convention (README.md, "Command line"): a fenced block without a language whose
/// first line starts with `$ ` is a transcript; each `$ ` line is a command, and the lines
/// up to the next `$ ` are what it prints (standard output, then standard error). An
/// output with an `…` in it is abridged, and a command shown with no output may print
/// some (it stands in a list of commands): of those only the exit status is checked. A command
/// shown with an `error: ` line must fail with status 1; every other one must succeed.
/// A ` ```sh ` block holds commands shown without output; each one that runs `spoiler` is
/// run too and must succeed (a line ending in `|` or `\` goes on on the next line). The
/// commands run under `bash -o pipefail` in a scratch folder holding the files they name
/// (`result.json`, the sample export; `notes.md`), with the built `spoiler` first on PATH.
@Suite struct ReadmeExamplesTests {
    /// One example: the command, what it prints (nil: not shown or abridged), and whether
    /// it is shown failing.
    struct Example: CustomStringConvertible {
        var line: Int
        var command: String
        var output: String?
        var fails: Bool
        var description: String { "README.md:\(line): \(command)" }
    }

    /// The fenced blocks of `text`: the info string, the first content line's number, and
    /// the content lines.
    static func blocks(_ text: String) -> [(info: String, line: Int, lines: [String])] {
        var blocks: [(info: String, line: Int, lines: [String])] = []
        var open: (info: String, line: Int, lines: [String])?
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), k + 2, [])
                }
            } else if open != nil {
                open!.lines.append(String(line))
            }
        }
        return blocks
    }

    /// The examples the README shows, in order.
    static func examples(_ text: String) -> [Example] {
        var examples: [Example] = []
        for block in blocks(text) {
            if block.info.isEmpty, block.lines.first?.hasPrefix("$ ") == true {
                var current: (line: Int, command: String, output: [String])?
                func finish() {
                    guard let c = current else { return }
                    var output = c.output
                    while output.last == "" { output.removeLast() }
                    let shown = output.joined(separator: "\n")
                    examples.append(
                        Example(
                            line: c.line, command: c.command,
                            output: shown.contains("…") || shown.isEmpty ? nil : shown,
                            fails: output.contains { $0.hasPrefix("error: ") }))
                }
                for (k, line) in block.lines.enumerated() {
                    if line.hasPrefix("$ ") {
                        finish()
                        current = (block.line + k, String(line.dropFirst(2)), [])
                    } else {
                        current?.output.append(line)
                    }
                }
                finish()
            } else if block.info == "sh" {
                var pending = ""
                var start = block.line
                for (k, line) in block.lines.enumerated() {
                    if pending.isEmpty { start = block.line + k }
                    pending += line
                    if line.hasSuffix("|") || line.hasSuffix("\\") {
                        pending += "\n"
                        continue
                    }
                    let command = pending
                    pending = ""
                    // Only `spoiler` itself: not the set-up, the build or another program.
                    guard command.contains("spoiler "), !command.contains("swift "), !command.contains("asciinema")
                    else {
                        continue
                    }
                    examples.append(Example(line: start, command: command, output: nil, fails: false))
                }
            }
        }
        return examples
    }

    static let readme: String =
        (try? String(
            contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// A scratch folder with the files the examples name.
    static func scratchFolder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: fixturesRoot.appendingPathComponent("export/telegram-export-result.json"),
            to: dir.appendingPathComponent("result.json"))
        try Data("# Notes\n\nThe butler ||did it||, in the **library**.\n".utf8).write(
            to: dir.appendingPathComponent("notes.md"))
        return dir
    }

    @Test func theReadmeHasExamples() {
        let all = Self.examples(Self.readme)
        // The transcripts and the shell blocks of the command-line section, at least.
        #expect(all.count >= 20, "\(all.count) examples")
        #expect(all.filter { $0.output != nil && !$0.output!.isEmpty }.count >= 10)
        #expect(all.contains { $0.fails })
    }

    @Test func theFirstCommandRunsAReleaseBuild() throws {
        let first = try #require(Self.blocks(Self.readme).first)
        #expect(first.info == "sh")
        let command = try #require(first.lines.first)
        #expect(command.contains("swift run -c release spoiler play"), "\(command)")
        // What it plays, played by the built binary (on a pipe: one still frame).
        let played = command.replacingOccurrences(of: "swift run -c release spoiler", with: "spoiler")
            .components(separatedBy: "&& ").last!
        let dir = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(played, in: dir)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("the butler "), "\(r.out)")
        #expect(!r.out.contains("did it"), "the hidden words are masked: \(r.out)")
    }

    @Test func everyExampleRunsAsShown() throws {
        let dir = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        for example in Self.examples(Self.readme) {
            let r = try run(example.command, in: dir)
            #expect(r.status == (example.fails ? 1 : 0), "\(example): status \(r.status)\n\(r.err)")
            if let shown = example.output {
                var printed = r.out + r.err
                if printed.hasSuffix("\n") { printed.removeLast() }
                #expect(printed == shown, "\(example)\n\(lineDiff(expected: shown, actual: printed))")
            }
        }
    }

    /// Runs `command` as a reader's shell would, with the built `spoiler` first on PATH.
    func run(_ command: String, in dir: URL) throws -> ProcessResult {
        let bin = spoilerBinary().deletingLastPathComponent().path
        return try runProgram(
            URL(fileURLWithPath: "/bin/bash"), ["-o", "pipefail", "-c", "cd '\(dir.path)' && " + command],
            environment: ["PATH": "\(bin):/usr/bin:/bin", "TERM": "xterm-256color", "COLUMNS": "80", "LINES": "24"])
    }
}
