/// One fuzz target: what it feeds the bytes to, and where its seed inputs come from.
struct FuzzTarget: Sendable {
    /// The name given on the command line.
    var name: String
    /// What it runs and the property it checks beyond "no crash".
    var summary: String
    /// Where the seeds come from, relative to `Fixtures/` (or absolute, for files a Debian
    /// package installs).
    var seeds: [SeedSource]
    /// Runs one input; a broken property stops the process (``violated(_:_:)``), which
    /// libFuzzer reports as a crash and saves the input.
    var run: @Sendable ([UInt8]) -> Void
}

/// Where a target's seed inputs come from.
indirect enum SeedSource: Sendable {
    /// Every file in a folder (not recursive) whose name ends with the suffix.
    case files(String, suffix: String)
    /// One file, whole.
    case file(String)
    /// Each line of a JSON-lines file, whole.
    case lines(String)
    /// The string under `key` in each line of a JSON-lines file.
    case jsonField(String, key: String)
    /// Literal inputs.
    case literal([String])
    /// Each input of the source once with each of the bytes put in front (for a target whose
    /// first byte picks a mode).
    case prefixed([UInt8], SeedSource)
}

/// Stops the fuzzer on a broken property, with the target's name and what broke.
func violated(_ target: String, _ what: String) -> Never {
    fatalError("\(target): property broken: \(what)")
}
