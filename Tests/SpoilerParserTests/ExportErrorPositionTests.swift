import SpoilerCore
import SpoilerParser
import Testing

/// Where an export's JSON error is placed: on the offending byte, or on the first byte of
/// the token out of place, whichever way the export is cut into reads.
@Suite struct ExportErrorPositionTests {
    /// One malformed export. `^` marks the byte the error must point at (and is removed);
    /// `¤` stands for the byte 0xC3 (a UTF-8 lead byte) and `¥` for 0xFF (never UTF-8).
    struct Case: CustomTestStringConvertible, Sendable {
        var source: String
        var testDescription: String { source }
        var bytes: [UInt8] {
            var out: [UInt8] = []
            for scalar in source.unicodeScalars where scalar != "^" {
                switch scalar {
                case "¤": out.append(0xC3)
                case "¥": out.append(0xFF)
                default: out += Array(String(scalar).utf8)
                }
            }
            return out
        }
        var bad: Int {
            var n = 0
            for scalar in source.unicodeScalars {
                if scalar == "^" { return n }
                n += scalar == "¤" || scalar == "¥" ? 1 : String(scalar).utf8.count
            }
            return n
        }
    }

    static let cases: [Case] = [
        // Lexical errors: the offending byte.
        #"{"messages": [{"text": "a^\#u{1}"}]}"#,
        #"{"messages": [{"text": "ab\^q"}]}"#,
        #"{"messages": [{"text": "\u12^x4"}]}"#,
        #"{"messages": [{"id": ^x}]}"#,
        #"{"messages": [{"id": tru^x}]}"#,
        #"{"messages": [{"id": -^x}]}"#,
        #"{"messages": [{"id": 1.^x}]}"#,
        #"{"messages": [{"id": 1e^x}]}"#,
        #"{"messages": [{"text": "a^¤A"}]}"#,
        #"{"messages": [{"text": "a^¥"}]}"#,
        "{\"messages\": [{\"text\": \"é^¤\n\"}]}",
        #"{"messages": [^/* no comments */]}"#,
        // Grammar errors: the first byte of the token out of place.
        #"{"messages": [{"id": [1 ^2]}]}"#,
        #"{"messages": [{"id": [1 ^"abc"]}]}"#,
        #"{"messages": [{"id" ^1}]}"#,
        #"{"messages": [{"id": 1 ^"text"}]}"#,
        #"{"messages": [{"id": 1   ^22}]}"#,
        #"{"messages": [{^1: 2}]}"#,
        #"{"messages": [{"id": [1, ^, 2]}]}"#,
        #"{"messages": [{"id": [1^: 2]}]}"#,
        #"{"messages": [{"id":^: 1}]}"#,
        #"{"messages": [{"id": 1,^}]}"#,
        #"{"messages": [{"id": 1}, ^]}"#,
        #"{"messages": [{^,}]}"#,
        #"{"messages": [^,]}"#,
        #"{"messages": [{"id": "a long string"   ^"another long string"}]}"#,
        "{\"messages\": [{\"id\": 1}]}\n\n  ^x",
        "{\"messages\": [{\"id\": 1}]}\n\n  ^12",
        "{\"name\":\n\n\t^}",
        // Stopped by the reader itself: the `[` or `{` it refused.
        "^[1, 2]",
    ].map(Case.init(source:))

    @Test(arguments: cases)
    func errorIsOnTheOffendingByte(_ c: Case) throws {
        let bytes = c.bytes
        let expected = TextPosition(utf8Offset: c.bad, in: bytes)
        for cut in 0...bytes.count {
            let reader = ExportReader()
            var items: [ExportItem] = []
            do {
                try reader.feed(Array(bytes[..<cut]), into: &items)
                try reader.feed(Array(bytes[cut...]), into: &items)
                try reader.finish(into: &items)
                Issue.record("accepted \(c.source)")
                return
            } catch {
                #expect(error.position == expected, "cut at \(cut): \(error.reason)")
                #expect(
                    error.reason.hasPrefix("invalid JSON: ")
                        || error.reason == "Invalid UTF-8 at byte offset \(c.bad)", "\(error.reason)")
            }
        }
    }

    /// Fed one byte at a time, every token straddles a read.
    @Test(arguments: cases)
    func errorIsOnTheOffendingByteFedByteByByte(_ c: Case) throws {
        let bytes = c.bytes
        let reader = ExportReader()
        var items: [ExportItem] = []
        do {
            for b in bytes { try reader.feed([b], into: &items) }
            try reader.finish(into: &items)
            Issue.record("accepted \(c.source)")
        } catch {
            #expect(error.position == TextPosition(utf8Offset: c.bad, in: bytes), "\(error.reason)")
        }
    }
}
