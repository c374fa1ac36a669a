import Foundation
import Testing

@testable import SpoilerLayout

/// The grapheme table recorded at build time against the one utf8proc gives at run time.
@Suite struct BMPInfoTableTests {
    /// With the utf8proc it was recorded from, the recorded table is the derived one; with
    /// another, the table is derived. `SPOILER_RECORD_BMP_TABLE=path` writes the literal's
    /// text for the utf8proc at hand to `path`, to paste into
    /// `GraphemeScanner+RecordedTable.swift` with that version.
    @Test func recordedTableIsTheDerivedTable() throws {
        let derived = GraphemeScanner.BMPInfo.derived()
        if let path = ProcessInfo.processInfo.environment["SPOILER_RECORD_BMP_TABLE"] {
            try GraphemeScanner.BMPInfo.runs(of: derived).write(toFile: path, atomically: true, encoding: .utf8)
        }
        let version = GraphemeScanner.BMPInfo.recordedVersion
        let recorded = try #require(GraphemeScanner.BMPInfo.recorded(utf8procVersion: version))
        #expect(GraphemeScanner.BMPInfo.recorded(utf8procVersion: version + "x") == nil)
        #expect(GraphemeScanner.BMPInfo.table == derived)
        if GraphemeScanner.BMPInfo.table == recorded {
            #expect(recorded == derived, "the recorded table is not utf8proc \(version)'s")
        }
    }
}
