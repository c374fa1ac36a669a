import Foundation
import SpoilerTestSupport
import Testing

/// Whether two outputs are the same bytes; kept out of `#expect` so that a failure does
/// not print megabytes of both.
private func same(_ a: Data, _ b: Data) -> Bool { a == b }

/// `--jobs N` with `--ndjson`: the same bytes, error lines and exit status as one job.
@Suite struct JobsTests {
    /// About 2.8 MB of NDJSON (more than one 2 MB batch), one line in seven bad in some way,
    /// with ids, blank lines, CRLF endings, long lines and a last line without a newline.
    static let input: Data = {
        var s = ""
        for i in 0..<24_000 {
            switch i % 14 {
            case 0: s += #"{"id":"m\#(i)","text":"a ||b|| `c` \#(i)"}"# + "\n"
            case 1: s += "not json \(i)\n"
            case 2: s += "\n"
            case 3: s += #"{"id":\#(i),"text":"a","entities":[{"type":"bold","offset":0,"length":5}]}"# + "\n"
            case 4: s += "  \r\n"
            case 5: s += #""héllo ||\#(String(repeating: "x", count: i % 2000))|| 😀""# + "\r\n"
            case 6: s += #"{"id":[1],"text":"bad id"}"# + "\n"
            case 7: s += #""unclosed \u00""# + "\n"
            case 8: s += #"{"text":"<b>bold</b> ||s||","id":"h\#(i)"}"# + "\n"
            default: s += #""line \#(i): ||secret \#(i)|| and `code` \\| end, a bit longer to wrap""# + "\n"
            }
        }
        s += #""the last line ||has no newline||""#
        return Data(s.utf8)
    }()

    static let commands: [[String]] = [
        ["parse"], ["convert", "--to", "html"], ["convert", "--to", "plain-markup"], ["layout", "--width", "12"],
    ]

    @Test(arguments: commands)
    func twoJobsMatchOneJob(_ command: [String]) throws {
        let url = try temporaryFile("many.ndjson", Self.input)
        defer { removeTemporary(url) }
        let one = try runSpoiler(command + ["--ndjson", url.path])
        let two = try runSpoiler(command + ["--ndjson", "--jobs", "2", url.path])
        #expect(one.status == 1)
        #expect(two.status == one.status)
        #expect(same(two.stdout, one.stdout), "stdout differs")
        #expect(same(two.stderr, one.stderr), "stderr differs")
        // The run really had error records and ids to keep in order.
        let lines = one.out.split(separator: "\n")
        #expect(lines.count > 20_000)
        // Blank lines (2, and 4 of spaces) give error records in place too.
        let bad = (0..<24_000).filter { [1, 2, 3, 4, 6, 7].contains($0 % 14) }.count
        #expect(lines.count == 24_001)
        #expect(lines.filter { $0.contains(#""error":"#) }.count == bad)
        #expect(one.err.split(separator: "\n").count == bad + 1)
        #expect(one.err.hasSuffix("spoiler: \(bad) of 24001 lines failed (first at line 2)\n"))
        #expect(Self.input.count > 2 << 20)
        #expect(lines.first?.hasPrefix(#"{"id":"m0""#) == true)
        #expect(lines.last?.hasPrefix(#"{"id":24001"#) == true)
    }

    @Test(arguments: commands)
    func manyJobsFromStandardInputMatchOneJob(_ command: [String]) throws {
        let one = try runSpoiler(command + ["--ndjson"], stdin: Self.input)
        let many = try runSpoiler(command + ["--ndjson", "--jobs=5"], stdin: Self.input)
        #expect(one.status == 1)
        #expect(many.status == one.status)
        #expect(same(many.stdout, one.stdout), "stdout differs")
        #expect(same(many.stderr, one.stderr), "stderr differs")
    }

