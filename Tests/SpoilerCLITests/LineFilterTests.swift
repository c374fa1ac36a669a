import Foundation
import SpoilerTestSupport
import Testing

/// The NDJSON commands as line filters under a cluster (Spark's `RDD.pipe`, GNU parallel,
/// Hadoop streaming, a coprocess): `--errors-as-records`, ids of unreadable lines, blank
/// lines, `--quiet` and the summary, `--line-buffered`.
@Suite struct LineFilterTests {
    static let commands: [[String]] = [
        ["parse"], ["convert", "--to", "html"], ["convert", "--from", "markdown", "--to", "html"], ["layout"],
    ]

    /// Five lines: good, unreadable, blank, a failing message with its own id, good.
    static let mixed = "\"a ||b||\"\nnot json\n\n{\"id\":0,\"text\":7}\n{\"id\":\"z\",\"text\":\"c\"}\n"

    @Test(arguments: commands)
    func errorsAsRecordsExitsZeroWhenEveryFailureIsARecord(_ command: [String]) throws {
        let plain = try runSpoiler(command + ["--ndjson"], input: Self.mixed)
        let records = try runSpoiler(command + ["--ndjson", "--errors-as-records"], input: Self.mixed)
        #expect(plain.status == 1)
        #expect(records.status == 0)
        #expect(records.out == plain.out)
        #expect(records.err == plain.err)
        for jobs in ["2", "1"] {
            let r = try runSpoiler(command + ["--ndjson", "--errors-as-records", "--jobs", jobs], input: Self.mixed)
            #expect(r.status == 0)
            #expect(r.out == plain.out)
        }
    }

    @Test func errorsAsRecordsStillFailsOnRealFailures() throws {
        let missing = try runSpoiler(["parse", "--ndjson", "--errors-as-records", "/nonexistent/in.ndjson"])
        #expect(missing.status == 1)
        #expect(missing.err.contains("/nonexistent/in.ndjson"))
        let unknown = try runSpoiler(["parse", "--ndjson", "--errors-as-records", "--nonsense"], input: "\"a\"\n")
        #expect(unknown.status == 2)
        let usage = try runSpoiler(["parse", "--errors-as-records"], input: "\"a\"\n")
        #expect(usage.status == 2)
        #expect(usage.err.hasPrefix("error: '--errors-as-records' applies to --ndjson and --from export\n"))
        let badExport = try runSpoiler(["parse", "--from", "export", "--errors-as-records"], input: "{\"messages\":[}")
        #expect(badExport.status == 1)
    }

