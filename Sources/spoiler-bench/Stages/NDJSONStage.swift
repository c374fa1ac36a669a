import Glibc
import SpoilerCore

/// Streaming NDJSON through the real command line (DESIGN.md §8): `spoiler parse --ndjson` over
/// a generated file of chat messages, run as a child process with its output sent to
/// /dev/null, with `--jobs 1` and `--jobs 2` in turn on the same file; the child's peak
/// resident size (VmHWM, sampled every 5 ms) for each, against `cat` copying the same file
/// to /dev/null in the same run.
///
/// Keys: `ndjson_mb_per_s_jobs1`, MB per second of the child's CPU time (user + system,
/// from wait4, so that a busy machine does not skew it); `ndjson_mb_per_s_jobs2`, MB per
/// second of wall-clock time with `--jobs 2` (what a second core buys can only be seen on
/// the wall clock; the `--jobs 1` wall-clock figure is reported beside it, and
/// `ndjson_jobs2_speedup` is their ratio, `ndjson_jobs2_cores` the CPU time over the wall
/// time of the `--jobs 2` run); `ndjson_peak_rss_mb` and `ndjson_peak_rss_mb_jobs2` (DESIGN.md §8
/// target: under 64 MB, which holds for any size when memory does not grow with the input).
///
/// `spoiler layout --ndjson` and `jq -c .` (the identity filter: it only reads and rewrites
/// the JSON) run on the same file in the same rounds, in turn with the parse runs, so that
/// all see the same load: `layout_ndjson_mb_per_s` and `jq_mb_per_s` per CPU second, and
/// the ratios DESIGN.md §8 sets targets for, `ndjson_vs_jq` (parse's MB/s ÷ jq's, target
/// at least 8) and `layout_ndjson_vs_jq` (at least 5). Without jq on the PATH those two
/// are null, with a note. Each ratio is the median of the rounds' own ratios (a round's jq
/// CPU time over its parse's or layout's), so that a round the machine ran slow for all
/// three counts as one round, not as a slow jq set against another round's fast spoiler.
/// The stage runs `--runs` rounds (at most 9; about 6 s each on this file).
enum NDJSONStage {
    static let stage = BenchStage(
        name: "ndjson", summary: "spoiler parse and layout --ndjson over a generated file: MB/s against jq, peak RSS",
        run: run)

    /// Size of the generated input.
    static let targetBytes = 128 << 20

