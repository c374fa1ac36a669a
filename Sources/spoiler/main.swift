import Glibc
import SpoilerCore

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
    guard let command = CommandTable.entry(first) else {
        var reason = "unknown command '\(first)'"
        if let s = Spelling.suggestion(for: first, among: CommandTable.all.map(\.name)) {
            reason += "; did you mean '\(s)'?"
        }
        StandardStreams.writeError(
            "error: \(reason)\nusage: spoiler <command> [options] [FILE|-]\nsee 'spoiler --help'\n")
        return 2
    }
    do {
        let args = try Arguments(argv, command: command.spec)
        if args.wantsHelp {
            StandardStreams.write(command.spec.help)
            StandardStreams.flush()
            return 0
        }
        try command.run(args)
        StandardStreams.flush()
        return 0
    } catch {
        StandardStreams.flush()
        switch error {
        case .usage(let reason, let name):
            let spec = CommandTable.entry(name ?? first)?.spec ?? command.spec
            let usage = spec.usage.dropFirst("usage: ".count)
            StandardStreams.writeError("error: \(reason)\nusage: \(usage)\nsee 'spoiler \(spec.name) --help'\n")
        case .recordsFailed:
            break  // each failed record was already reported
        case .failure(let reason):
            StandardStreams.writeError("error: \(reason)\n")
        }
        return error.exitStatus
    }
}

exit(main())