    @Test func errorsAsRecordsStillFailsOnAFailedWrite() throws {
        // /dev/full as standard output: every write fails with ENOSPC.
        let p = Process()
        p.executableURL = spoilerBinary()
        p.arguments = ["parse", "--ndjson", "--errors-as-records"]
        let input = Pipe()
        let err = Pipe()
        p.standardInput = input
        p.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        p.standardError = err
        try p.run()
        try input.fileHandleForWriting.write(contentsOf: Data("\"a\"\nbad\n".utf8))
        try input.fileHandleForWriting.close()
        p.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 1)
        #expect(text.contains("<stdout> (/dev/full)"))
    }

    @Test(arguments: commands)
    func unreadableLinesHaveANullIdAndTheirLine(_ command: [String]) throws {
        let r = try runSpoiler(command + ["--ndjson"], input: Self.mixed)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix(#"{"id":1,"#))
        #expect(lines[1].hasPrefix(#"{"id":null,"line":2,"error":"#))
        #expect(lines[2] == #"{"id":null,"line":3,"error":"empty line","kind":"invalidJSON"}"#)
        #expect(lines[3].hasPrefix(#"{"id":0,"line":4,"error":"#))
        #expect(lines[4].hasPrefix(#"{"id":"z","#))
    }

    @Test(arguments: ["", "   ", "\t", "\r", " \r"])
    func aBlankLineGivesARecordInPlace(_ blank: String) throws {
        let input = "\"a\"\n\(blank)\n\"b\"\n"
        for command in Self.commands {
            for jobs in ["1", "2"] {
                let r = try runSpoiler(command + ["--ndjson", "--jobs", jobs], input: input)
                let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
                #expect(lines.count == 4, "\(command) \(jobs)")
                #expect(lines[1] == #"{"id":null,"line":2,"error":"empty line","kind":"invalidJSON"}"#)
                #expect(lines[2].hasPrefix(#"{"id":3,"#))
                #expect(r.status == 1)
            }
        }
    }

    @Test func outputLinesMatchInputLinesOneToOne() throws {
        var input = ""
        for i in 0..<3_000 {
            switch i % 5 {
            case 0: input += "\n"
            case 1: input += "{\"id\":\(i),\"text\":\"||s\(i)||\"}\n"
            case 2: input += "nope\n"
            default: input += "\"m \(i)\"\n"
            }
        }
        for jobs in ["1", "2"] {
            let r = try runSpoiler(
                ["parse", "--ndjson", "--quiet", "--errors-as-records", "--jobs", jobs], input: input)
            let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == 3_000)
            #expect(r.status == 0)
            for (i, line) in lines.enumerated() where i % 5 == 1 {
                #expect(line.hasPrefix("{\"id\":\(i),\"text\":\"s\(i)\""))
            }
        }
    }

    @Test func quietLeavesOnlyTheSummary() throws {
        for jobs in ["1", "2"] {
            let loud = try runSpoiler(["parse", "--ndjson", "--jobs", jobs], input: Self.mixed)
            let errors = loud.err.split(separator: "\n")
            #expect(errors.count == 4)
            #expect(errors.first?.hasPrefix("error: <stdin>:2:") == true)
            #expect(errors.dropFirst().first == "error: <stdin>:3: empty line")
            #expect(loud.err.hasSuffix("\nspoiler: 3 of 5 lines failed (first at line 2)\n"))
            let quiet = try runSpoiler(["parse", "--ndjson", "--quiet", "--jobs", jobs], input: Self.mixed)
            #expect(quiet.err == "spoiler: 3 of 5 lines failed (first at line 2)\n")
            #expect(quiet.out == loud.out)
            #expect(quiet.status == 1)
        }
        let good = try runSpoiler(["parse", "--ndjson"], input: "\"a\"\n\"b\"\n")
        #expect(good.err == "")
        let one = try runSpoiler(["layout", "--ndjson", "--quiet"], input: "x\n")
        #expect(one.err == "spoiler: 1 of 1 line failed (first at line 1)\n")
    }

    @Test func quietAndTheSummaryForAnExport() throws {
        let export =
            #"{"name":"C","type":"personal_chat","id":1,"messages":[{"id":5,"type":"message","text":"a"},{"id":6,"type":"message","text":[{"type":"nonsense","text":7}]}]}"#
        let r = try runSpoiler(["parse", "--from", "export", "--quiet", "--errors-as-records"], input: export)
        #expect(r.status == 0)
        #expect(r.err == "spoiler: 1 of 2 messages failed (first at message 2)\n")
        #expect(r.out.split(separator: "\n").count == 2)
    }

    /// The README's GNU parallel recipe: blocks of lines on two job slots, outputs in order,
    /// the same bytes as a plain run when every line has an id.
    @Test func gnuParallelKeepsOrderAndMatchesAPlainRun() throws {
        var input = ""
        for i in 0..<20_000 {
            input += i % 97 == 5 ? "{\"id\":\(i),\"text\":\"a\\u00\"}\n" : "{\"id\":\(i),\"text\":\"m ||\(i)|| `c`\"}\n"
        }
        let url = try temporaryFile("cluster.ndjson", Data(input.utf8))
        defer { removeTemporary(url) }
        let plain = try runSpoiler(["parse", "--ndjson", "--quiet", url.path])
        #expect(plain.status == 1)
        let parallel = try runProgram(
            URL(fileURLWithPath: "/usr/bin/parallel"),
            [
                "--pipepart", "-a", url.path, "--block", "-1", "--keep-order", spoilerBinary().path,
                "parse", "--ndjson", "--errors-as-records", "--quiet",
            ])
        #expect(parallel.status == 0, "\(parallel.err)")
        // Error records' "line" counts from the start of each block; nothing else differs.
        func strip(_ s: String) -> String {
            s.replacing(#/,"line":[0-9]+,"error"/#, with: #","error""#)
        }
        #expect(parallel.out.split(separator: "\n").count == 20_000)
        #expect(strip(parallel.out) == strip(plain.out))
        #expect(parallel.err.split(separator: "\n").count >= 2, "\(parallel.err)")  // one summary a block
    }

    @Test func helpListsTheLineFilterOptions() throws {
        for command in ["parse", "convert", "layout"] {
            let r = try runSpoiler([command, "--help"])
            for option in ["--errors-as-records", "--quiet", "--line-buffered"] {
                #expect(r.out.contains(option), "\(command) \(option)")
            }
        }
    }
}
