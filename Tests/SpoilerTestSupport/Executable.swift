import Foundation

/// The result of running a program.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: Data
    public var stderr: Data
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// The built `spoiler` binary: `SPOILER_BIN`, or the one in the products folder beside
/// the test bundle.
public func spoilerBinary() -> URL {
    if let path = ProcessInfo.processInfo.environment["SPOILER_BIN"], !path.isEmpty {
        return URL(fileURLWithPath: path)
    }
    var dir = Bundle.main.bundleURL
    for _ in 0..<4 {
        let candidate = dir.appendingPathComponent("spoiler")
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDir), !isDir.boolValue {
            return candidate
        }
        dir = dir.deletingLastPathComponent()
    }
    return packageRoot.appendingPathComponent(".build/debug/spoiler")
}

/// Runs `spoiler` with `arguments`, feeding `stdin`, in a fixed environment plus `environment`.
public func runSpoiler(
    _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]
) throws -> ProcessResult {
    try runProgram(spoilerBinary(), arguments, stdin: stdin, environment: environment)
}

/// Runs `spoiler` with `arguments`, feeding the UTF-8 of `stdin`.
public func runSpoiler(
    _ arguments: [String], input: String, environment: [String: String] = [:]
) throws -> ProcessResult {
    try runSpoiler(arguments, stdin: Data(input.utf8), environment: environment)
}

/// Runs a program, feeding `stdin` and collecting stdout and stderr.
///
/// The child is started with posix_spawn, its standard input, output and error being
/// temporary files, and waited for with waitpid: Foundation's `Process`, started from many
/// test threads at once, crashed the test process now and then (a jump to a null pointer on
/// a pool thread). The status is the exit status, or the signal's number for a child that a
/// signal ended (as `Process.terminationStatus` gives it).
public func runProgram(
    _ program: URL, _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]
) throws -> ProcessResult {
    _ = ignoreSIGPIPE
    var env = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TERM": "dumb", "LANG": "C.UTF-8",
    ]
    for (k, v) in environment { env[k] = v }
    let dir = FileManager.default.temporaryDirectory
    let id = UUID().uuidString
    let inFile = dir.appendingPathComponent("spoiler-in-\(id)")
    let outFile = dir.appendingPathComponent("spoiler-out-\(id)")
    let errFile = dir.appendingPathComponent("spoiler-err-\(id)")
    try stdin.write(to: inFile)
    defer {
        for f in [inFile, outFile, errFile] { try? FileManager.default.removeItem(at: f) }
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, inFile.path, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([program.path] + arguments).map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for p in argv + envp { free(p) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, program.path, &actions, nil, argv, envp)
    guard spawned == 0 else {
        throw CocoaError(
            .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "posix_spawn \(program.path): \(spawned)"])
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let signalled = status & 0x7F
    let code = signalled == 0 ? (status >> 8) & 0xFF : signalled
    return ProcessResult(status: code, stdout: try Data(contentsOf: outFile), stderr: try Data(contentsOf: errFile))
}

/// Ignores SIGPIPE in the test process, once.
private let ignoreSIGPIPE: Void = {
    signal(SIGPIPE, SIG_IGN)
}()
