/// How the command line ends when something goes wrong.
///
/// Exit statuses: 0 success, 1 failed input (a message that could not be processed),
/// 2 usage errors (the grep and diff convention; DESIGN.md §7).
enum CommandLineError: Error, CustomStringConvertible {
    /// The command line itself is wrong: exit 2 with a one-line reason and the usage.
    case usage(String, command: String?)
    /// The input could not be processed: exit 1.
    case failure(String)
    /// Some NDJSON records failed; each was already reported: exit 1.
    case recordsFailed(Int)

    var description: String {
        switch self {
        case .usage(let reason, _): return reason
        case .failure(let reason): return reason
        case .recordsFailed(let n): return "\(n) record\(n == 1 ? "" : "s") failed"
        }
    }

    var exitStatus: Int32 {
        switch self {
        case .usage: return 2
        case .failure, .recordsFailed: return 1
        }
    }
}
