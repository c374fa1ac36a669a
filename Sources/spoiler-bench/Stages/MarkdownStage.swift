import Glibc
import SpoilerCore
import SpoilerParser

/// The Markdown path (DESIGN.md §8): cmark-gfm with the spoiler extension, then flattening to a
/// Message, against plain cmark-gfm (the same GFM extensions, no spoiler extension)
/// parsing the same documents and rendering them to HTML, as the `cmark-gfm` program
/// does, timed in alternation in the same run, in thread CPU time.
///
/// Key: `markdown_vs_cmark` (our time ÷ cmark-gfm's; target ≤ 1.3). The table also shows
/// our HTML rendering (`--to html`) against the same reference.
enum MarkdownStage {
    static let stage = BenchStage(
        name: "markdown", summary: "Markdown → Message vs plain cmark-gfm parse + render to HTML", run: run)

    static let documentCount = 4_000

    static func run(_ bench: inout BenchRun) {
        let docs = documents(count: documentCount)
        let bytes = Double(docs.reduce(0) { $0 + $1.count })
        let pair = cpuPair(&bench, { messageAll(docs) }, { referenceAll(docs) })
        bench.report(
            "Markdown → Message (\(documentCount) documents, \(BenchRun.format(bytes / 1e6)) MB)",
            bytes / pair.a / 1e6, unit: "MB/s", note: "thread CPU time")
        bench.report("cmark-gfm parse + HTML, same documents", bytes / pair.b / 1e6, unit: "MB/s")
        bench.report(
            "Markdown → Message time ÷ cmark-gfm's", pair.ratio, unit: "×", key: "markdown_vs_cmark",
            note: "target ≤ 1.3")
        let html = cpuPair(&bench, { htmlAll(docs) }, { referenceAll(docs) })
        bench.report("Markdown → HTML time ÷ cmark-gfm's", html.ratio, unit: "×", note: "with the spoiler extension")
        // The same text as one long document: a tree of about 40 MB, far larger than the
        // caches, where memory traffic counts more than per-document costs.
        let whole = [Array(docs.joined(separator: Array("\n\n".utf8)))]
        let large = cpuPair(&bench, { messageAll(whole) }, { referenceAll(whole) })
        bench.report(
            "… as one \(BenchRun.format(bytes / 1e6)) MB document", large.ratio, unit: "×",
            key: "markdown_large_vs_cmark", note: "target ≤ 1.3")
    }

    /// Times `a` and `b` in alternation, in thread CPU time.
    ///
    /// One warm-up each, then the run's count of pairs; returns each one's median time in
    /// seconds and the median of `a`'s time ÷ `b`'s. CPU time, unlike the wall clock, does
    /// not count other programs on a shared machine.
    static func cpuPair(
        _ bench: inout BenchRun, _ a: () -> UInt64, _ b: () -> UInt64
    ) -> (a: Double, b: Double, ratio: Double) {
        bench.fold(a())
        bench.fold(b())
        var ta: [Double] = []
        var tb: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<max(1, bench.runs) {
            var start = threadCPUSeconds()
            bench.fold(a())
            let x = threadCPUSeconds() - start
            start = threadCPUSeconds()
            bench.fold(b())
            let y = threadCPUSeconds() - start
            ta.append(x)
            tb.append(y)
            ratios.append(x / y)
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        return (median(ta), median(tb), median(ratios))
    }

    static func threadCPUSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    static func messageAll(_ docs: [[UInt8]]) -> UInt64 {
        var sum: UInt64 = 0
        for d in docs {
            if let m = try? MessageParser.parse(d, from: .markdown) {
                sum &+= UInt64(m.text.utf8.count) &* 31 &+ UInt64(m.entities.count)
            }
        }
        return sum
    }

    static func htmlAll(_ docs: [[UInt8]]) -> UInt64 {
        var sum: UInt64 = 0
        for d in docs { sum &+= UInt64(MarkdownRenderer.html(d).count) }
        return sum
    }

    static func referenceAll(_ docs: [[UInt8]]) -> UInt64 {
        var sum: UInt64 = 0
        for d in docs { sum &+= UInt64(MarkdownRenderer.referenceHTML(d).count) }
        return sum
    }

    private static let words = [
        "the", "butler", "did", "it", "in", "library", "season", "finale", "twist", "Привет",
        "концовка", "秘密", "日本語", "😀", "🎬", "café", "naïve", "42", "ok", "watch", "tonight",
    ]
    private static let inlines = [
        "**bold %**", "*italic %*", "~~gone %~~", "`code %`", "||hidden %||", "[link %](https://example.org/%)",
        "**a ||b %|| c**", "||*x* %||", "<https://t.me/%>", "www.example.com", "a|b", "%_%", "&amp;",
    ]

    /// Deterministic documents: chat-sized messages and longer notes with headings, lists,
    /// quotes, code and tables, with spoilers.
    static func documents(count: Int) -> [[UInt8]] {
        var rng = SplitMix64(seed: 0x3D0C)
        func pick(_ xs: [String]) -> String { xs[Int(rng.next() % UInt64(xs.count))] }
        func sentence() -> String {
            var parts: [String] = []
            for _ in 0..<(Int(rng.next() % 12) + 3) {
                if rng.next() % 4 == 0 {
                    parts.append(pick(inlines).replacingAll("%", with: pick(words)))
                } else {
                    parts.append(pick(words))
                }
            }
            return parts.joined(separator: " ")
        }
        var docs: [[UInt8]] = []
        for i in 0..<count {
            var blocks: [String] = []
            let n = i % 4 == 0 ? Int(rng.next() % 12) + 4 : Int(rng.next() % 2) + 1
            for _ in 0..<n {
                switch rng.next() % 10 {
                case 0: blocks.append("## " + sentence())
                case 1: blocks.append("- " + sentence() + "\n- " + sentence() + "\n  - " + sentence())
                case 2: blocks.append("> " + sentence() + "\n> " + sentence())
                case 3: blocks.append("```swift\nlet x = \"" + pick(words) + "\"\n```")
                case 4: blocks.append("| a | b |\n|---|---|\n| " + pick(words) + " | \\|\\|" + pick(words) + "\\|\\| |")
                case 5: blocks.append("1. " + sentence() + "\n2. " + sentence())
                default: blocks.append(sentence() + "\n" + sentence())
                }
            }
            docs.append(Array((blocks.joined(separator: "\n\n") + "\n").utf8))
        }
        return docs
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
