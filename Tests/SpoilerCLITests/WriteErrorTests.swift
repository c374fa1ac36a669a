import Foundation
import SpoilerTestSupport
import Testing

/// Output that cannot be written is never lost silently: each output path reports the
/// failure with the path and the reason and exits 1; a closed pipe ends quietly; a
/// non-blocking pipe is waited for; `-o FILE` replaces the file whole or not at all.
@Suite struct WriteErrorTests {
    static let bash = URL(fileURLWithPath: "/bin/bash")

    /// Runs `script` in bash with `$0` the built `spoiler` and `$1`… the arguments.
    func shell(_ script: String, _ arguments: String..., input: String = "a ||b||\n") throws -> ProcessResult {
        try runProgram(Self.bash, ["-c", script, spoilerBinary().path] + arguments, stdin: Data(input.utf8))
    }

    /// Standard output on a full device, for every command that writes there and with
    /// `--ndjson`.
    @Test(arguments: [
        "parse", "parse --ndjson", "convert --to html", "convert --from markdown --to html", "layout",
        "render --format svg", "render --format ansi", "play", "read",
    ])
    func fullStandardOutput(command: String) throws {
        let input = command.contains("ndjson") ? "\"a ||b||\"\n" : "a ||b||\n"
        let r = try shell(#""$0" \#(command) > /dev/full"#, input: input)
        #expect(r.status == 1, "\(command)")
        #expect(r.err == "error: <stdout> (/dev/full): cannot write: No space left on device\n", "\(command)")
    }

    /// Many NDJSON lines: the failure comes at the first buffer flush, mid-run.
    @Test func fullStandardOutputMidRun() throws {
        let input = (1...20_000).map { "\"message \($0) ||hidden||\"" }.joined(separator: "\n")
        let r = try shell(#""$0" parse --ndjson > /dev/full"#, input: input)
        #expect(r.status == 1)
        #expect(r.err == "error: <stdout> (/dev/full): cannot write: No space left on device\n")
    }

    @Test func outputFileOnFullDevice() throws {
        let r = try shell(#""$0" render --format svg -o /dev/full"#)
        #expect(r.status == 1)
        #expect(r.err == "error: /dev/full: cannot write: No space left on device\n")
        // A device is written in place, never renamed over.
        var st = stat()
        #expect(stat("/dev/full", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
    }

    /// The reader is gone before the program writes: it ends quietly with status 0.
    @Test func closedPipeBeforeTheFirstWrite() throws {
        let dir = try temporaryFile("status", Data())
        defer { removeTemporary(dir) }
        for command in ["parse", "render --format svg", "parse --ndjson"] {
            let r = try shell(#"{ sleep 0.3; "$0" \#(command); echo $? > "$1"; } | true"#, dir.path)
            #expect(try String(contentsOf: dir, encoding: .utf8) == "0\n", "\(command)")
            #expect(r.err == "", "\(command)")
        }
    }

    /// A successful `-o FILE` writes the whole output with the usual mode and leaves no
    /// temporary file behind.
    @Test func outputFileWritten() throws {
        let file = try temporaryFile("out.svg", Data("old".utf8))
        defer { removeTemporary(file) }
        let expected = try runSpoiler(["render", "--format", "svg"], input: "a ||b||\n")
        let r = try shell(#"umask 022; "$0" render --format svg -o "$1""#, file.path)
        #expect(r.status == 0 && r.err == "")
        #expect(try Data(contentsOf: file) == expected.stdout)
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(names == ["out.svg"])
        let fresh = file.deletingLastPathComponent().appendingPathComponent("new.svg")
        _ = try shell(#"umask 022; "$0" render --format svg -o "$1""#, fresh.path)
        var st = stat()
        #expect(stat(fresh.path, &st) == 0 && st.st_mode & 0o777 == 0o644)
    }

    /// A write that fails part-way (the file size limit, EFBIG) leaves the old file as it
    /// was and no temporary file beside it.
    @Test func failedOutputFileKeepsTheOldOne() throws {
        let file = try temporaryFile("out.svg", Data("GOOD".utf8))
        defer { removeTemporary(file) }
        let long = String(repeating: "word ||hidden|| ", count: 200)
        let r = try shell(
            #"trap "" XFSZ; ulimit -f 1; "$0" render --format svg -o "$1""#, file.path, input: long)
        #expect(r.status == 1)
        #expect(r.err == "error: \(file.path): cannot write: File too large\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "GOOD")
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(names == ["out.svg"])
    }

    /// A folder the user cannot write to (run as `nobody` when the tests run as root, who
    /// may write anywhere), and a path whose parent is a regular file.
    @Test func unwritableFolder() throws {
        let file = try temporaryFile("note", Data("GOOD".utf8))
        defer { removeTemporary(file) }
        let dir = file.deletingLastPathComponent()
        let readOnly = dir.appendingPathComponent("read-only")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: false)
        chmod(dir.path, 0o755)
        chmod(readOnly.path, 0o555)
        let target = readOnly.appendingPathComponent("out.svg").path
        let asUser = getuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let r = try shell(asUser + #""$0" render --format svg -o "$1""#, target)
        #expect(r.status == 1)
        #expect(r.err == "error: \(target): cannot write: Permission denied\n")
        let underFile = file.appendingPathComponent("out.svg").path
        let r2 = try shell(#""$0" render --format svg -o "$1""#, underFile)
        #expect(r2.status == 1)
        #expect(r2.err == "error: \(underFile): cannot write: Not a directory\n")
        #expect(try String(contentsOf: file, encoding: .utf8) == "GOOD")
    }

    /// Standard output is a non-blocking pipe whose reader waits 3 seconds before reading:
    /// all of the output arrives, and the program waits for the pipe (poll) instead of
    /// spinning on EAGAIN. A busy loop run over the same 3 seconds is the reference: on a
    /// loaded machine a spinning program gets about as much CPU as it does on top of the
    /// CPU its work takes (measured with output to /dev/null), a waiting one almost none.
    @Test func nonBlockingPipe() throws {
        let input = (1...3000).map { "\"message \($0) ||hidden||\"" }.joined(separator: "\n") + "\n"
        let expected = try runSpoiler(["parse", "--ndjson"], input: input)
        #expect(expected.status == 0 && expected.stdout.count > 200_000)
        let inFile = try temporaryFile("in.ndjson", Data(input.utf8))
        defer { removeTemporary(inFile) }
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        #expect(fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK) == 0)
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(devNull) }
        // The CPU the work itself takes, with nothing to wait for.
        let work = try spawn(
            spoilerBinary(), ["parse", "--ndjson", inFile.path], stdin: devNull, stdout: devNull, stderr: devNull
        ).wait().cpuSeconds
        let child = try spawn(
            spoilerBinary(), ["parse", "--ndjson", inFile.path], stdin: devNull, stdout: fds[1], stderr: devNull)
        close(fds[1])
        let busy = try spawn(
            Self.bash, ["-c", "end=$((SECONDS + 3)); while ((SECONDS < end)); do :; done"], stdin: devNull,
            stdout: devNull, stderr: devNull)
        let reference = busy.wait().cpuSeconds
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(fds[0], &chunk, chunk.count)
            if n <= 0 { break }
            output.append(contentsOf: chunk[0..<n])
        }
        close(fds[0])
        let (status, cpu) = child.wait()
        #expect(status == 0)
        #expect(output == expected.stdout)
        #expect(
            cpu < work + reference / 4,
            "the child used \(cpu) s of CPU (\(work) s without waiting), a busy loop \(reference) s")
    }

    /// The live player's terminal goes away (its pty's master side is closed) while the
    /// player is drawing: the next frame's write fails with EIO, which is reported with
    /// the terminal's path, and the status is 1. Input comes from a second pty that stays.
    @Test func terminalThatStopsTakingOutput() throws {
        let (inMaster, inSlave, _) = try openPTY()
        let (outMaster, outSlave, outPath) = try openPTY()
        let message = try temporaryFile("message.txt", Data("the butler ||did it|| in the library\n".utf8))
        defer { removeTemporary(message) }
        let errPath = message.deletingLastPathComponent().appendingPathComponent("stderr").path
        let errFD = open(errPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        let child = try spawn(
            spoilerBinary(), ["play", message.path], stdin: inSlave, stdout: outSlave, stderr: errFD,
            environment: ["TERM": "xterm-256color"])
        close(inSlave)
        close(outSlave)
        close(errFD)
        var first = [UInt8](repeating: 0, count: 4096)
        let n = read(outMaster, &first, first.count)  // the first frame has been drawn
        #expect(n > 0)
        // The message file was read and closed before the player started.
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(child.pid)/fd/\($0)")
        }
        #expect(open.contains(outPath))
        #expect(!open.contains(message.path), "\(open)")
        close(outMaster)
        let (status, _) = child.wait()
        close(inMaster)
        #expect(status == 1)
        let err = try String(contentsOfFile: errPath, encoding: .utf8)
        #expect(err == "error: \(outPath): write: Input/output error (errno 5)\n")
    }

    /// A new pseudo-terminal: its master, its slave (opened, not the controlling terminal)
    /// and the slave's path.
    func openPTY() throws -> (master: Int32, slave: Int32, path: String) {
        let master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            throw POSIXError(.EIO)
        }
        let path = String(cString: name)
        let slave = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0 else { throw POSIXError(.EIO) }
        var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(slave, UInt(TIOCSWINSZ), &size)
        return (master, slave, path)
    }
}

// The pseudo-terminal calls of <stdlib.h>, which the Glibc module shows only with _XOPEN_SOURCE.
@_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
@_silgen_name("grantpt") private func grantpt(_ fd: Int32) -> Int32
@_silgen_name("unlockpt") private func unlockpt(_ fd: Int32) -> Int32
@_silgen_name("ptsname") private func ptsname(_ fd: Int32) -> UnsafeMutablePointer<CChar>?
