import Foundation
import SpoilerCore
import SpoilerTestSupport
import Testing

@testable import spoiler

/// Walks ``OptionTable`` and checks that every command's help and parsing agree with it:
/// the help lists each option the command takes with the table's line, the parser takes
/// each one with a value of its kind, refuses a value outside its range, refuses it twice,
/// and refuses every option the command does not take.
@Suite struct OptionTableTests {
    /// A value the option's kind accepts, and one it refuses (nil when any text is taken).
    static func values(_ spec: OptionSpec) -> (good: String?, bad: String?) {
        switch spec.kind {
        case .flag: return (nil, nil)
        case .integer(let range, _): return (String(range.upperBound), String(range.upperBound + 1))
        case .seed: return (String(UInt64.max), "18446744073709551616")
        case .number(let range): return (OptionSpec.format(range.upperBound), String(range.upperBound * 2 + 1))
        case .choice(let words): return (words.last, "no-such-\(spec.name)")
        case .text: return (nil, nil)
        }
    }

    @Test func theTableIsWellFormed() {
        var seen = Set<String>()
        for spec in OptionTable.entries {
            #expect(seen.insert(spec.name).inserted, "'--\(spec.name)' is declared twice")
            #expect(!spec.help.isEmpty && !spec.help.hasSuffix("."), "'--\(spec.name)'")
            #expect(spec.takesValue == !spec.valueName.isEmpty, "'--\(spec.name)'")
            if let d = spec.defaultValue, spec.takesValue {
                #expect(throws: Never.self, "the default of '--\(spec.name)'") {
                    try Arguments.check(d, for: spec, command: "test")
                }
            }
            // Every entry is taken by some command.
            #expect(CommandTable.all.contains { $0.takes(spec.name) }, "'--\(spec.name)' is taken by no command")
        }
        for command in CommandTable.all {
            for name in command.options + command.required {
                #expect(
                    OptionTable.byName[name] != nil, "'spoiler \(command.name)' lists '--\(name)', not in the table")
            }
            #expect(
                Set(command.options).count == command.options.count, "'spoiler \(command.name)' lists an option twice")
        }
    }

    @Test(arguments: CommandTable.all.map(\.name))
    func helpListsEveryOptionWithItsTableLine(command name: String) throws {
        let command = try #require(CommandTable.entry(name)).spec
        let r = try runSpoiler([name, "--help"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("usage: spoiler \(name)"))
        let options = r.out.components(separatedBy: "\noptions:\n").last ?? ""
        // The help's option lines, joined, hold each option's synopsis followed by its full
        // help text from the table, and no option the command does not take.
        func words(_ s: String) -> String { s.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let flat = words(options)
        for spec in command.specs {
            #expect(
                flat.contains(words(spec.synopsis + " " + spec.fullHelp)),
                "'spoiler \(name) --help' on '--\(spec.name)'")
            #expect(r.out.components(separatedBy: "\n").first(where: { $0.hasPrefix("usage:") }) != nil)
            if spec.name != "help" {
                #expect(command.usage.contains(spec.shortSynopsis), "usage of \(name) lacks '--\(spec.name)'")
            }
        }
        for spec in OptionTable.entries where !command.takes(spec.name) {
            #expect(!options.contains("--\(spec.name) "), "'spoiler \(name) --help' lists '--\(spec.name)'")
        }
    }

    @Test(arguments: CommandTable.all.map(\.name))
    func parsingFollowsTheTable(command name: String) throws {
        let command = try #require(CommandTable.entry(name)).spec
        let required = command.required.flatMap { ["--\($0)", OptionTable.spec($0).choices!.first!] }
        for spec in command.specs where spec.name != "help" && !command.required.contains(spec.name) {
            let (good, bad) = OptionTableTests.values(spec)
            let given = spec.takesValue ? ["--\(spec.name)", good ?? "x"] : ["--\(spec.name)"]
            let ok = try Arguments(required + given, command: command)
            #expect(ok.given(spec.name))
            if let good { #expect(ok.text(spec.name) == good) }
            if let bad {
                let e = #expect(throws: CommandLineError.self) {
                    try Arguments(required + ["--\(spec.name)", bad], command: command)
                }
                #expect(e?.description.contains("'--\(spec.name)'") == true, "\(e?.description ?? "")")
                #expect(e?.exitStatus == 2)
            }
            let twice = #expect(throws: CommandLineError.self) {
                try Arguments(required + given + given, command: command)
            }
            #expect(twice?.description == "option '--\(spec.name)' is given more than once")
            if !spec.takesValue {
                #expect(throws: CommandLineError.self) {
                    try Arguments(required + ["--\(spec.name)=1"], command: command)
                }
            }
        }
        for spec in OptionTable.entries where !command.takes(spec.name) {
            let given = spec.takesValue ? ["--\(spec.name)", "1"] : ["--\(spec.name)"]
            let e = #expect(throws: CommandLineError.self) { try Arguments(required + given, command: command) }
            #expect(e?.description.hasPrefix("unknown option '--\(spec.name)'") == true, "\(e?.description ?? "")")
        }
    }

    /// The same option is refused the same way by every command that takes it, through the
    /// real binary: the range in the message is the table's.
    @Test func anOptionMeansTheSameEverywhere() throws {
        for spec in OptionTable.entries {
            guard case .integer = spec.kind, let bad = OptionTableTests.values(spec).bad else { continue }
            var messages = Set<String>()
            for command in CommandTable.all where command.takes(spec.name) {
                let required = command.required.flatMap { ["--\($0)", OptionTable.spec($0).choices!.first!] }
                let r = try runSpoiler([command.name] + required + ["--\(spec.name)", bad], input: "x\n")
                #expect(r.status == 2, "spoiler \(command.name) --\(spec.name) \(bad)")
                messages.insert(String(r.err.split(separator: "\n").first ?? ""))
            }
            #expect(messages.count <= 1, "'--\(spec.name)': \(messages)")
        }
    }

    @Test func helpIsAnOptionNotAWordInArgv() throws {
        // After `--`, `--help` is a file name.
        let r = try runSpoiler(["parse", "--", "--help"])
        #expect(r.status == 1)
        #expect(r.err.contains("--help: cannot open"), "\(r.err)")
        // As an option's value it is that value.
        let v = try runSpoiler(["parse", "--from", "--help"])
        #expect(v.status == 2)
        #expect(v.err.contains("unknown value '--help' for '--from'"), "\(v.err)")
        // Anywhere among the options it is help, even after a mistake.
        for argv in [["parse", "-h"], ["render", "--fps", "0", "--help"], ["play", "--nope", "--help"]] {
            let h = try runSpoiler(argv)
            #expect(h.status == 0, "\(argv)")
            #expect(h.out.hasPrefix("usage: spoiler \(argv[0])"), "\(argv)")
        }
    }

    @Test func suggestionsAreDeterministic() throws {
        // "--colr" is one edit from --color; "--fp" from --fps; ties go to the first name in order.
        for _ in 0..<3 {
            let r = try runSpoiler(["play", "--colr", "never"], input: "x\n")
            #expect(r.err.hasPrefix("error: unknown option '--colr'; did you mean '--color'?"), "\(r.err)")
        }
        #expect(Spelling.suggestion(for: "ab", among: ["bb", "aa", "cb"]) == "aa")
        #expect(Spelling.suggestion(for: "ab", among: ["cb", "bb", "aa"]) == "aa")
        #expect(Spelling.suggestion(for: "zzzz", among: ["fps"]) == nil)
    }
}
