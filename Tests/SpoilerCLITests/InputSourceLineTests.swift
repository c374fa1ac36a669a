import Foundation
@testable import spoiler
import Testing

/// `InputSource.forEachLine` hands out each line as a pointer into its read buffer, or into
/// the bytes it carried over from the read before: the lines must be those that
/// `LineBatchReader` cuts (which `--jobs` above 1 reads), with their numbers, whatever
/// read they fall in.
@Suite struct InputSourceLineTests {
    /// The lines and numbers `forEachLine` gives for `data`.
    static func forEachLine(_ data: [UInt8]) throws -> [([UInt8], Int)] {
        let url = try temporaryFile("lines.ndjson", Data(data))
        defer { removeTemporary(url) }
        let input = try InputSource(path: url.path)
        var lines: [([UInt8], Int)] = []
        try input.forEachLine { line, number in lines.append((Array(line), number)) }
        return lines
    }

    /// The lines `LineBatchReader` cuts from `data`, numbered from 1.
    static func batchedLines(_ data: [UInt8]) throws -> [([UInt8], Int)] {
        let url = try temporaryFile("lines.ndjson", Data(data))
        defer { removeTemporary(url) }
        var reader = LineBatchReader(input: try InputSource(path: url.path), targetBytes: 1 << 16)
        var lines: [([UInt8], Int)] = []
        while let batch = try reader.next() {
            for (i, range) in batch.lines.enumerated() {
                lines.append((Array(batch.bytes[range]), batch.firstNumber + i))
            }
        }
        return lines
    }

    @Test func shortLinesKeepTheirCarriageReturnsAndBlankLines() throws {
        let lines = try Self.forEachLine(Array("a\r\n\n b \nlast".utf8))
        #expect(lines.map { String(decoding: $0.0, as: UTF8.self) } == ["a\r", "", " b ", "last"])
        #expect(lines.map(\.1) == [1, 2, 3, 4])
    }

    @Test func anEmptyInputHasNoLines() throws {
        #expect(try Self.forEachLine([]).isEmpty)
        #expect(try Self.forEachLine(Array("\n".utf8)).map(\.0) == [[]])
    }

    /// Lines of every length around the 64 KiB read, some spanning two reads or more,
    /// some ending exactly at a read's end.
    @Test(arguments: [false, true])
    func linesAcrossReadsAreWhole(endsWithNewline: Bool) throws {
        var data: [UInt8] = []
        var state: UInt64 = 7
        for k in 0..<300 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length =
                switch k % 5 {
                case 0: Int(state >> 40) % 200_000
                case 1: (1 << 16) - data.count % (1 << 16) - 1  // its newline ends a read
                case 2: 0
                default: Int(state >> 50) % 3000
                }
            data += (0..<length).map { UInt8(ascii: "a") + UInt8(($0 + k) % 26) }
            data.append(UInt8(ascii: "\n"))
        }
        if !endsWithNewline { data += Array("no newline".utf8) }
        let lines = try Self.forEachLine(data)
        let batched = try Self.batchedLines(data)
        #expect(lines.count == (endsWithNewline ? 300 : 301))
        #expect(lines.count == batched.count)
        #expect(zip(lines, batched).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
        var joined: [UInt8] = []
        for (line, _) in lines { joined += line + [UInt8(ascii: "\n")] }
        #expect(joined == data + (endsWithNewline ? [] : [UInt8(ascii: "\n")]))
    }
}
