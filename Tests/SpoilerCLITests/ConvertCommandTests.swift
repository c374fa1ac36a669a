import Foundation
import SpoilerTestSupport
import Testing

@Suite struct ConvertCommandTests {
    @Test func plainIsTheBareTextAndPlainMarkupReadsBack() throws {
        let input = #"a ||b \| c|| `x||y` \\ C:\dir"#
        let bare = try runSpoiler(["convert", "--to", "plain"], input: input + "\n")
        #expect(bare.status == 0)
        #expect(bare.out == #"a b | c x||y \ C:\dir"# + "\n")

        let markup = try runSpoiler(["convert", "--to", "plain-markup"], input: input + "\n")
        #expect(markup.status == 0)
        let once = try runSpoiler(["parse"], input: input)
        let twice = try runSpoiler(["parse"], input: markup.out)
        #expect(once.out == twice.out)
    }

    @Test func toJSONIsTheMessage() throws {
        let r = try runSpoiler(["convert", "--to", "json"], input: "hi ||there||")
        #expect(r.out == #"{"text":"hi there","entities":[{"type":"spoiler","offset":3,"length":5}]}"# + "\n")
    }

    @Test func ndjsonLinesCarryIdAndTheFormatsName() throws {
        let r = try runSpoiler(
            ["convert", "--ndjson", "--to", "plain-markup"], input: "\"a ||b||\"\n{\"id\":\"x\",\"text\":\"c|d\"}\n[]\n"
        )
        #expect(r.status == 1)
        expectMatchesFixture(r.out, "cli/convert-plain-markup.ndjson")
    }

    @Test func botAPIToPlainMarkup() throws {
        let r = try runSpoiler(
            ["convert", "--from", "botapi", "--to", "plain-markup"],
            input:
                #"{"text":"a|b secret","entities":[{"type":"spoiler","offset":4,"length":6},{"type":"bold","offset":0,"length":1}]}"#
        )
        #expect(r.out == #"a\|b ||secret||"# + "\n")
    }
}

@Suite struct ExportCommandTests {
    @Test func sampleExportOneLinePerMessage() throws {
        let r = try runSpoiler([
            "parse", "--from", "export", fixturesRoot.appendingPathComponent("export/telegram-export-result.json").path,
        ])
        #expect(r.status == 0)
        #expect(r.err == "")
        expectMatchesFixture(r.out, "cli/export-sample.parse.ndjson")
    }

    @Test func exportFromStdinWithAMessageThatFails() throws {
        let json =
            #"{"messages": [{"id": 1, "type": "message", "text": 5}, {"id": 2, "type": "message", "text": "ok"}]}"#
        let r = try runSpoiler(["parse", "--from", "export"], input: json)
        #expect(r.status == 1)
        #expect(
            r.out == #"{"id":1,"error":"message 1: 'text' must be a string or an array of parts","kind":"invalidJSON"}"#
                + "\n"
                + #"{"id":2,"text":"ok","entities":[]}"# + "\n")
        #expect(
            r.err == "error: <stdin>: message 1: 'text' must be a string or an array of parts\n"
                + "spoiler: 1 of 2 messages failed (first at message 1)\n")
    }

    @Test func exportSyntaxErrorStopsWithLineAndColumn() throws {
        let json = "{\"messages\": [{\"id\": 1, \"text\": \"ok\"},\n  {\"id\": 2 \"text\": \"x\"}]}"
        let r = try runSpoiler(["parse", "--from", "export"], input: json)
        #expect(r.status == 1)
        #expect(r.out == #"{"id":1,"text":"ok","entities":[]}"# + "\n")
        // The error points at the first byte of the token out of place, the `"` of "text".
        #expect(r.err.hasPrefix("error: <stdin>:2:12: invalid JSON: "))
    }

    @Test func accountExportCarriesTheChat() throws {
        let json = #"{"chats": {"list": [{"id": 77, "messages": [{"id": 1, "type": "message", "text": "hi"}]}]}}"#
        let r = try runSpoiler(["convert", "--from", "export", "--to", "plain"], input: json)
        #expect(r.out == #"{"chat":77,"id":1,"plain":"hi"}"# + "\n")
    }

    /// An 8 MB export goes through in bounded memory: the peak resident size of the
    /// process, sampled from /proc while it runs, stays far below the input's size.
    @Test func bigExportInBoundedMemory() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "spoiler-export-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(#"{"name": "big", "type": "personal_chat", "id": 1, "messages": ["#.utf8))
        let total = 24_000
        var chunk = Data()
        for i in 1...total {
            chunk.append(
                contentsOf: Array(
                    #"{"id": \#(i), "type": "message", "date": "2026-11-01T19:01:10", "from": "Ana", "text": ["message number \#(i) ", {"type": "spoiler", "text": "the butler did it"}, " ok"], "text_entities": [{"type": "plain", "text": "message number \#(i) "}, {"type": "spoiler", "text": "the butler did it"}, {"type": "plain", "text": " ok"}]}"#
                        .utf8))
            chunk.append(contentsOf: Array((i < total ? ",\n" : "]}\n").utf8))
            if chunk.count > 1 << 20 {
                try handle.write(contentsOf: chunk)
                chunk.removeAll(keepingCapacity: true)
            }
        }
        try handle.write(contentsOf: chunk)
        try handle.close()
        let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
        #expect(size > 7_500_000)

        let p = Process()
        p.executableURL = spoilerBinary()
        p.arguments = ["parse", "--from", "export", url.path]
        p.standardOutput = FileHandle.nullDevice
        p.environment = ["PATH": "/usr/bin:/bin"]
        try p.run()
        var peakKB = 0
        while p.isRunning {
            if let status = try? String(contentsOfFile: "/proc/\(p.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
            {
                peakKB = max(peakKB, kb)
            }
            usleep(20_000)
        }
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        #expect(peakKB > 0)
        // Reading it whole into a JSONValue takes over 50 MB; streaming stays near the
        // runtime's own baseline (about 12 MB).
        #expect(peakKB < 32 * 1024, "peak RSS \(peakKB) KB for a \(size / 1_000_000) MB export")
    }
}
