import SpoilerCore
import SpoilerParser

/// The chat platforms both ways (issue 13): chat messages (``PlatformCorpus``: spoilers with
/// and without reasons, bold, italic, strikethrough, underline, code, links, quotes and code
/// blocks) written as Matrix content, Discord, Reddit and Signal JSON, then parsed back,
/// against libcmark-gfm parsing the same bytes and rendering them to HTML in the same run.
///
/// Keys: `parse_<format>_vs_cmark` (our parse throughput ÷ cmark-gfm's on the same bytes;
/// target ≥ 2, as for MarkdownV2) and `write_<format>_vs_cmark` (writing the messages, in
/// throughput of the written bytes, ÷ cmark-gfm's), timed in alternation in thread CPU time,
/// which other programs on a shared machine do not count.
enum PlatformStage {
    static let stage = BenchStage(
        name: "platforms", summary: "Matrix, Discord, Reddit, Signal both ways vs cmark-gfm parse + HTML", run: run)

    static let messageCount = 20_000

    static func run(_ bench: inout BenchRun) {
        let messages = PlatformCorpus.messages(count: max(1, Int(Double(messageCount) * bench.scale)))
        let formats: [(InputFormat, OutputFormat)] = [
            (.matrix, .matrix), (.discord, .discord), (.reddit, .reddit), (.signal, .signal),
        ]
        for (input, output) in formats {
            let written = messages.map { Array(MessageSerializer.serialize($0, to: output).utf8) }
            let bytes = Double(written.reduce(0) { $0 + $1.count })
            let parse = MarkdownStage.cpuPair(
                &bench, { ParseStage.parseAll(written, from: input) }, { ParseStage.cmarkAll(written) })
            bench.report("\(input.rawValue) parse (\(ParseStage.mb(bytes)) MB)", bytes / parse.a / 1e6, unit: "MB/s")
            bench.report(
                "\(input.rawValue) parse ÷ cmark-gfm throughput", 1 / parse.ratio, unit: "×",
                key: "parse_\(input.rawValue)_vs_cmark", note: "target ≥ 2")
            let write = MarkdownStage.cpuPair(
                &bench, { writeAll(messages, to: output) }, { ParseStage.cmarkAll(written) })
            bench.report(
                "\(output.rawValue) write ÷ cmark-gfm throughput", 1 / write.ratio, unit: "×",
                key: "write_\(output.rawValue)_vs_cmark")
        }
    }

    static func writeAll(_ messages: [Message], to format: OutputFormat) -> UInt64 {
        var sum: UInt64 = 0
        for m in messages { sum &+= UInt64(MessageSerializer.serialize(m, to: format).utf8.count) }
        return sum
    }
}
