import SpoilerParser

/// How a line filter run (`--ndjson`, `--from export`) reports the messages that fail and
/// when it writes: `--errors-as-records`, `--quiet` and `--line-buffered` (DESIGN.md §7).
///
/// These are for callers that run `spoiler` inside something else — a Spark task, GNU
/// parallel, Hadoop streaming, a coprocess — where the exit status is checked, standard
/// error is a log and an answer may be awaited line by line.
struct RecordPolicy: Sendable {
    /// Exit 0 when every failure became an error record (`--errors-as-records`); a real
    /// failure (an unreadable input, a failed write, a usage error, an export's JSON syntax
    /// error) still exits non-zero.
    var errorsAsRecords = false
    /// No `error: <input>: line N: reason` line per failed message on standard error
    /// (`--quiet`); the summary at the end is still written.
    var quiet = false
    /// Write out each output line as soon as its input line is done (`--line-buffered`).
    var lineBuffered = false

    /// The policy the command line asks for; these options apply only to a line filter
    /// (`--ndjson` or `--from export`), and elsewhere are a usage error.
    static func from(_ args: Arguments, command: String) throws(CommandLineError) -> RecordPolicy {
        let lineFilter = args.flag("ndjson") || args.choice("from", as: InputFormat.self) == .export
        for name in optionNames where args.given(name) && !lineFilter {
            throw .usage("'--\(name)' applies to --ndjson and --from export", command: command)
        }
        return RecordPolicy(
            errorsAsRecords: args.flag("errors-as-records"), quiet: args.flag("quiet"),
            lineBuffered: args.flag("line-buffered"))
    }

    /// The options every line filter takes, in the order help lists them.
    static let optionNames = ["errors-as-records", "quiet", "line-buffered"]
}

/// Counts a line filter run's messages and failures, for the summary written at its end.
struct RecordTally {
    /// What is counted, in the plural (`lines`, `messages`).
    let unit: String
    private(set) var total = 0
    private(set) var failed = 0
    /// Where the first failure was: its line number, or the message's place in the export.
    private(set) var firstFailure: Int?

    init(unit: String) { self.unit = unit }

    /// Counts one message; `ok` is false for an error record, found at `place`.
    mutating func count(ok: Bool, at place: Int) {
        total += 1
        if !ok {
            failed += 1
            if firstFailure == nil { firstFailure = place }
        }
    }

    /// The one-line summary, `spoiler: 3 of 412561 lines failed (first at line 17)`, or nil
    /// when nothing failed.
    var summary: String? {
        guard failed > 0, let firstFailure else { return nil }
        let singular = String(unit.dropLast())
        return
            "spoiler: \(failed) of \(total) \(total == 1 ? singular : unit) failed (first at \(singular) \(firstFailure))"
    }

    /// Ends the run: writes the summary on standard error when something failed, then
    /// throws ``CommandLineError/recordsFailed(_:)`` (exit 1) unless `policy` lets error
    /// records count as success.
    func finish(_ policy: RecordPolicy) throws(CommandLineError) {
        StandardStreams.flush()
        guard let summary else { return }
        StandardStreams.writeError(summary + "\n")
        if !policy.errorsAsRecords { throw .recordsFailed(failed) }
    }
}
