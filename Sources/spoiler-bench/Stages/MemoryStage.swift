import Glibc
import SpoilerCore

/// Peak memory on hostile inputs (issue 17): the built `spoiler` run as a user runs it, on
/// 4 MB inputs made of one markup pattern (and NDJSON files of one such line), with the
/// peak resident set size of each child
/// taken from `wait4`'s `ru_maxrss`.
///
/// Keys: `peak_rss_vs_input_<command>_<format>` (peak RSS ÷ input size, the worst over the
/// inputs of that parser or render format; target ≤ 8, plus 30 MB of constant, which is
/// 15.5 at 4 MB), `peak_rss_vs_input` (the worst of all), `cmark_gfm_peak_rss_ratio`
/// (our Markdown parse's peak ÷ the `cmark-gfm` program's on the same file; target
/// ≤ 1.2), and for every simulating render format on inputs just inside `RenderLimits`
/// (those past them are refused) `render_at_limits_mb_over_8x` (the worst peak RSS less
/// 8 × the input, in MB; target ≤ 30) and `render_at_limits_peak_rss_mb`. Every child runs under an 8 GB address-space limit, so a regression fails
/// the run instead of taking the machine.
enum MemoryStage {
    static let stage = BenchStage(
        name: "memory", summary: "peak RSS ÷ input size of spoiler on 4 MB hostile inputs", run: run)

    static let inputSize = 4 << 20

    /// The hostile inputs: a name and the pattern repeated to ``inputSize``.
    static let inputs: [(name: String, unit: String)] = [
        ("backtick-pipes", "`|| "),
        ("spoilers", "||ab|| "),
        ("open-spoilers", "||a"),
        ("emphasis-runs", "*_~"),
        ("long-word", "a"),
        ("markdownv2-entities", "*a* _b_ __c__ ~d~ ||e|| `f` \\. "),
        ("html-entities", "<b>a</b><i>b</i><tg-spoiler>c</tg-spoiler>&amp;&lt;"),
        ("html-nesting", "<b><i><u><s>"),
        ("markdown-paragraphs", "**a** _b_ ||d|| `e` [f](http://x) ~~g~~\n\n"),
    ]

    /// Inputs of one NDJSON line: a JSON string of the named input's pattern, the whole
    /// file ``inputSize`` bytes with the quotes and the newline.
    static let lineInputs: [(name: String, of: String)] = [
        ("ndjson-spoilers", "spoilers"), ("ndjson-backtick-pipes", "backtick-pipes"),
    ]

    /// The runs: a key suffix, the inputs, and the arguments before the file.
    static let runs: [(key: String, inputs: [String], arguments: [String])] = [
        ("parse_plain", ["backtick-pipes", "spoilers", "open-spoilers", "long-word"], ["parse"]),
        ("parse_markdownv2", ["markdownv2-entities", "emphasis-runs"], ["parse", "--from", "markdownv2"]),
        ("parse_html", ["html-entities", "html-nesting"], ["parse", "--from", "html"]),
        ("parse_markdown", ["markdown-paragraphs"], ["parse", "--from", "markdown"]),
        ("convert_markdownv2", ["spoilers", "backtick-pipes"], ["convert", "--to", "markdownv2"]),
        ("convert_html", ["spoilers", "backtick-pipes"], ["convert", "--to", "html"]),
        ("layout", ["spoilers", "long-word"], ["layout"]),
        ("render_svg", ["backtick-pipes", "spoilers", "long-word"], ["render", "--format", "svg"]),
        (
            "render_json", ["backtick-pipes", "spoilers", "long-word"],
            ["render", "--format", "json", "--duration", "0.2"]
        ),
        (
            "render_cast", ["backtick-pipes", "spoilers", "long-word"],
            ["render", "--format", "cast", "--duration", "0.2"]
        ),
        ("render_html", ["backtick-pipes", "spoilers"], ["render", "--format", "html"]),
        ("render_ansi", ["spoilers", "long-word"], ["render", "--format", "ansi", "--color", "never"]),
        (
            "render_ansi_wrapped", ["spoilers", "long-word"],
            ["render", "--format", "ansi", "--color", "never", "--width", "80"]
        ),
        ("parse_ndjson_line", ["ndjson-spoilers", "ndjson-backtick-pipes"], ["parse", "--ndjson"]),
        ("layout_ndjson_line", ["ndjson-spoilers", "ndjson-backtick-pipes"], ["layout", "--ndjson"]),
        (
            "convert_ndjson_line", ["ndjson-spoilers", "ndjson-backtick-pipes"],
            ["convert", "--ndjson", "--to", "html"]
        ),
    ]

    /// Inputs just inside ``RenderLimits`` (4,096 hidden graphemes, 1,024 animated, 64 KiB
    /// of text), for the renders below.
    static let limitInputs: [(name: String, text: String)] = [
        ("hidden-4090", "||" + String(repeating: "x", count: 4_090) + "||"),
        ("spoilers-4096", String(repeating: "||a|| ", count: 4_096)),
        (
            "text-61k-hidden-4090",
            String(repeating: "a", count: 61_000) + " ||" + String(repeating: "x", count: 4_090) + "||"
        ),
        ("hidden-1020", "||" + String(repeating: "x", count: 1_020) + "||"),
        (
            "text-64k-hidden-1020",
            String(repeating: "a", count: 64_000) + " ||" + String(repeating: "x", count: 1_020) + "||"
        ),
        ("emoji-1000", "||" + String(repeating: "👩‍👩‍👧", count: 1_000) + "||"),
    ]

