import Glibc

/// The `spoiler` command line: a thin edge over the SpoilerKit modules.
let version = "0.1.0"

let topHelp = """
    usage: spoiler <command> [options] [FILE|-]

    Chat messages with hidden parts: Telegram-exact parsing, per-word geometry, and
    "invisible ink" spoilers rendered in terminals, SVG and JSON.

    commands:
      parse     print a message as Bot API JSON (text and entities, UTF-16 offsets)
      convert   convert between plain, MarkdownV2, HTML, Markdown and JSON
      layout    print per-word spoiler geometry as JSON
      render    render the spoiler effect as ANSI, SVG, a JSON timeline or asciicast
      play      animate spoilers in the terminal; click or Tab/Enter to reveal
      read      read a document or chat log full screen, spoilers as dust

    Input is FILE or standard input. Run 'spoiler <command> --help' for a command's options.

    options:
      --help      show this help
      --version   print the version

    exit status: 0 success, 1 a message failed, 2 usage error
    """

/// Each command: its help and its entry point.
let commands: [String: (help: String, run: ([String]) throws(CommandLineError) -> Void)] = [
    "parse": (ParseCommand.help, ParseCommand.run),
    "convert": (ConvertCommand.help, ConvertCommand.run),
    "layout": (LayoutCommand.help, LayoutCommand.run),
    "play": (PlayCommand.help, PlayCommand.run),
    "read": (ReadCommand.help, ReadCommand.run),
    "render": (RenderCommand.help, RenderCommand.run),
]

@MainActor func main() -> Int32 {
    StandardStreams.setUp()
    var argv = Array(CommandLine.arguments.dropFirst())
    guard let first = argv.first else {
        StandardStreams.writeError("error: no command given\n\(topHelp)\n")
        return 2
    }
    if first == "--help" || first == "-h" || first == "help" {
        StandardStreams.write(topHelp + "\n")
        StandardStreams.flush()
        return 0
    }
    if first == "--version" {
        StandardStreams.write("spoiler \(version)\n")
        StandardStreams.flush()
        return 0
    }
    argv.removeFirst()
    guard let command = commands[first] else {
        let suggestion = commands.keys.sorted().min { editDistance($0, first) < editDistance($1, first) }
        var reason = "unknown command '\(first)'"
        if let s = suggestion, editDistance(s, first) <= 2 { reason += "; did you mean '\(s)'?" }
        StandardStreams.writeError("error: \(reason)\nusage: spoiler <command> [options] [FILE|-]\nsee 'spoiler --help'\n")
        return 2
    }
    if argv.contains("--help") || argv.contains("-h") {
        StandardStreams.write(command.help + "\n")
        StandardStreams.flush()
        return 0
    }
    do {
        try command.run(argv)
        StandardStreams.flush()
        return 0
    } catch {
        StandardStreams.flush()
        switch error {
        case .usage(let reason, let name):
            let cmd = name ?? first
            StandardStreams.writeError("error: \(reason)\nusage: \(usageLine(commands[cmd]?.help))\nsee 'spoiler \(cmd) --help'\n")
        case .recordsFailed:
            break  // each failed record was already reported
        case .failure(let reason):
            StandardStreams.writeError("error: \(reason)\n")
        }
        return error.exitStatus
    }
}

/// The first line of a command's help, without its "usage: " prefix.
func usageLine(_ help: String?) -> String {
    guard let line = help?.split(separator: "\n").first else { return "spoiler <command> [options]" }
    return String(line.dropFirst("usage: ".count))
}

exit(main())
