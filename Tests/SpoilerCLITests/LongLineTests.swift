import Foundation
import SpoilerCore
import SpoilerTestSupport
@testable import spoiler
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
            // Every fifth cycle (with the `||a`s balanced before it), a spoiler with a reason.
            case 0 where i % 60 == 0: s += "||why|the end|| \u{2028}\u{85}\u{202E} "
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

    @Test(arguments: [
        ["parse"], ["layout"], ["layout", "--width", "30", "--redact"], ["convert", "--to", "json"],
    ])
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

    /// A long line converted to a format written a piece at a time: the record holds the
    /// whole input's conversion, escaped, and its warnings (a spoiler's reason dropped).
    @Test(arguments: ["html", "markdownv2"])
    func aLongLineConvertedIsTheWholeInputsConversion(_ format: String) throws {
        let textFile = try temporaryFile("long.txt", Data(Self.text.utf8))
        let linesFile = try temporaryFile("long.ndjson", Data(try Self.input().utf8))
        defer {
            removeTemporary(textFile)
            removeTemporary(linesFile)
        }
        let command = ["convert", "--to", format, "--spoiler-reasons"]
        let whole = try runSpoiler(command + [textFile.path])
        #expect(whole.status == 0)
        let one = try runSpoiler(command + ["--ndjson", linesFile.path])
        let two = try runSpoiler(command + ["--ndjson", "--jobs", "2", linesFile.path])
        #expect(one.status == 1 && two.status == 1)
        #expect(same(one.stdout, two.stdout) && one.stderr == two.stderr)
        let lines = one.stdout.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 5)
        guard lines.count == 5 else { return }
        let warnings = whole.err.split(separator: "\n").map {
            String($0.dropFirst("warning: \(textFile.path): ".count))
        }
        #expect(warnings.count > 100)
        // The record a whole conversion gives, byte for byte (escapes included).
        var w = JSONWriter()
        w.object { w in
            w.key("id"); w.raw(Array("0".utf8))
            w.key(format); w.string(String(decoding: whole.stdout.dropLast(), as: UTF8.self))
            w.key("warnings")
            w.array { w in for warning in warnings { w.string(warning) } }
        }
        let expected = w.bytes.dropFirst(#"{"id":0"#.count)
        #expect(same(lines[1], Array(#"{"id":"long""#.utf8) + expected))
        #expect(same(lines[3], Array(#"{"id":4"#.utf8) + expected))
    }
}

/// A converted record's escaping does not depend on where the serializer cuts its pieces,
/// even inside a scalar (U+2028 and U+0085, which are escaped, cut after each byte).
@Suite struct StreamedRecordTests {
    @Test func piecesCutInsideScalarsAreEscapedAsOne() {
        let message = Message(text: "a\u{2028}b\u{85}c é 😀 \"q\"")
        func record(cutEvery n: Int) -> [UInt8] {
            var out: [UInt8] = []
            ConvertCommand.writeRecord(
                message, id: Array("7".utf8), to: .plain,
                stream: { m, write in
                    let bytes = Array(m.text.utf8)
                    for start in stride(from: 0, to: bytes.count, by: n) {
                        write(Array(bytes[start..<min(bytes.count, start + n)]))
                    }
                }, { out += $0 })
            return out
        }
        let whole = record(cutEvery: 1000)
        #expect(String(decoding: whole, as: UTF8.self) == #"{"id":7,"plain":"a\u2028b\u0085c é 😀 \"q\""}"#)
        for n in 1...5 { #expect(record(cutEvery: n) == whole, "pieces of \(n)") }
    }
}
