import Glibc
import SpoilerCore

/// One benchmark stage: a name for `--stage`, a line for the table, and the work.
///
/// A stage measures its figures with ``BenchRun/measure(_:runs:_:)`` and reports them
/// with ``BenchRun/report(_:_:unit:key:note:)``; a figure that DESIGN.md §8 names also goes
/// under its key in the `--json` object. Stages live one per file in `Stages/` and are
/// registered in `main.swift`'s `stages` list.
struct BenchStage: Sendable {
    /// The name that `--stage` selects (`parse`).
    let name: String
    /// What the stage measures, one line.
    let summary: String
    /// Runs the stage, adding its figures to the run.
    let run: @Sendable (inout BenchRun) -> Void
}

/// One figure in the table.
struct BenchRow {
    var stage: String
    var measure: String
    /// nil when the figure could not be measured (then `note` says why).
    var value: Double?
    var unit: String
    var note: String
}

/// The figures of one `spoiler-bench` run, and the tools to measure them.
///
/// Timing: each measurement runs its body once to warm up, then `runs` times, and takes
/// the median wall-clock time (a monotonic clock). Every body returns a checksum of its
/// results, which is folded into ``checksum`` and printed, so that the optimiser cannot
/// drop the work.
struct BenchRun {
    /// Timed runs per measurement (after one warm-up run).
    var runs: Int
    /// How much of each stage's corpus to use (`--scale`; 1 is the whole), for profiling.
    var scale = 1.0
    /// The stage being run, for the table.
    var stage = ""
    private(set) var rows: [BenchRow] = []
    /// `--json` keys in the order they were set; nil is written as null.
    private(set) var keys: [(key: String, value: Double?)] = []
    /// All bodies' results folded together.
    private(set) var checksum: UInt64 = 0

    init(runs: Int) { self.runs = runs }

    /// The median time in seconds of `body` over `runs` runs, after one warm-up run.
    mutating func measure(_ label: String = "", runs: Int? = nil, _ body: () -> UInt64) -> Double {
        let clock = ContinuousClock()
        fold(body())
        var times: [Double] = []
        for _ in 0..<max(1, runs ?? self.runs) {
            let start = clock.now
            let result = body()
            let elapsed = clock.now - start
            fold(result)
            let parts = elapsed.components
            times.append(Double(parts.seconds) + Double(parts.attoseconds) * 1e-18)
        }
        times.sort()
        return times[times.count / 2]
    }

    /// Times `a` and `b` in alternation, so that both see the same machine load.
    ///
    /// One warm-up run each, then `runs` pairs. Returns each one's median time in seconds and the
    /// median over the pairs of `a`'s time ÷ `b`'s.
    mutating func measurePair(
        runs: Int? = nil, _ a: () -> UInt64, _ b: () -> UInt64
    ) -> (a: Double, b: Double, ratio: Double) {
        let clock = ContinuousClock()
        func seconds(_ d: Duration) -> Double {
            Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        }
        fold(a())
        fold(b())
        var ta: [Double] = []
        var tb: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<max(1, runs ?? self.runs) {
            var start = clock.now
            fold(a())
            let x = seconds(clock.now - start)
            start = clock.now
            fold(b())
            let y = seconds(clock.now - start)
            ta.append(x)
            tb.append(y)
            ratios.append(x / y)
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        return (median(ta), median(tb), median(ratios))
    }

    /// Folds a result into the checksum.
    mutating func fold(_ value: UInt64) {
        checksum = (checksum &* 0x100_0000_01B3) ^ value
        blackHole(value)
    }

    /// Adds a figure to the table and, with `key`, to the `--json` object.
    mutating func report(_ measure: String, _ value: Double?, unit: String, key: String? = nil, note: String = "") {
        rows.append(BenchRow(stage: stage, measure: measure, value: value, unit: unit, note: note))
        if let key { setKey(key, value) }
    }

    /// Sets a `--json` key (replacing an earlier value).
    mutating func setKey(_ key: String, _ value: Double?) {
        if let i = keys.firstIndex(where: { $0.key == key }) {
            keys[i].value = value
        } else {
            keys.append((key, value))
        }
    }

    /// The table: one row per figure, then the checksum.
    func table() -> String {
        let header = ["stage", "measure", "value", "unit", "note"]
        let cells = rows.map { r in
            [r.stage, r.measure, r.value.map(BenchRun.format) ?? "n/a", r.unit, r.note]
        }
        var widths = header.map(\.count)
        for row in cells { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, c in
                let pad = String(repeating: " ", count: widths[i] - c.count)
                return i == 2 ? pad + c : c + pad
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var out = [line(header), line(widths.map { String(repeating: "-", count: $0) })]
        out += cells.map(line)
        out.append("checksum \(String(checksum, radix: 16))")
        return out.joined(separator: "\n")
    }

    /// One JSON object with every key set, then `checksum` (hex string).
    func json() -> String {
        var w = JSONWriter()
        w.object { w in
            for (k, v) in keys {
                w.key(k)
                if let v { w.number(v, decimals: 4) } else { w.null() }
            }
            w.key("checksum")
            w.string(String(checksum, radix: 16))
        }
        return w.string
    }

    /// A figure with about four significant digits.
    static func format(_ v: Double) -> String {
        var out: [UInt8] = []
        let decimals = abs(v) >= 1000 ? 0 : abs(v) >= 100 ? 1 : abs(v) >= 10 ? 2 : abs(v) >= 1 ? 3 : 4
        JSONWriter.appendNumber(v, decimals: decimals, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// Writes `text` to standard error at once.
func writeError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

/// Keeps `value` alive as far as the optimiser can tell.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
