import Foundation
import SpoilerCore
import Testing

/// Runs `body` on `count` inputs drawn by `generate` from a seeded ``SplitMix64``.
///
/// On failure the issue names the seed and the input. `SPOILER_PROPERTY_SEED=N` replays a
/// run with seed N.
public func forAll<T>(
    _ generate: (inout SplitMix64) -> T, count: Int = 200, seed: UInt64 = 1,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: (T) throws -> Bool
) rethrows {
    let env = ProcessInfo.processInfo.environment["SPOILER_PROPERTY_SEED"].flatMap(UInt64.init)
    var master = SplitMix64(seed: env ?? seed)
    for i in 0..<count {
        let caseSeed = master.next()
        var rng = SplitMix64(seed: caseSeed)
        let input = generate(&rng)
        if try !body(input) {
            Issue.record(
                "Property failed on case \(i) (run seed \(env ?? seed), case seed \(caseSeed)): \(String(reflecting: input))",
                sourceLocation: sourceLocation)
            return
        }
    }
}

/// Text pieces mixing scripts: Latin, Cyrillic, CJK, non-BMP emoji, ZWJ sequences,
/// flags, skin tones and combining marks.
public let mixedScriptPieces: [String] = [
    "a", "Z", "hello", " ", "  ", "\n", "ж", "Привет", "漢", "字", "日本語", "😀", "🎬",
    "👩‍👩‍👧", "🇺🇦", "👍🏽", "é", "e\u{301}", "a\u{308}\u{323}", "\t", "!", ".", "1",
]

/// A random string of `1...maxPieces` pieces from ``mixedScriptPieces``.
public func randomMixedText(_ rng: inout SplitMix64, maxPieces: Int = 12) -> String {
    let n = Int(rng.next() % UInt64(maxPieces)) + 1
    var s = ""
    for _ in 0..<n { s += mixedScriptPieces[Int(rng.next() % UInt64(mixedScriptPieces.count))] }
    return s
}