    /// The renders of ``limitInputs``: every simulating format, animated and still, with a
    /// reveal and confetti.
    static let limitRuns: [[String]] = [
        ["--format", "svg"],
        ["--format", "svg", "--duration", "2"],
        ["--format", "svg", "--duration", "1", "--reveal-at", "0.3", "--celebrate"],
        ["--format", "svg", "--duration", "2", "--reduced-motion"],
        ["--format", "json", "--duration", "2"],
        ["--format", "json", "--timeline", "frames", "--duration", "2"],
        ["--format", "cast", "--duration", "2", "--reveal-at", "0.3", "--celebrate"],
        ["--format", "ansi", "--duration", "2"],
        ["--format", "ansi", "--reveal-at", "0.3", "--at", "1"],
    ]

    static func run(_ bench: inout BenchRun) {
        guard let spoiler = NDJSONStage.siblingExecutable("spoiler") else {
            bench.report("peak RSS ÷ input", nil, unit: "×", key: "peak_rss_vs_input", note: "no spoiler binary")
            return
        }
        var template = Array("/tmp/spoiler-bench-memory-XXXXXX".utf8CString)
        guard
            let dir = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }).map({ String(cString: $0) })
        else {
            bench.report("peak RSS ÷ input", nil, unit: "×", key: "peak_rss_vs_input", note: "no temporary folder")
            return
        }
        defer { rmdir(dir) }
        var paths: [String: String] = [:]
        for (name, unit) in inputs {
            let bytes = Array(String(repeating: unit, count: inputSize / unit.utf8.count).utf8)
            let path = "\(dir)/\(name)"
            if write(bytes, to: path) { paths[name] = path }
        }
        for (name, of) in lineInputs {
            guard let unit = inputs.first(where: { $0.name == of })?.unit else { continue }
            let body = String(repeating: unit, count: (inputSize - 3) / unit.utf8.count)
            let path = "\(dir)/\(name)"
            if write(Array("\"\(body)\"\n".utf8), to: path) { paths[name] = path }
        }
        defer { for path in paths.values { unlink(path) } }

        var worst = 0.0
        for (key, names, arguments) in runs {
            var ratio = 0.0
            var detail = ""
            for name in names {
                guard let path = paths[name], let result = peakRSS(spoiler, arguments + [path]) else { continue }
                let r = Double(result.bytes) / Double(inputSize)
                if r >= ratio {
                    ratio = r
                    detail = "\(name): \(BenchRun.format(Double(result.bytes) / 1048576)) MB, exit \(result.status)"
                }
            }
            worst = max(worst, ratio)
            bench.report(
                "spoiler \(arguments.joined(separator: " "))", ratio, unit: "× input",
                key: "peak_rss_vs_input_\(key)", note: detail)
            if key == "parse_markdown", let path = paths["markdown-paragraphs"],
                let ours = peakRSS(spoiler, arguments + [path]),
                let cmark = peakRSS("/usr/bin/cmark-gfm", ["-e", "strikethrough", path])
            {
                bench.report(
                    "Markdown parse peak RSS ÷ cmark-gfm's", Double(ours.bytes) / Double(cmark.bytes), unit: "×",
                    key: "cmark_gfm_peak_rss_ratio",
                    note: "cmark-gfm: \(BenchRun.format(Double(cmark.bytes) / 1048576)) MB; target ≤ 1.2")
            }
        }
        bench.report(
            "worst peak RSS ÷ input (\(inputSize >> 20) MB inputs)", worst, unit: "×", key: "peak_rss_vs_input",
            note: "target ≤ 8 + 30 MB (15.5 at 4 MB)")
        renderWithinLimits(spoiler, dir: dir, &bench)
    }

    /// The renders of ``limitRuns`` over ``limitInputs``: the worst peak RSS less 8 × the
    /// input, in MB (`render_at_limits_mb_over_8x`; target ≤ 30), and the worst peak.
    static func renderWithinLimits(_ spoiler: String, dir: String, _ bench: inout BenchRun) {
        var worstOver = -Double.infinity
        var worstPeak = 0.0
        var detail = ""
        var peakDetail = ""
        for (name, text) in limitInputs {
            let path = "\(dir)/\(name)"
            let bytes = Array(text.utf8)
            guard write(bytes, to: path) else { continue }
            defer { unlink(path) }
            for arguments in limitRuns {
                guard let result = peakRSS(spoiler, ["render"] + arguments + [path]) else { continue }
                let peak = Double(result.bytes) / 1_048_576
                let over = peak - 8 * Double(bytes.count) / 1_048_576
                let run =
                    "\(name) \(arguments.joined(separator: " ")): \(BenchRun.format(peak)) MB, exit \(result.status)"
                if over > worstOver { (worstOver, detail) = (over, run) }
                if peak > worstPeak { (worstPeak, peakDetail) = (peak, run) }
            }
        }
        guard worstOver.isFinite else { return }
        bench.report(
            "render within RenderLimits: worst peak RSS − 8 × input", worstOver, unit: "MB",
            key: "render_at_limits_mb_over_8x", note: "\(detail); target ≤ 30")
        bench.report(
            "render within RenderLimits: worst peak RSS", worstPeak, unit: "MB", key: "render_at_limits_peak_rss_mb",
            note: peakDetail)
    }

    /// Writes `bytes` to a new file at `path`.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n <= 0 { return false }
            done += n
        }
        return true
    }

    /// Runs `program` with `arguments` (output to /dev/null, under an 8 GB address-space
    /// limit) and returns its peak RSS in bytes and its exit status.
    static func peakRSS(_ program: String, _ arguments: [String]) -> (bytes: Int, status: Int32)? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        // The child inherits the limit; this process gets its own back at once.
        var saved = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &saved)
        var limited = saved
        limited.rlim_cur = min(saved.rlim_cur, 8_000_000_000)
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &limited)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &saved)
        guard spawned == 0 else { return nil }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { return nil }
        }
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (Int(usage.ru_maxrss) * 1024, exit)
    }
}
