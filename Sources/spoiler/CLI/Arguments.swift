/// A small command-line argument parser.
///
/// It takes long options with values (`--from F` or `--from=F`), flags (`--ndjson`),
/// short aliases (`-o`), at most one positional FILE, and `--` to end options. Unknown
/// options are usage errors with a suggestion.
struct Arguments {
    /// What one command accepts.
    struct Spec {
        var command: String
        /// Options that take a value, without the leading dashes (`"from"`).
        var options: Set<String>
        /// Options that take no value.
        var flags: Set<String>
        /// Single-letter aliases: `"o": "output"`.
        var aliases: [Character: String] = [:]
        /// How many positional arguments are allowed.
        var maxPositionals = 1
    }

    private(set) var values: [String: String] = [:]
    private(set) var setFlags: Set<String> = []
    private(set) var positionals: [String] = []
    let command: String

    init(_ argv: [String], spec: Spec) throws(CommandLineError) {
        command = spec.command
        var i = 0
        var onlyPositionals = false
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
            var name: String
            var inlineValue: String?
            if arg.hasPrefix("--") {
                name = String(arg.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: eq)...])
                    name = String(name[..<eq])
                }
            } else if arg.count == 2, let alias = spec.aliases[arg.last!] {
                name = alias
            } else {
                throw .usage("unknown option '\(arg)'", command: command)
            }
            if spec.flags.contains(name) {
                if inlineValue != nil { throw .usage("option '--\(name)' takes no value", command: command) }
                setFlags.insert(name)
            } else if spec.options.contains(name) {
                if let v = inlineValue {
                    values[name] = v
                } else {
                    guard i < argv.count else { throw .usage("option '--\(name)' needs a value", command: command) }
                    values[name] = argv[i]
                    i += 1
                }
            } else {
                let known = spec.options.union(spec.flags).union(["help"])
                let suggestion = known.min { editDistance($0, name) < editDistance($1, name) }
                var reason = "unknown option '--\(name)'"
                if let s = suggestion, editDistance(s, name) <= 2 { reason += "; did you mean '--\(s)'?" }
                throw .usage(reason, command: command)
            }
        }
        if positionals.count > spec.maxPositionals {
            throw .usage("unexpected argument '\(positionals[spec.maxPositionals])'", command: command)
        }
    }

    /// The value of `--name`, if given.
    subscript(name: String) -> String? { values[name] }

    /// Whether the flag `--name` was given.
    func has(_ name: String) -> Bool { setFlags.contains(name) }

    /// The value of `--name` as one of `T`'s raw values.
    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as: T.Type) throws(CommandLineError) -> T?
    where T.RawValue == String {
        guard let v = values[name] else { return nil }
        guard let t = T(rawValue: v) else {
            let all = T.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("unknown value '\(v)' for '--\(name)' (expected one of: \(all))", command: command)
        }
        return t
    }

    /// The value of `--name` as a number in `range`.
    func number(_ name: String, in range: ClosedRange<Double>) throws(CommandLineError) -> Double? {
        guard let v = values[name] else { return nil }
        guard let d = Double(v), d.isFinite, range.contains(d) else {
            let bounds = "\(format(range.lowerBound)) to \(format(range.upperBound))"
            throw .usage("'--\(name)' needs a number from \(bounds), got '\(v)'", command: command)
        }
        return d
    }

    /// The value of `--name` as an integer in `range`.
    func integer(_ name: String, in range: ClosedRange<Int>) throws(CommandLineError) -> Int? {
        guard let v = values[name] else { return nil }
        guard let n = Int(v), range.contains(n) else {
            let bounds = "\(range.lowerBound) to \(range.upperBound)"
            throw .usage("'--\(name)' needs a whole number from \(bounds), got '\(v)'", command: command)
        }
        return n
    }

    /// The input file operand: nil (or "-") means standard input.
    var inputPath: String? {
        guard let p = positionals.first, p != "-" else { return nil }
        return p
    }

    private func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var prev = Array(0...b.count)
    var cur = prev
    for i in 1...a.count {
        cur[0] = i
        for j in 1...b.count {
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&prev, &cur)
    }
    return prev[b.count]
}
