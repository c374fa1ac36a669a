import Glibc
import SpoilerRender

/// The terminal output options of `play` and `render --format ansi|cast`: `--color`
/// and `--glyphs`, and how the colour capability follows from them and the environment.
enum TerminalOptions {
    /// `--color`: when to use colour.
    enum ColorChoice: String, CaseIterable {
        case auto, always, never
    }

    static let optionNames: Set<String> = ["color", "glyphs"]

    static let help = """
          --color C   auto (default: colour on a terminal, none when NO_COLOR is set or
                      TERM=dumb), always (also into pipes and files), never
          --glyphs G  particles as braille (default, 2x4 dots a cell), blocks (half
                      blocks) or ascii
        """

    /// The colour capability from `--color`, the environment and whether the output is a
    /// terminal (https://no-color.org, COLORTERM, TERM).
    ///
    /// - `never`: none. `auto`: none when the output is not a terminal, `NO_COLOR` is set
    ///   and not empty, or `TERM` is `dumb` or unset; otherwise as `always`.
    /// - `always` (an explicit request, which overrides `NO_COLOR`): 24-bit when
    ///   `COLORTERM` is `truecolor` or `24bit` or `TERM` ends in `-direct`; 256 colours when
    ///   `TERM` mentions `256color`; else 16.
    static func capability(_ choice: ColorChoice, environment: [String: String], isTerminal: Bool) -> ColorCapability {
        let term = environment["TERM"] ?? ""
        switch choice {
        case .never:
            return .none
        case .auto:
            if !isTerminal { return .none }
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
            if term.isEmpty || term == "dumb" { return .none }
        case .always:
            break
        }
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" || term.hasSuffix("-direct") { return .trueColor }
        if term.contains("256color") { return .palette256 }
        return .palette16
    }

    /// The environment variables the options look at, read here at the edge.
    static func environment() -> [String: String] {
        var env: [String: String] = [:]
        for key in ["TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "REDUCED_MOTION"] {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        return env
    }

    /// The capability and glyphs the arguments ask for, for output to `fd`.
    static func resolve(_ args: Arguments, outputIsTerminal: Bool) throws(CommandLineError) -> (
        ColorCapability, GlyphSet
    ) {
        let choice = try args.choice("color", as: ColorChoice.self) ?? .auto
        let glyphs = try args.choice("glyphs", as: GlyphSet.self) ?? .braille
        return (capability(choice, environment: environment(), isTerminal: outputIsTerminal), glyphs)
    }
}
