import SpoilerCore

/// The parsed command line of one command, checked against ``OptionTable``.
///
/// Long options take their value as `--from F` or `--from=F`; flags take none; a one-letter
/// alias (`-o`) takes its value as the next argument. `--` ends the options, and `-` is
/// standard input. `--help` (or `-h`) anywhere among the options asks for the command's
/// help; after `--` it is a file name. Every value is checked against its table entry as
/// it is read, so a bad `--fps` is a usage error before anything runs. An option the
/// command does not take, an option given twice, a missing value and a value out of range
/// are usage errors, with a suggestion for a misspelt name.
struct Arguments {
    /// The command being parsed.
    let command: CommandSpec
    /// The values given, by option name (flags map to "").
    private(set) var values: [String: String] = [:]
    /// The operands (FILE, or `-`).
    private(set) var positionals: [String] = []
    /// Whether `--help` or `-h` was given.
    private(set) var wantsHelp = false

    /// The command's name, for errors.
    var commandName: String { command.name }

    init(_ argv: [String], command: CommandSpec) throws(CommandLineError) {
        self.command = command
        let name = command.name
        var i = 0
        var onlyPositionals = false
        // The first error is held until the end, so that `--help` after it still gives help.
        var firstError: CommandLineError?
        while i < argv.count {
            let arg = argv[i]
            i += 1
            if onlyPositionals || arg == "-" || !arg.hasPrefix("-") {
                positionals.append(arg)
                continue
            }
            if arg == "--" {
                onlyPositionals = true
                continue
            }
            do {
                try read(arg, argv: argv, next: &i)
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        if wantsHelp { return }
        if let firstError { throw firstError }
        if positionals.count > command.maxOperands {
            throw .usage("unexpected argument '\(positionals[command.maxOperands])'", command: name)
        }
        for r in command.required where values[r] == nil {
            let spec = OptionTable.spec(r)
            let words = spec.choices.map { " (\($0.joined(separator: ", ")))" } ?? ""
            throw .usage("'--\(r)' is required\(words)", command: name)
        }
    }

    /// Reads the option `arg` (and its value, from `argv[next]` when it takes one).
    private mutating func read(_ arg: String, argv: [String], next i: inout Int) throws(CommandLineError) {
        let name = command.name
        let spec: OptionSpec
        var inlineValue: String?
        if arg.hasPrefix("--") {
            var key = String(arg.dropFirst(2))
            if let eq = key.firstIndex(of: "=") {
                inlineValue = String(key[key.index(after: eq)...])
                key = String(key[..<eq])
            }
            guard command.takes(key) else { throw Arguments.unknown("--\(key)", key: key, command: command) }
            spec = OptionTable.spec(key)
        } else {
            let letter = arg.dropFirst()
            guard letter.count == 1,
                let found = command.specs.first(where: { $0.short.map(String.init) == String(letter) })
            else { throw Arguments.unknown(arg, key: String(letter), command: command) }
            spec = found
        }
        if spec.name == "help" {
            wantsHelp = true
            return
        }
        if values[spec.name] != nil {
            throw .usage("option '--\(spec.name)' is given more than once", command: name)
        }
        guard spec.takesValue else {
            if inlineValue != nil { throw .usage("option '--\(spec.name)' takes no value", command: name) }
            values[spec.name] = ""
            return
        }
        let value: String
        if let inlineValue {
            value = inlineValue
        } else {
            guard i < argv.count else { throw .usage("option '--\(spec.name)' needs a value", command: name) }
            value = argv[i]
            i += 1
        }
        try Arguments.check(value, for: spec, command: name)
        values[spec.name] = value
    }

    /// The error for an option the command does not take, with the closest name it does
    /// take, or the commands that take it.
    static func unknown(_ written: String, key: String, command: CommandSpec) -> CommandLineError {
        var reason = "unknown option '\(written)'"
        if let s = Spelling.suggestion(for: key, among: command.specs.map(\.name)) {
            reason += "; did you mean '--\(s)'?"
        } else if OptionTable.byName[key] != nil {
            let others = CommandTable.all.filter { $0.takes(key) }.map { "'spoiler \($0.name)'" }
            if !others.isEmpty { reason += " (taken by \(others.joined(separator: ", ")))" }
        }
        return .usage(reason, command: command.name)
    }

    /// Checks `value` against the table's entry for its option.
    static func check(_ value: String, for spec: OptionSpec, command: String) throws(CommandLineError) {
        switch spec.kind {
        case .flag, .text:
            return
        case .choice(let words):
            guard words.contains(value) else {
                var reason =
                    "unknown value '\(value)' for '--\(spec.name)' (expected one of: \(words.joined(separator: ", ")))"
                if let s = Spelling.suggestion(for: value, among: words) { reason += "; did you mean '\(s)'?" }
                throw .usage(reason, command: command)
            }
        case .integer(let range, let word):
            if let word, value == word { return }
            guard let n = Int(value), range.contains(n) else {
                let or = word.map { ", or '\($0)'" } ?? ""
                throw .usage(
                    "'--\(spec.name)' needs a whole number from \(range.lowerBound) to \(range.upperBound)\(or), got '\(value)'",
                    command: command)
            }
        case .seed:
            guard UInt64(value) != nil else {
                throw .usage(
                    "'--\(spec.name)' needs a whole number from 0 to \(UInt64.max), got '\(value)'", command: command)
            }
        case .number(let range):
            guard let d = Double(value), d.isFinite, range.contains(d) else {
                let bounds = "\(OptionSpec.format(range.lowerBound)) to \(OptionSpec.format(range.upperBound))"
                throw .usage("'--\(spec.name)' needs a number from \(bounds), got '\(value)'", command: command)
            }
        }
    }

    // MARK: Reading values

    /// The value given for `--name`, or its default; nil when neither. The command must
    /// take `--name`.
    private func raw(_ name: String) -> String? {
        precondition(command.takes(name), "'spoiler \(command.name)' does not take '--\(name)'")
        return values[name] ?? OptionTable.spec(name).defaultValue
    }

    /// Whether `--name` was given on the command line (not its default).
    func given(_ name: String) -> Bool {
        precondition(command.takes(name), "'spoiler \(command.name)' does not take '--\(name)'")
        return values[name] != nil
    }

    /// Whether the flag `--name` was given.
    func flag(_ name: String) -> Bool { given(name) }

    /// The text of `--name` (or its default).
    func text(_ name: String) -> String? { raw(name) }

    /// `--name` as a whole number (its word, like `auto`, reads as the range's lower bound).
    func integer(_ name: String) -> Int? {
        guard let v = raw(name) else { return nil }
        if case .integer(let range, let word) = OptionTable.spec(name).kind, v == word { return range.lowerBound }
        return Int(v)
    }

    /// `--name` as a number.
    func number(_ name: String) -> Double? { raw(name).flatMap(Double.init) }

    /// `--name` as a 64-bit seed.
    func seed(_ name: String = "seed") -> UInt64? { raw(name).flatMap { UInt64($0) } }

    /// `--name` as one of `T`'s cases (the table's choices are `T`'s raw values).
    func choice<T: RawRepresentable>(_ name: String, as: T.Type) -> T? where T.RawValue == String {
        raw(name).flatMap(T.init(rawValue:))
    }

    /// The input file operand: nil (or "-") means standard input.
    var inputPath: String? {
        guard let p = positionals.first, p != "-" else { return nil }
        return p
    }
}
