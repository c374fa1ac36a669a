// spoiler-bench: release-mode benchmarks with in-run reference figures (DESIGN.md §8).
//
//   swift run -c release spoiler-bench [--json] [--stage NAME]... [--runs N] [--scale F] [--list]
import Glibc

/// Every stage, in the order they run.
///
/// A new stage is one file in `Stages/` and one line here.
let stages: [BenchStage] = [
    ParseStage.stage,
    NDJSONStage.stage,
    ParticleStage.stage,
    LayoutStage.stage,
    ANSIStage.stage,
    MarkdownStage.stage,
    PlatformStage.stage,
    ViewportStage.stage,
    MemoryStage.stage,
]

let usage = """
    usage: spoiler-bench [--json] [--stage NAME]... [--runs N] [--scale F] [--list]

    Measures SpoilerKit in a release build against reference implementations run in the
    same process (DESIGN.md §8). Build with -c release: debug figures mean nothing.

    options:
      --json        print one JSON object with DESIGN.md §8's keys instead of a table
      --stage NAME  run only this stage (repeatable; see --list)
      --runs N      timed runs per measurement, after one warm-up (default 5)
      --scale F     use F times each stage's corpus (0.01 to 1; for profiling, default 1)
      --list        list the stages
      --help        show this help
    """

func fail(_ reason: String) -> Never {
    writeError("error: \(reason)\nusage: spoiler-bench [--json] [--stage NAME]... [--runs N] [--scale F] [--list]\n")
    exit(2)
}

var json = false
var selected: [String] = []
var runs = 5
var scale = 1.0
var arguments = CommandLine.arguments.dropFirst()
while let arg = arguments.popFirst() {
    switch arg {
    case "--json": json = true
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--list":
        for s in stages { print("\(s.name)\t\(s.summary)") }
        exit(0)
    case "--stage":
        guard let name = arguments.popFirst() else { fail("'--stage' needs a stage name") }
        selected += name.split(separator: ",").map(String.init)
    case "--runs":
        guard let v = arguments.popFirst(), let n = Int(v), n >= 1, n <= 1000 else {
            fail("'--runs' needs a whole number from 1 to 1000")
        }
        runs = n
    case "--scale":
        guard let v = arguments.popFirst(), let f = Double(v), f >= 0.01, f <= 1 else {
            fail("'--scale' needs a number from 0.01 to 1")
        }
        scale = f
    default:
        fail("unknown argument '\(arg)'")
    }
}
for name in selected where !stages.contains(where: { $0.name == name }) {
    fail("unknown stage '\(name)' (stages: \(stages.map(\.name).joined(separator: ", ")))")
}

#if DEBUG
    writeError("warning: this is a debug build; run with 'swift run -c release spoiler-bench'\n")
#endif

var run = BenchRun(runs: runs)
run.scale = scale
for stage in stages where selected.isEmpty || selected.contains(stage.name) {
    run.stage = stage.name
    stage.run(&run)
}
print(json ? run.json() : run.table())
