import Glibc
import SpoilerRender

/// The terminal output options of `play` and `render --format ansi|cast`: `--color`
/// and `--glyphs`, and how the colour capability follows from them and the environment.
enum TerminalOptions {
    /// The colour capability from `--color`, the environment and whether the output is a
    /// terminal (``ColorCapability/init(preference:environment:isTerminal:)``).
    static func capability(_ choice: ColorPreference, environment: [String: String], isTerminal: Bool)
        -> ColorCapability
    {
        ColorCapability(preference: choice, environment: environment, isTerminal: isTerminal)
    }

    /// The environment variables the options look at, read here at the edge.
    static func environment() -> [String: String] {
        var env: [String: String] = [:]
        // The SPOILER_ lengths move where a command changes paths (tests set them low).
        for key in [
            "TERM", "COLORTERM", "NO_COLOR", "COLUMNS", "LINES", "REDUCED_MOTION", "SPOILER_READ_CHUNKED",
            "SPOILER_PLAY_CHUNKED", "SPOILER_BACKGROUND_LAYOUT_BYTES",
        ] {
            if let v = getenv(key) { env[key] = String(cString: v) }
        }
        return env
    }

    /// The capability and glyphs the arguments ask for, for output to `fd`.
    static func resolve(_ args: Arguments, outputIsTerminal: Bool) -> (ColorCapability, GlyphSet) {
        let choice = args.choice("color", as: ColorPreference.self)!
        let glyphs = args.choice("glyphs", as: GlyphSet.self)!
        return (capability(choice, environment: environment(), isTerminal: outputIsTerminal), glyphs)
    }
}
