/// When to use colour: `--color auto|always|never`.
public enum ColorPreference: String, Sendable, Hashable, CaseIterable {
    /// Colour on a terminal, unless the environment says no (`NO_COLOR`, `TERM=dumb`).
    case auto
    /// Colour even into pipes and files, and despite `NO_COLOR` (an explicit request).
    case always
    /// No colour.
    case never
}

extension ColorCapability {
    /// The environment variables ``init(preference:environment:isTerminal:)`` reads.
    public static let environmentKeys = ["TERM", "COLORTERM", "NO_COLOR"]

    /// The colours an output shows, from the user's preference, the environment and
    /// whether the output is a terminal (https://no-color.org, `COLORTERM`, `TERM`).
    ///
    /// The environment is passed in (read it at the program's edge), so the decision is
    /// pure and testable.
    /// - `never`: none. `auto`: none when the output is not a terminal, `NO_COLOR` is set
    ///   and not empty, or `TERM` is `dumb` or unset; otherwise as `always`.
    /// - `always`: 24-bit when `COLORTERM` is `truecolor` or `24bit` or `TERM` ends in
    ///   `-direct`; 256 colours when `TERM` mentions `256color`; else 16.
    ///
    /// ```swift
    /// let capability = ColorCapability(environment: ["TERM": "xterm-256color"], isTerminal: true)  // .palette256
    /// ```
    /// - Parameters:
    ///   - preference: `--color` (default `auto`).
    ///   - environment: the variables by name (others are ignored).
    ///   - isTerminal: whether the output is a terminal.
    public init(preference: ColorPreference = .auto, environment: [String: String], isTerminal: Bool) {
        let term = environment["TERM"] ?? ""
        switch preference {
        case .never:
            self = .none
            return
        case .auto:
            if !isTerminal || term.isEmpty || term == "dumb" {
                self = .none
                return
            }
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
                self = .none
                return
            }
        case .always:
            break
        }
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" || term.hasSuffix("-direct") {
            self = .trueColor
        } else if term.contains("256color") {
            self = .palette256
        } else {
            self = .palette16
        }
    }
}
