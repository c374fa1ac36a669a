/// One command-line option as the option table declares it: its name, what value it
/// takes and in which range, its default and its help line.
///
/// An option means the same in every command that takes it: the parser checks its value
/// against ``kind`` before the command runs, and every command's help shows the same
/// line for it, made by ``helpLines(column:)``.
struct OptionSpec: Sendable {
    /// What an option takes.
    enum Kind: Sendable {
        /// No value: present or not (`--ndjson`).
        case flag
        /// A whole number in the range; `word`, when given, is also accepted and read as
        /// the range's lower bound (`--jobs auto`, read as 0).
        case integer(ClosedRange<Int>, word: String? = nil)
        /// A 64-bit random seed: a whole number from 0 to 2^64 − 1.
        case seed
        /// A finite decimal number in the range.
        case number(ClosedRange<Double>)
        /// One of these words.
        case choice([String])
        /// Free text the command reads itself (a path, `WxH`, `X,Y`); `form` describes it
        /// in errors.
        case text(form: String)
    }

    /// The long name, without the leading dashes (`"fps"`).
    var name: String
    /// What it takes.
    var kind: Kind
    /// The placeholder for its value in help (`"N"`); empty for a flag.
    var valueName: String
    /// The value used when the option is left out, as it would be written on the command
    /// line; nil when leaving it out means something of its own.
    var defaultValue: String?
    /// The help line, without the range, the choices or the default, which are added from
    /// ``kind`` and ``defaultValue``.
    var help: String
    /// A one-letter alias (`-o` for `--output`).
    var short: Character?

    init(
        _ name: String, _ kind: Kind, _ valueName: String = "", default defaultValue: String? = nil,
        short: Character? = nil, _ help: String
    ) {
        self.name = name
        self.kind = kind
        self.valueName = valueName
        self.defaultValue = defaultValue
        self.help = help
        self.short = short
    }

    /// A flag: an option that takes no value.
    static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name, .flag, short: short, help)
    }

    /// Whether the option takes a value.
    var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }

    /// `--name V` as help and usage lines show it.
    var synopsis: String {
        let long = takesValue ? "--\(name) \(valueName)" : "--\(name)"
        guard let short else { return long }
        return "-\(short), " + long
    }

    /// The shortest way to write the option with its value (`-o FILE`, `--fps N`), for
    /// usage lines.
    var shortSynopsis: String {
        let flag = short.map { "-\($0)" } ?? "--\(name)"
        return takesValue ? "\(flag) \(valueName)" : flag
    }

    /// The words the value may be, for a choice.
    var choices: [String]? {
        if case .choice(let c) = kind { return c }
        return nil
    }

    /// The help text in full: the declared line, then the choices (the default marked),
    /// or the range and the default in brackets.
    var fullHelp: String {
        var bounds: String?
        switch kind {
        case .flag, .text:
            break
        case .choice(let words):
            return help + ": " + words.map { $0 == defaultValue ? "\($0) (default)" : $0 }.joined(separator: ", ")
        case .integer(let range, let word):
            bounds = "\(range.lowerBound) to \(range.upperBound)" + (word.map { " or \($0)" } ?? "")
        case .number(let range):
            bounds = "\(OptionSpec.format(range.lowerBound)) to \(OptionSpec.format(range.upperBound))"
        case .seed:
            bounds = "0 to 2^64-1"
        }
        let parts = [bounds, defaultValue.map { "default \($0)" }].compactMap { $0 }
        return parts.isEmpty ? help : help + " (" + parts.joined(separator: "; ") + ")"
    }

    /// The option's lines under `options:` in a command's help: the synopsis indented by
    /// two spaces, the help starting at `column`, wrapped at `width`.
    func helpLines(column: Int, width: Int = 92) -> [String] {
        let head = "  " + synopsis
        var lines: [String] = []
        var line = head + String(repeating: " ", count: max(0, column - head.count))
        if head.count + 2 > column {
            lines.append(head)
            line = String(repeating: " ", count: column)
        }
        var lineHasWord = false
        for word in fullHelp.split(separator: " ") {
            if lineHasWord && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: column)
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// A number as help and errors write it: `240`, `0.05`.
    static func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
