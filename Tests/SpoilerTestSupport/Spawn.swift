import Foundation

/// A child process started by ``spawn(_:_:stdin:stdout:stderr:environment:)``.
public struct SpawnedProcess: Sendable {
    public let pid: pid_t

    /// Waits for the child to end; returns its exit status (128 + the signal when one
    /// ended it) and the CPU time it used (user + system), from wait4(2).
    public func wait() -> (status: Int32, cpuSeconds: Double) {
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (code, cpu)
    }
}

/// Starts `program` with the given descriptors as its standard input, output and error
/// (with their flags, such as O_NONBLOCK, as they are), in a fixed environment plus
/// `environment`, for tests that need descriptors `Process` cannot give (a pty, a
/// non-blocking pipe) or the child's own CPU time.
public func spawn(
    _ program: URL, _ arguments: [String], stdin: Int32, stdout: Int32, stderr: Int32,
    environment: [String: String] = [:]
) throws -> SpawnedProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdin, 0)
    posix_spawn_file_actions_adddup2(&actions, stdout, 1)
    posix_spawn_file_actions_adddup2(&actions, stderr, 2)
    // Descriptors that other tests running at the same time opened stay out of the child.
    _ = addCloseFrom(&actions, 3)
    var env = [
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TERM": "dumb", "LANG": "C.UTF-8",
    ]
    for (k, v) in environment { env[k] = v }
    let argv = ([program.path] + arguments).map { strdup($0) } + [nil]
    let envp = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, program.path, &actions, nil, argv, envp)
    guard rc == 0 else { throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EIO) }
    return SpawnedProcess(pid: pid)
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which the Glibc module does
/// not show because it needs `_GNU_SOURCE`.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
