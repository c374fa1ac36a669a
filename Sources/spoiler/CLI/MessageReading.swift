import SpoilerParser

/// What every command that reads messages shares: `--from F` and `--spoiler-reasons`.
enum MessageReading {
    /// The input format (`--from`, plain by default).
    static func format(_ args: Arguments) -> InputFormat {
        args.choice("from", as: InputFormat.self) ?? .plain
    }

    /// How messages are read: `--spoiler-reasons` reads `||reason|text||` (plain, discord).
    static func options(_ args: Arguments) -> ParseOptions {
        ParseOptions(spoilerReasons: args.flag("spoiler-reasons"))
    }
}
