/// Every `spoiler` command: its declaration (options, help) and its entry point.
///
/// A new command is one entry here, with a `CommandSpec` whose options are names from
/// ``OptionTable``.
enum CommandTable {
    /// One command.
    struct Entry: Sendable {
        var spec: CommandSpec
        var run: @Sendable (Arguments) throws(CommandLineError) -> Void
    }

    /// The commands, in the order the top-level help lists them.
    static let entries: [Entry] = [
        Entry(spec: ParseCommand.spec, run: ParseCommand.run),
        Entry(spec: ConvertCommand.spec, run: ConvertCommand.run),
        Entry(spec: LayoutCommand.spec, run: LayoutCommand.run),
        Entry(spec: RenderCommand.spec, run: RenderCommand.run),
        Entry(spec: PlayCommand.spec, run: PlayCommand.run),
        Entry(spec: ReadCommand.spec, run: ReadCommand.run),
    ]

    /// Every command's declaration.
    static var all: [CommandSpec] { entries.map(\.spec) }

    /// The command called `name`.
    static func entry(_ name: String) -> Entry? { entries.first { $0.spec.name == name } }
}
