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
public func runProgram(
    _ program: URL, _ arguments: [String], stdin: Data = Data(), environment: [String: String] = [:]
) throws -> ProcessResult {
    // A program that exits before reading all its input must not kill the test process
    // with SIGPIPE; the write then fails with EPIPE, which is ignored below.
    _ = ignoreSIGPIPE
    let p = Process()
    p.executableURL = program
    p.arguments = arguments
    var env = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TERM": "dumb", "LANG": "C.UTF-8",
    ]
    for (k, v) in environment { env[k] = v }
    p.environment = env
    let inPipe = Pipe()
    let outFile = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-out-\(UUID().uuidString)")
    let errFile = FileManager.default.temporaryDirectory.appendingPathComponent("spoiler-err-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    defer {
        try? FileManager.default.removeItem(at: outFile)
        try? FileManager.default.removeItem(at: errFile)
    }
    let outHandle = try FileHandle(forWritingTo: outFile)
    let errHandle = try FileHandle(forWritingTo: errFile)
    p.standardInput = inPipe
    p.standardOutput = outHandle
    p.standardError = errHandle
    try p.run()
    let writer = inPipe.fileHandleForWriting
    DispatchQueue.global().async {
        try? writer.write(contentsOf: stdin)
        try? writer.close()
    }
    p.waitUntilExit()
    try? outHandle.close()
    try? errHandle.close()
    return ProcessResult(
        status: p.terminationStatus, stdout: try Data(contentsOf: outFile), stderr: try Data(contentsOf: errFile))
}

/// Ignores SIGPIPE in the test process, once.
private let ignoreSIGPIPE: Void = {
    signal(SIGPIPE, SIG_IGN)
}()
