import Foundation
import SpoilerTestSupport
import Testing

/// The chat platforms' formats through every command that takes `--from`, run as a user
/// runs `spoiler`; and the options of `--to preview`, spoiler reasons and their warnings.
@Suite struct PlatformCommandTests {
    static let matrix =
        #"{"msgtype":"m.text","body":"x","format":"org.matrix.custom.html","formatted_body":"the <span data-mx-spoiler=\"plot\">butler</span> did it"}"#
    static let signal = #"{"message":"the butler did it","textStyles":[{"style":"SPOILER","start":4,"length":6}]}"#
    /// The same message in each format that reads it.
    static let inputs: [(format: String, text: String)] = [
        ("matrix", matrix), ("discord", "the ||butler|| did it"), ("reddit", "the >!butler!< did it"),
        ("signal", signal),
    ]
    static let parsed = #"{"text":"the butler did it","entities":[{"type":"spoiler","offset":4,"length":6}]}"#

    @Test(arguments: inputs) func parseReadsEachFormat(_ input: (format: String, text: String)) throws {
        let r = try runSpoiler(["parse", "--from", input.format], input: input.text + "\n")
        #expect(r.status == 0)
        #expect(r.err == "")
        let expected =
            input.format == "matrix"
            ? Self.parsed.replacingOccurrences(of: "6}", with: #"6,"reason":"plot"}"#) : Self.parsed
        #expect(r.out == expected + "\n")
    }

    @Test(arguments: inputs) func convertReadsEachFormat(_ input: (format: String, text: String)) throws {
        let r = try runSpoiler(["convert", "--from", input.format, "--to", "plain-markup"], input: input.text)
        #expect(r.status == 0)
        #expect(r.out == "the ||butler|| did it\n")
    }

    @Test(arguments: inputs) func layoutReadsEachFormat(_ input: (format: String, text: String)) throws {
        let r = try runSpoiler(["layout", "--from", input.format, "--redact"], input: input.text)
        #expect(r.status == 0)
        #expect(r.out.contains(#""offset":4,"length":6"#))
        #expect(!r.out.contains("butler"))
    }

    @Test(arguments: inputs) func renderReadsEachFormat(_ input: (format: String, text: String)) throws {
        let r = try runSpoiler(
            ["render", "--from", input.format, "--format", "ansi", "--color", "never"], input: input.text)
        #expect(r.status == 0)
        #expect(r.out.contains("the"))
        #expect(r.out.contains("did it"))
        #expect(!r.out.contains("butler"))
    }

    @Test(arguments: inputs) func playAndReadShowEachFormatHidden(_ input: (format: String, text: String)) throws {
        for command in ["play", "read"] {
            let r = try runSpoiler([command, "--from", input.format, "--glyphs", "ascii"], input: input.text)
            #expect(r.status == 0, "\(command)")
            #expect(r.out.contains("the "), "\(command)")
            #expect(r.out.contains(" did it"), "\(command)")
            #expect(!r.out.contains("butler"), "\(command): \(r.out)")
        }
    }

    @Test func everyCommandTakesSpoilerReasons() throws {
        for args in [["parse"], ["layout"], ["convert", "--to", "json"]] {
            let r = try runSpoiler(args + ["--spoiler-reasons"], input: "the ||plot|butler|| did it")
            #expect(r.status == 0, "\(args)")
            #expect(r.out.contains(#""reason":"plot""#) || args == ["layout"], "\(args): \(r.out)")
            #expect(r.out.contains(#""offset":4,"length":6"#), "\(args): \(r.out)")
        }
        for command in ["play", "read"] {
            let r = try runSpoiler(
                [command, "--spoiler-reasons", "--glyphs", "ascii"], input: "the ||plot|butler|| did it")
            #expect(r.status == 0)
            #expect(!r.out.contains("plot") && !r.out.contains("butler"), "\(command): \(r.out)")
        }
        let render = try runSpoiler(
            ["render", "--spoiler-reasons", "--format", "ansi", "--color", "never"], input: "the ||plot|butler|| did it"
        )
        #expect(render.status == 0)
        #expect(!render.out.contains("plot|"))
        let without = try runSpoiler(["parse", "--from", "discord"], input: "||plot|butler||")
        #expect(without.out.contains(#""text":"plot|butler""#))
    }

    @Test func previewMaskAndMax() throws {
        let fixed = try runSpoiler(["convert", "--to", "preview"], input: "the ||butler|| did it")
        #expect(fixed.out == "the ▒▒▒▒ did it\n")
        let length = try runSpoiler(["convert", "--to", "preview", "--mask", "length"], input: "the ||butler|| did it")
        #expect(length.out == "the ▒▒▒▒▒▒ did it\n")
        let cut = try runSpoiler(["convert", "--to", "preview", "--max", "6"], input: "the ||butler|| did it")
        #expect(cut.out == "the ▒…\n")
        let slack = try runSpoiler(["convert", "--to", "slack", "--mask", "length"], input: "a ||bc||")
        #expect(slack.out == "a ▒▒\n")
        let wrong = try runSpoiler(["convert", "--to", "html", "--mask", "length"], input: "a")
        #expect(wrong.status == 2)
        #expect(wrong.err.hasPrefix("error: '--mask' applies to --to preview and --to slack\n"))
        let zero = try runSpoiler(["convert", "--to", "preview", "--max", "0"], input: "a")
        #expect(zero.status == 2)
        let bad = try runSpoiler(["convert", "--to", "preview", "--mask", "blur"], input: "a")
        #expect(bad.err.hasPrefix("error: unknown value 'blur' for '--mask' (expected one of: fixed, length)\n"))
    }

    @Test func droppedReasonIsAWarningOnStderrOrInTheRecord() throws {
        let whole = try runSpoiler(["convert", "--from", "matrix", "--to", "reddit"], input: Self.matrix)
        #expect(whole.status == 0)
        #expect(whole.out == "the >!butler!< did it\n")
        #expect(whole.err == "warning: <stdin>: entity 0 (spoiler): reason \"plot\" dropped: reddit cannot carry it\n")
        let kept = try runSpoiler(["convert", "--from", "matrix", "--to", "discord"], input: Self.matrix)
        #expect(kept.out == "the (plot) ||butler|| did it\n")
        #expect(kept.err == "")

        let lines =
            Self.matrix.replacingOccurrences(of: #"{"msgtype""#, with: #"{"id":9,"msgtype""#) + "\n"
            + #"{"body":"no reasons"}"# + "\n"
        let ndjson = try runSpoiler(["convert", "--ndjson", "--from", "matrix", "--to", "preview"], input: lines)
        #expect(ndjson.status == 0)
        #expect(ndjson.err == "")
        #expect(
            ndjson.out
                == #"{"id":9,"preview":"the ▒▒▒▒ did it","warnings":["entity 0 (spoiler): reason \"plot\" dropped: preview cannot carry it"]}"#
                + "\n" + #"{"id":2,"preview":"no reasons"}"# + "\n")
    }

    @Test func ndjsonObjectLinesAreMatrixContentAndSignalMessages() throws {
        let matrixLines =
            [
                #"{"id":"a","msgtype":"m.text","body":"x","format":"org.matrix.custom.html","formatted_body":"<b>hi</b> <span data-mx-spoiler>you</span>"}"#,
                #"{"msgtype":"m.text","body":5}"#,
                #"{"msgtype":"m.text","body":"plain"}"#,
                #"{"msgtype":"m.text","body":"#,
            ].joined(separator: "\n") + "\n"
        let m = try runSpoiler(["parse", "--ndjson", "--from", "matrix"], input: matrixLines)
        #expect(m.status == 1)
        let out = m.out.split(separator: "\n").map(String.init)
        #expect(out.count == 4)
        #expect(
            out[0]
                == #"{"id":"a","text":"hi you","entities":[{"type":"bold","offset":0,"length":2},{"type":"spoiler","offset":3,"length":3}]}"#
        )
        #expect(
            out[1] == #"{"id":null,"line":2,"error":"Matrix content: 'body' must be a string","kind":"invalidJSON"}"#)
        #expect(out[2] == #"{"id":3,"text":"plain","entities":[]}"#)
        #expect(out[3].hasPrefix(#"{"id":null,"line":4,"error":"#))
        #expect(out[3].contains(#""offset":"#), "a syntax error gives its position: \(out[3])")
        #expect(m.err.contains("error: <stdin>:2: Matrix content: 'body' must be a string\n"))

        let signalLines = [
            #"{"id":1,"message":"a secret","textStyles":[{"style":"SPOILER","start":2,"length":6}]}"#,
            #"{"envelope":{"dataMessage":{"message":"b","textStyles":[{"style":"BOLD","start":0,"length":3}]}}}"#,
        ].joined(separator: "\n")
        let s = try runSpoiler(["parse", "--ndjson", "--from", "signal"], input: signalLines)
        #expect(s.status == 1)
        let sOut = s.out.split(separator: "\n").map(String.init)
        #expect(sOut.count == 2)
        #expect(sOut[0] == #"{"id":1,"text":"a secret","entities":[{"type":"spoiler","offset":2,"length":6}]}"#)
        #expect(sOut[1].hasPrefix(#"{"id":null,"line":2,"error":"textStyles[0] (BOLD): "#), "\(sOut[1])")
        // A JSON string line is still a message written in the format.
        let str = try runSpoiler(["parse", "--ndjson", "--from", "discord"], input: #""a ||b||""#)
        #expect(str.out == #"{"id":1,"text":"a b","entities":[{"type":"spoiler","offset":2,"length":1}]}"# + "\n")
    }
}
