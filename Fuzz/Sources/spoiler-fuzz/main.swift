import Glibc

/// `spoiler-fuzz TARGET [libFuzzer options] [corpus folders]` runs one fuzz target under
/// libFuzzer; `spoiler-fuzz --list` prints each target's name and seed sources;
/// `spoiler-fuzz --seeds TARGET FIXTURES OUT` writes the target's seed inputs, cut from the
/// files under FIXTURES, into the folder OUT.

typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: FuzzCallback
) -> Int32

/// The target chosen on the command line; set once, before the driver starts.
nonisolated(unsafe) var selected: FuzzTarget?

func usage() -> Never {
    let text = """
        usage: spoiler-fuzz TARGET [libFuzzer options] [corpus…] | --list | --seeds TARGET FIXTURES OUT
        targets: \(fuzzTargets.map(\.name).joined(separator: " "))

        """
    _ = Array(text.utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { usage() }
switch arguments[1] {
case "--list":
    for t in fuzzTargets { print("\(t.name)\t\(t.summary)") }
    exit(0)
case "--seeds":
    guard arguments.count == 5, let t = fuzzTargets.first(where: { $0.name == arguments[2] }) else { usage() }
    let count = writeSeeds(for: t, fixtures: arguments[3], to: arguments[4])
    print("\(t.name): \(count) seeds")
    exit(0)
default:
    guard let t = fuzzTargets.first(where: { $0.name == arguments[1] }) else { usage() }
    selected = t
}

// libFuzzer sees the program name followed by its own options: the target name is removed.
var argc = CommandLine.argc - 1
let argv = CommandLine.unsafeArgv
argv[1] = argv[0]
var shifted = argv + 1
exit(
    LLVMFuzzerRunDriver(&argc, &shifted) { data, size in
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        selected!.run(bytes)
        return 0
    })
