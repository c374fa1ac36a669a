import CCmarkGFM
import Glibc
import SpoilerCore
import SpoilerParser

/// Parsing throughput (DESIGN.md §8): plain and MarkdownV2 messages parsed into Messages,
/// against libcmark-gfm parsing the same bytes and rendering them to HTML with the
/// table, strikethrough, autolink, tagfilter and tasklist extensions, in the same run.
///
/// Keys: `parse_plain_vs_cmark`, `parse_markdownv2_vs_cmark` (our throughput ÷ cmark-gfm's;
/// target ≥ 2). Each message is parsed on its own, as a bot or a chat client would.
enum ParseStage {
    static let stage = BenchStage(
        name: "parse", summary: "plain and MarkdownV2 parsing vs cmark-gfm parse + render to HTML", run: run)

    static let messageCount = 20_000

    static func run(_ bench: inout BenchRun) {
        let corpus = ChatCorpus(count: messageCount)

        let plainBytes = Double(corpus.plainBytes)
        let plain = bench.measurePair({ parseAll(corpus.plain, from: .plain) }, { cmarkAll(corpus.plain) })
        bench.report(
            "plain parse (\(messageCount) messages, \(mb(plainBytes)) MB)", plainBytes / plain.a / 1e6, unit: "MB/s")
        bench.report("cmark-gfm parse + HTML, same plain bytes", plainBytes / plain.b / 1e6, unit: "MB/s")
        bench.report(
            "plain ÷ cmark-gfm throughput", 1 / plain.ratio, unit: "×", key: "parse_plain_vs_cmark",
            note: "target ≥ 2")

        // Adversarial runs: 10 MB of one markup pattern takes twice the time of 5 MB
        // (linear time, DESIGN.md §9; both sizes are well past the caches).
        for unit in ["|", "\\", "`", "||a", "`||"] {
            let small = Array(String(repeating: unit, count: 5 * (1 << 20) / unit.utf8.count).utf8)
            let big = Array(String(repeating: unit, count: 10 * (1 << 20) / unit.utf8.count).utf8)
            let t = bench.measurePair(runs: 3, { parseAll([big], from: .plain) }, { parseAll([small], from: .plain) })
            bench.report(
                "plain, 10 MB of \(unit.debugDescription)", Double(big.count) / t.a / 1e6, unit: "MB/s",
                note: "10 MB time ÷ 5 MB time: \(BenchRun.format(t.ratio)) (linear: ≈ 2)")
        }

        let mdBytes = Double(corpus.markdownV2Bytes)
        var failures = 0
        var available = true
        for m in corpus.markdownV2 {
            do {
                _ = try MessageParser.parse(m, from: .markdownV2)
            } catch {
                if error.kind == .unsupported { available = false }
                failures += 1
            }
        }
        guard available else {
            let cmarkTime = bench.measure { cmarkAll(corpus.markdownV2) }
            bench.report("MarkdownV2 parse", nil, unit: "MB/s", note: "unavailable: no MarkdownV2 parser in this build")
            bench.report("cmark-gfm parse + HTML, same MarkdownV2 bytes", mdBytes / cmarkTime / 1e6, unit: "MB/s")
            bench.report(
                "MarkdownV2 ÷ cmark-gfm throughput", nil, unit: "×", key: "parse_markdownv2_vs_cmark",
                note: "unavailable")
            return
        }
        let md = bench.measurePair({ parseAll(corpus.markdownV2, from: .markdownV2) }, { cmarkAll(corpus.markdownV2) })
        bench.report(
            "MarkdownV2 parse (\(messageCount) messages, \(mb(mdBytes)) MB)", mdBytes / md.a / 1e6, unit: "MB/s",
            note: failures == 0 ? "" : "\(failures) messages rejected")
        bench.report("cmark-gfm parse + HTML, same MarkdownV2 bytes", mdBytes / md.b / 1e6, unit: "MB/s")
        bench.report(
            "MarkdownV2 ÷ cmark-gfm throughput", 1 / md.ratio, unit: "×", key: "parse_markdownv2_vs_cmark",
            note: "target ≥ 2")
    }

    static func mb(_ bytes: Double) -> String { BenchRun.format(bytes / 1e6) }

    /// Parses every message; returns a checksum of text lengths and entities.
    static func parseAll(_ messages: [[UInt8]], from format: InputFormat) -> UInt64 {
        var sum: UInt64 = 0
        for m in messages {
            if let message = try? MessageParser.parse(m, from: format) {
                sum &+= UInt64(message.text.utf8.count) &* 31 &+ UInt64(message.entities.count)
                if let last = message.entities.last { sum &+= UInt64(last.offset) }
            } else {
                sum &+= 1
            }
        }
        return sum
    }

    /// Parses every message with cmark-gfm and renders it to HTML; returns a checksum of
    /// the HTML lengths.
    static func cmarkAll(_ messages: [[UInt8]]) -> UInt64 {
        let options = CMARK_OPT_DEFAULT
        cmark_gfm_core_extensions_ensure_registered()
        let extensions = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"].compactMap { (name: String) in
            name.withCString { cmark_find_syntax_extension($0) }
        }
        precondition(extensions.count == 5, "cmark-gfm lacks a core extension")
        var sum: UInt64 = 0
        for m in messages {
            guard let parser = cmark_parser_new(options) else { continue }
            defer { cmark_parser_free(parser) }
            for e in extensions { cmark_parser_attach_syntax_extension(parser, e) }
            m.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { c in cmark_parser_feed(parser, c.baseAddress, c.count) }
            }
            guard let document = cmark_parser_finish(parser) else { continue }
            defer { cmark_node_free(document) }
            guard let html = cmark_render_html(document, options, cmark_parser_get_syntax_extensions(parser)) else {
                continue
            }
            sum &+= UInt64(strlen(html))
            free(html)
        }
        return sum
    }
}
