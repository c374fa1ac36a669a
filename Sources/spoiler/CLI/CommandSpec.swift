/// One `spoiler` command: its name, the options it takes (names in ``OptionTable``), the
/// operands, and the prose of its help.
///
/// The help is made here, so that its usage line and option list always agree with what
/// the parser accepts: the usage line, then ``about``, the options with their lines from
/// the table, then ``notes``.
struct CommandSpec: Sendable {
    /// The command's name (`"parse"`).
    var name: String
    /// The options it takes, by name, in the order help lists them; `help` is implied.
    var options: [String]
    /// The options it cannot run without (`--to` for `convert`).
    var required: [String] = []
    /// The operand in the usage line, and how many there may be.
    var operand = "[FILE|-]"
    var maxOperands = 1
    /// What the command does: the paragraphs between the usage line and `options:`.
    var about: String
    /// What follows the options: notes, examples, exit status.
    var notes: String

    /// Every option it takes, `help` included, from the table.
    var specs: [OptionSpec] {
        (options + ["help"]).map(OptionTable.spec)
    }

    /// Whether it takes `--name`.
    func takes(_ name: String) -> Bool { name == "help" || options.contains(name) }

    /// `spoiler NAME --required V [--option V] … [FILE|-]`, wrapped at `width`.
    var usage: String {
        let prefix = "usage: spoiler \(name)"
        var words = required.map { OptionTable.spec($0).synopsis }
        for o in options where !required.contains(o) {
            words.append("[\(OptionTable.spec(o).shortSynopsis)]")
        }
        if !operand.isEmpty { words.append(operand) }
        var lines: [String] = []
        var line = prefix
        let indent = String(repeating: " ", count: prefix.count + 1)
        for w in words {
            if line.count + 1 + w.count > 96 && line != prefix && line != indent {
                lines.append(line)
                line = indent + w
            } else {
                line += (line == indent ? "" : " ") + w
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The help `spoiler NAME --help` prints.
    var help: String {
        let specs = self.specs
        let widest = specs.map { $0.synopsis.count + 2 }.max() ?? 0
        let column = min(widest + 2, 22)
        var out = usage + "\n\n" + about + "\n\noptions:\n"
        for spec in specs {
            for line in spec.helpLines(column: column) { out += line + "\n" }
        }
        if !notes.isEmpty { out += "\n" + notes + "\n" }
        return out
    }
}