    static func run(_ bench: inout BenchRun) {
        guard let spoiler = siblingExecutable("spoiler") else {
            bench.report(
                "spoiler parse --ndjson", nil, unit: "MB/s", key: "ndjson_mb_per_s_jobs1",
                note: "unavailable: no spoiler binary beside spoiler-bench (swift build -c release)")
            return
        }
        let path = "/tmp/spoiler-bench-\(getpid()).ndjson"
        defer { unlink(path) }
        guard let size = writeInput(to: path) else {
            bench.report(
                "spoiler parse --ndjson", nil, unit: "MB/s", key: "ndjson_mb_per_s_jobs1", note: "cannot write \(path)")
            return
        }
        var peakKB = 0
        var peakKB2 = 0
        var failed = false
        var cpu: [Double] = []
        var wall: [Double] = []
        var cpu2: [Double] = []
        var wall2: [Double] = []
        var catCPU: [Double] = []
        var layoutCPU: [Double] = []
        var jqCPU: [Double] = []
        let jqPaths: [String] = ["/usr/bin/jq", "/usr/local/bin/jq", "/bin/jq"]
        let jq = jqPaths.first { access($0, X_OK) == 0 }
        // Each round's jq and spoiler CPU times, side by side, for the ratios.
        var parseRatios: [Double] = []
        var layoutRatios: [Double] = []
        for _ in 0..<min(bench.runs, 9) {
            guard let r = spawn(spoiler, ["spoiler", "parse", "--ndjson", path]), r.status == 0,
                let r2 = spawn(spoiler, ["spoiler", "parse", "--ndjson", "--jobs", "2", path]), r2.status == 0
            else {
                failed = true
                break
            }
            peakKB = max(peakKB, r.maxRSSKB)
            peakKB2 = max(peakKB2, r2.maxRSSKB)
            cpu.append(r.cpuSeconds)
            wall.append(r.wallSeconds)
            cpu2.append(r2.cpuSeconds)
            wall2.append(r2.wallSeconds)
            bench.fold(UInt64(r.status) &+ UInt64(r2.status) &+ UInt64(size))
            if let c = spawn("/bin/cat", ["cat", path]) { catCPU.append(c.cpuSeconds) }
            guard let l = spawn(spoiler, ["spoiler", "layout", "--ndjson", path]), l.status == 0 else {
                failed = true
                break
            }
            layoutCPU.append(l.cpuSeconds)
            if let jq, let j = spawn(jq, ["jq", "-c", ".", path]), j.status == 0 {
                jqCPU.append(j.cpuSeconds)
                parseRatios.append(j.cpuSeconds / max(r.cpuSeconds, 1e-6))
                layoutRatios.append(j.cpuSeconds / max(l.cpuSeconds, 1e-6))
            }
        }
        if failed || cpu.isEmpty {
            bench.report(
                "spoiler parse --ndjson", nil, unit: "MB/s", key: "ndjson_mb_per_s_jobs1", note: "the run failed")
            return
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        let mb = Double(size) / 1e6
        bench.report(
            "spoiler parse --ndjson (\(BenchRun.format(mb)) MB), per CPU second", mb / median(cpu), unit: "MB/s",
            key: "ndjson_mb_per_s_jobs1")
        if !catCPU.isEmpty {
            bench.report("cat, same file, per CPU second", mb / max(median(catCPU), 1e-3), unit: "MB/s")
        }
        let layoutRate = mb / median(layoutCPU)
        bench.report(
            "spoiler layout --ndjson, per CPU second", layoutRate, unit: "MB/s", key: "layout_ndjson_mb_per_s",
            note: "target ≥ 80")
        if jqCPU.isEmpty {
            let note = jq == nil ? "unavailable: no jq on the PATH (apt-get install jq)" : "jq failed"
            bench.report("jq -c ., same file, per CPU second", nil, unit: "MB/s", key: "jq_mb_per_s", note: note)
            bench.report("parse --ndjson ÷ jq -c .", nil, unit: "×", key: "ndjson_vs_jq", note: note)
            bench.report("layout --ndjson ÷ jq -c .", nil, unit: "×", key: "layout_ndjson_vs_jq", note: note)
        } else {
            let jqRate = mb / median(jqCPU)
            bench.report("jq -c ., same file, per CPU second", jqRate, unit: "MB/s", key: "jq_mb_per_s")
            func spread(_ v: [Double]) -> String {
                let sorted = v.sorted()
                return "rounds \(BenchRun.format(sorted.first!))–\(BenchRun.format(sorted.last!))"
            }
            bench.report(
                "parse --ndjson ÷ jq -c ., CPU throughput", median(parseRatios), unit: "×", key: "ndjson_vs_jq",
                note: "target ≥ 8; \(spread(parseRatios))")
            bench.report(
                "layout --ndjson ÷ jq -c ., CPU throughput", median(layoutRatios), unit: "×",
                key: "layout_ndjson_vs_jq", note: "target ≥ 5; \(spread(layoutRatios))")
        }
        let wall1Rate = mb / median(wall)
        let wall2Rate = mb / median(wall2)
        bench.report("--jobs 1, wall clock", wall1Rate, unit: "MB/s")
        bench.report("--jobs 2, wall clock", wall2Rate, unit: "MB/s", key: "ndjson_mb_per_s_jobs2")
        bench.report("--jobs 2 ÷ --jobs 1, wall clock", wall2Rate / wall1Rate, unit: "×", key: "ndjson_jobs2_speedup")
        bench.report(
            "--jobs 2, CPU time ÷ wall time", median(cpu2) / median(wall2), unit: "cores", key: "ndjson_jobs2_cores")
        bench.report(
            "spoiler parse --ndjson peak RSS", Double(peakKB) / 1024, unit: "MB", key: "ndjson_peak_rss_mb",
            note: "target < 64")
        bench.report(
            "--jobs 2 peak RSS", Double(peakKB2) / 1024, unit: "MB", key: "ndjson_peak_rss_mb_jobs2",
            note: "target < 64")
    }

    /// The path of `name` in the folder of this executable, if it exists.
    static func siblingExecutable(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let me = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = me.lastIndex(of: "/") else { return nil }
        let path = String(me[..<slash]) + "/" + name
        return access(path, X_OK) == 0 ? path : nil
    }

    /// Writes generated NDJSON (strings and objects with ids, plain markup) to `path`;
    /// returns its size in bytes.
    static func writeInput(to path: String) -> Int? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let corpus = ChatCorpus(count: 20_000, seed: 0xD15C)
        var lines: [[UInt8]] = []
        for (i, m) in corpus.plain.enumerated() {
            var w = JSONWriter()
            let text = String(decoding: m, as: UTF8.self)
            if i % 2 == 0 {
                w.string(text)
            } else {
                w.object { w in
                    w.key("id")
                    w.number(i)
                    w.key("text")
                    w.string(text)
                }
            }
            lines.append(w.bytes + [0x0A])
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var written = 0
        var k = 0
        while written < targetBytes {
            buffer.append(contentsOf: lines[k % lines.count])
            k += 1
            if buffer.count >= 1 << 20 {
                guard writeAll(fd, buffer) else { return nil }
                written += buffer.count
                buffer.removeAll(keepingCapacity: true)
            }
        }
        guard writeAll(fd, buffer) else { return nil }
        return written + buffer.count
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                off += n
            }
            return true
        }
    }

    /// Runs `path` with `argv`, standard output to /dev/null; its exit status, peak RSS,
    /// CPU time and wall-clock time (to within the 5 ms polling step).
    static func spawn(_ path: String, _ argv: [String])
        -> (status: Int32, maxRSSKB: Int, cpuSeconds: Double, wallSeconds: Double)?
    {
        let clock = ContinuousClock()
        let start = clock.now
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let env: [UnsafeMutablePointer<CChar>?] = [strdup("PATH=/usr/bin:/bin"), strdup("SPOILER_PROGRESS=0"), nil]
        defer { for p in env { free(p) } }
        guard posix_spawn(&pid, path, &actions, nil, &cArgs, env) == 0 else { return nil }
        // The peak resident size is sampled from /proc while the child runs: wait4's
        // ru_maxrss would include this process's size, which a vfork-based posix_spawn
        // child inherits through exec.
        var status: Int32 = 0
        var usage = rusage()
        var peakKB = 0
        while true {
            let r = wait4(pid, &status, WNOHANG, &usage)
            if r == pid { break }
            if r < 0 && errno != EINTR { return nil }
            if let kb = highWaterKB(of: pid) { peakKB = max(peakKB, kb) }
            usleep(5_000)
        }
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
        let elapsed = clock.now - start
        let wallSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        return (exitStatus, peakKB, seconds(usage.ru_utime) + seconds(usage.ru_stime), wallSeconds)
    }

    /// `VmHWM` of a running process, in KB, from /proc/PID/status.
    static func highWaterKB(of pid: pid_t) -> Int? {
        let fd = open("/proc/\(pid)/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[0..<n], as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
