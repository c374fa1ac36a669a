import Foundation
import SpoilerTestSupport
import Testing

/// Whether two outputs are the same bytes; kept out of `#expect` so that a failure does
/// not print megabytes of both.
private func same(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool { a.elementsEqual(b) }

/// An NDJSON line of over a megabyte has its output written a piece at a time (its
/// output can be twenty times the line), and it is the same record as a short line's:
/// the message's whole-input output with the line's id first, in input order, with error
/// records in place and the same bytes at one job and two.
@Suite struct LongLineTests {
    /// About 1.1 MB of text: spoilers, code, wide and combining characters, line breaks,
    /// quotes and backslashes (escaped in the JSON line).
    static let text: String = {
        var s = ""
        var i = 0
        while s.utf8.count < 1_100_000 {
            switch i % 6 {
            case 0: s += "word\(i) ||hidden \(i)|| "
            case 1: s += "`code \"q\" \\\\ \(i)` "
            case 2: s += "中文 😀 e\u{301} "
            case 3: s += "\n"
            case 4: s += "||a "
            default: s += "plain words that wrap \(i) "
            }
            i += 1
        }
        return s
    }()

    /// `text` as a JSON string.
    static func quoted(_ s: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: s, options: .fragmentsAllowed), as: UTF8.self)
    }

    /// Lines: short, long with an id, long failing (an entity past the text), long
    /// without an id, short.
    static func input() throws -> String {
        let q = try quoted(text)
        return [
            #""short ||one||""#,
            #"{"id":"long","text":\#(q)}"#,
            #"{"id":3,"text":\#(q),"entities":[{"type":"bold","offset":0,"length":99999999}]}"#,
            q,
            #"{"id":5,"text":"last"}"#,
        ].joined(separator: "\n") + "\n"
    }

    @Test(arguments: [["parse"], ["layout"], ["layout", "--width", "30", "--redact"]])
    func aLongLineIsTheWholeInputsRecordWithItsID(_ command: [String]) throws {
        let textFile = try temporaryFile("long.txt", Data(Self.text.utf8))
        let linesFile = try temporaryFile("long.ndjson", Data(try Self.input().utf8))
        defer {
            removeTemporary(textFile)
            removeTemporary(linesFile)
        }
        let whole = try runSpoiler(command + [textFile.path])
        #expect(whole.status == 0)
        let one = try runSpoiler(command + ["--ndjson", linesFile.path])
        let two = try runSpoiler(command + ["--ndjson", "--jobs", "2", linesFile.path])
        #expect(one.status == 1)
        #expect(same(one.stdout, two.stdout) && one.stderr == two.stderr && two.status == 1)
        let lines = one.stdout.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(lines.count == 6 && lines[5].isEmpty)
        guard lines.count == 6 else { return }
        // The whole input's object, with the id put first.
        let body = whole.stdout.dropFirst().dropLast()  // without "{" and the newline
        #expect(whole.stdout.count > 1_000_000)
        #expect(same(lines[1], Data(#"{"id":"long","#.utf8) + body))
        #expect(same(lines[3], Data(#"{"id":4,"#.utf8) + body))
        #expect(String(decoding: lines[0], as: UTF8.self).hasPrefix(#"{"id":1,"#))
        #expect(String(decoding: lines[4], as: UTF8.self).hasPrefix(#"{"id":5,"#))
        let failed = String(decoding: lines[2], as: UTF8.self)
        #expect(failed.hasPrefix(#"{"id":3,"line":3,"error":"entity 0 (bold): offset 0 + length 99999999"#))
        #expect(one.err.contains("long.ndjson:3: entity 0 (bold)"))
        #expect(one.err.hasSuffix("spoiler: 1 of 5 lines failed (first at line 3)\n"))
    }
}
