import Foundation

/// valgrind, when installed (`.ci/run` installs it).
public let valgrindProgram: URL? = ["/usr/bin/valgrind", "/usr/local/bin/valgrind"]
    .map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }

/// The `spoiler` binary for running under valgrind: a copy without DWARF debug
/// information, made once per test process beside the binary.
///
/// valgrind 3.19 (Debian 12) cannot read all of the DWARF 5 that the Swift toolchain
/// writes: on some builds it gives up before running the program ("Possibly corrupted
/// debuginfo file"). Without debug information it still names every function from the
/// symbol table, which is all the leak and instruction checks need.
public func spoilerBinaryForValgrind() throws -> URL {
    try strippedSpoiler.get()
}

private let strippedSpoiler: Result<URL, any Error> = Result {
    let binary = spoilerBinary()
    let copy = binary.deletingLastPathComponent().appendingPathComponent("spoiler-nodebug")
    let partial = copy.appendingPathExtension("\(getpid())")
    let objcopy = URL(fileURLWithPath: "/usr/bin/objcopy")
    let result = try runProgram(objcopy, ["--strip-debug", binary.path, partial.path])
    guard result.status == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "objcopy failed: \(result.err)"])
    }
    // Renamed into place, so that test processes running at once never see half a file.
    guard rename(partial.path, copy.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    return copy
}
