import Glibc

/// What can go wrong at the terminal.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed: its name and errno, printed as
    /// `tcsetattr: Input/output error (errno 5)`.
    case system(call: String, errno: Int32)
    /// The output is not a terminal, so it cannot be animated.
    case notATerminal

    public var description: String {
        switch self {
        case .system(let call, let code):
            return "\(call): \(String(cString: strerror(code))) (errno \(code))"
        case .notATerminal:
            return "not a terminal"
        }
    }
}

/// Runs a system call, retrying it while it fails with EINTR, and throws
/// ``TerminalError/system(call:errno:)`` named after `call` when it fails otherwise.
///
/// `body` follows the C convention: a negative result means failure, with the reason in errno.
/// - Returns: the call's non-negative result.
@discardableResult
public func systemCall<T: BinaryInteger>(_ call: String, _ body: () -> T) throws(TerminalError) -> T {
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = errno
        if code == EINTR { continue }
        throw .system(call: call, errno: code)
    }
}