    @Test func zeroAndAutoMeanOnePerCore() throws {
        let input = "\"a ||b||\"\n{\"id\":9,\"text\":\"c\"}\n"
        let expected = try runSpoiler(["parse", "--ndjson"], input: input)
        #expect(expected.status == 0)
        for value in ["0", "auto"] {
            let r = try runSpoiler(["parse", "--ndjson", "--jobs", value], input: input)
            #expect(r.status == 0)
            #expect(r.out == expected.out)
        }
    }

    @Test func aGoodRunStillExitsZero() throws {
        let input = String(repeating: "\"x ||y||\"\n", count: 5_000)
        let r = try runSpoiler(["parse", "--ndjson", "--jobs", "2"], input: input)
        #expect(r.status == 0)
        #expect(r.err == "")
        #expect(r.out.split(separator: "\n").count == 5_000)
    }

    @Test(arguments: ["x", "-1", "1025", "", "2.5", "1e2"])
    func badValuesAreUsageErrors(_ value: String) throws {
        for command in [["parse"], ["convert", "--to", "html"], ["layout"]] {
            let r = try runSpoiler(command + ["--ndjson", "--jobs", value], input: "\"a\"\n")
            #expect(r.status == 2)
            #expect(r.out == "")
            #expect(r.err.hasPrefix("error: '--jobs' needs a whole number from 0 to 1024, or 'auto', got '\(value)'"))
        }
    }

    @Test func helpListsJobs() throws {
        for command in ["parse", "convert", "layout"] {
            let r = try runSpoiler([command, "--help"])
            #expect(r.out.contains("--jobs N"))
        }
    }
}

/// `--jobs N` with `--from export`: the same output as one job.
@Suite struct JobsExportTests {
    /// A Telegram Desktop export of one chat with thousands of messages, some of them bad.
    static let export: Data = {
        var s = #"{"name":"Chat","type":"personal_chat","id":42,"messages":["#
        for i in 0..<6_000 {
            if i > 0 { s += "," }
            switch i % 9 {
            case 0:
                s += #"{"id":\#(i),"type":"message","text":[{"type":"spoiler","text":"hidden \#(i)"}," and more"]}"#
            case 1:
                s += #"{"id":\#(i),"type":"message","text":[{"type":"nonsense_part","text":7}]}"#
            case 2:
                s += #"{"id":\#(i),"type":"service","action":"pin_message","text":""}"#
            default:
                s += #"{"id":\#(i),"type":"message","text":"plain message number \#(i) with some words"}"#
            }
        }
        s += "]}"
        return Data(s.utf8)
    }()

    @Test(arguments: [["parse"], ["convert", "--to", "html"], ["layout", "--width", "10"]])
    func twoJobsMatchOneJob(_ command: [String]) throws {
        let one = try runSpoiler(command + ["--from", "export"], stdin: Self.export)
        let two = try runSpoiler(command + ["--from", "export", "--jobs", "2"], stdin: Self.export)
        #expect(one.out.split(separator: "\n").count > 5_000)
        #expect(one.status == 1)
        let bad = (0..<6_000).filter { $0 % 9 == 1 }.count
        #expect(one.err.split(separator: "\n").count == bad + 1)
        #expect(one.err.hasSuffix(" of \(one.out.split(separator: "\n").count) messages failed (first at message 2)\n"))
        #expect(one.err.contains("spoiler: \(bad) of "))
        #expect(two.status == one.status)
        #expect(same(two.stdout, one.stdout), "stdout differs")
        #expect(same(two.stderr, one.stderr), "stderr differs")
    }

    @Test func aSyntaxErrorStillComesAfterTheMessagesBeforeIt() throws {
        var broken = Self.export
        broken.removeLast(40)
        broken.append(Data(#"}}}}"#.utf8))
        let one = try runSpoiler(["parse", "--from", "export"], stdin: broken)
        let two = try runSpoiler(["parse", "--from", "export", "--jobs", "2"], stdin: broken)
        #expect(one.status == 1)
        #expect(one.err.contains("error: <stdin>:"))
        #expect(two.status == one.status)
        #expect(same(two.stdout, one.stdout), "stdout differs")
        #expect(same(two.stderr, one.stderr), "stderr differs")
    }
}
