import Foundation
import Testing

/// The package root, found from this file's path.
public let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The top-level `Fixtures/` folder.
public let fixturesRoot: URL = packageRoot.appendingPathComponent("Fixtures")

/// The bytes of `Fixtures/<path>`.
public func fixtureData(_ path: String) throws -> Data {
    try Data(contentsOf: fixturesRoot.appendingPathComponent(path))
}

/// The text of `Fixtures/<path>`.
public func fixtureText(_ path: String) throws -> String {
    String(decoding: try fixtureData(path), as: UTF8.self)
}

/// Compares `actual` with the golden file `Fixtures/<path>` and records an issue with a
/// line diff on a mismatch.
///
/// With `SPOILER_RECORD_FIXTURES=1` the file is (re)written instead and an issue is
/// recorded on purpose, so a recording run is never green: review `git diff -- Fixtures`
/// and commit the fixtures with the change that made them.
public func expectMatchesFixture(
    _ actual: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    let url = fixturesRoot.appendingPathComponent(path)
    let record = ProcessInfo.processInfo.environment["SPOILER_RECORD_FIXTURES"] == "1"
    let expected = try? String(contentsOf: url, encoding: .utf8)
    if record {
        if expected != actual {
            try? FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? actual.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("Recorded new fixture \(path); review it with git diff", sourceLocation: sourceLocation)
        }
        return
    }
    guard let expected else {
        Issue.record(
            "Missing fixture \(path); run with SPOILER_RECORD_FIXTURES=1 to record it", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        Issue.record(
            "Fixture \(path) differs:\n\(lineDiff(expected: expected, actual: actual))", sourceLocation: sourceLocation)
    }
}

/// A short line diff: `-` expected, `+` actual, for the lines that differ.
public func lineDiff(expected: String, actual: String, limit: Int = 40) -> String {
    let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
    var out: [String] = []
    for i in 0..<max(e.count, a.count) where out.count < limit {
        let l = i < e.count ? e[i] : nil
        let r = i < a.count ? a[i] : nil
        if l != r {
            if let l { out.append("\(i + 1)- \(l)") }
            if let r { out.append("\(i + 1)+ \(r)") }
        }
    }
    return out.joined(separator: "\n")
}
