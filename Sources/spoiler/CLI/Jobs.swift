import Glibc

/// `--jobs N`: how many threads work on NDJSON lines at once (DESIGN.md §8).
enum Jobs {
    /// The value of `--jobs` (checked by the parser against ``OptionTable``): a whole
    /// number from 1 to 1024, or 0 or `auto` for the number of cores; 1 when not given.
    static func count(from args: Arguments) -> Int {
        let n = args.integer("jobs")!
        return n == 0 ? cores : n
    }

    /// The number of online cores (at least 1).
    static var cores: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
