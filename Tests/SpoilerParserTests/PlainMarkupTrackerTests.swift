import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// A text cut where ``PlainMarkupTracker`` allows it, each part parsed on its own between
/// the markers of what is open at the cut, hides and shows what the whole text's parse
/// does: the same text, the same spoilers and code over it.
@Suite struct PlainMarkupTrackerTests {
    /// Pieces heavy in markup: pairs and runs of pipes, backticks, escapes, line breaks.
    static let pieces = [
        "|", "||", "|||", "`", "``", "\\", "\\|", "\\`", "\\\\", "a", "bc", " ", "\n", "\n\n", "\r\n", "é", "🎬",
    ]

    static func text(_ rng: inout SplitMix64) -> [UInt8] {
        var text = ""
        for _ in 0..<Int(rng.next() % 40) { text += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return Array(text.utf8)
    }

    /// The places after each byte (`places[c]`: after `c` bytes) and the tracker at the end.
    static func track(_ bytes: [UInt8]) -> (places: [PlainMarkupTracker.Place], safe: [Bool], final: PlainMarkupTracker)
    {
        var tracker = PlainMarkupTracker()
        var places = [tracker.place(at: 0)]
        // safe[c]: a part may end after `c` bytes, before the byte at `c`.
        var safe = [tracker.isSafeCut(before: nil, after: bytes.first)]
        for (p, b) in bytes.enumerated() {
            tracker.take(b, at: p)
            places.append(tracker.place(at: p + 1))
            safe.append(tracker.isSafeCut(before: b, after: p + 1 < bytes.count ? bytes[p + 1] : nil))
        }
        return (places, safe, tracker)
    }

    /// Whether the parts `bytes[..<end]` and `bytes[start...]` parsed between the markers
    /// of what is open at `start` read as the whole, with `bytes[end..<start]` (a line break
    /// a reader shows between them) in the middle.
    static func partsReadAsWhole(
        _ bytes: [UInt8], end: Int, start: Int, place: PlainMarkupTracker.Place, final: PlainMarkupTracker
    ) throws -> Bool {
        let whole = try PlainParser.parse(bytes)
        let open = final.resolve(place)
        let first = try PlainParser.parse(Array(bytes[..<end]) + PlainMarkupTracker.closingMarkers(for: open))
        let second = try PlainParser.parse(PlainMarkupTracker.openingMarkers(for: open) + Array(bytes[start...]))
        let middle = String(decoding: bytes[end..<start], as: UTF8.self)
        guard first.text + middle + second.text == whole.text else { return false }
        var joined = entityCoverage(first)
        let gap = middle.utf16.count
        let wholeMarks = entityCoverage(whole)
        // What covers the line break between them is not shown: take the whole's there.
        joined += wholeMarks[joined.count..<(joined.count + gap)]
        joined += entityCoverage(second)
        return joined == wholeMarks
    }

    @Test func partsCutWhereTheTrackerAllowsReadAsTheWhole() throws {
        try forAll({ rng in PlainMarkupTrackerTests.text(&rng) }, count: 3000) { bytes in
            let (places, safe, final) = PlainMarkupTrackerTests.track(bytes)
            for c in 0...bytes.count {
                // A cut between two bytes: where nothing is open and no pair or escape is
                // split, or where markers may go.
                let before = c > 0 ? bytes[c - 1] : nil
                let splits = before.map { PlainMarkupTracker.isMarkup($0) } ?? false
                let boundary = c == bytes.count || bytes[c] & 0xC0 != 0x80
                guard boundary && ((places[c].isOutside && !splits) || safe[c]) else { continue }
                guard
                    try PlainMarkupTrackerTests.partsReadAsWhole(
                        bytes, end: c, start: c, place: places[c], final: final)
                else {
                    Issue.record("cut at \(c) of \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                    return false
                }
            }
            return true
        }
    }

    /// A chunk cut after a line break is parsed without it (and a carriage return before
    /// it): the markers go where it ended, judged there.
    @Test func partsCutAfterALineBreakReadAsTheWhole() throws {
        try forAll({ rng in PlainMarkupTrackerTests.text(&rng) }, count: 3000) { bytes in
            let (places, _, final) = PlainMarkupTrackerTests.track(bytes)
            for c in 1...max(1, bytes.count) where c <= bytes.count && bytes[c - 1] == 0x0A {
                let end = c >= 2 && bytes[c - 2] == 0x0D ? c - 2 : c - 1
                let next = c < bytes.count ? bytes[c] : nil
                let markersFit = next != UInt8(ascii: "|") && next != UInt8(ascii: "`")
                // Judged where the part ends, with nothing after it.
                var tracker = PlainMarkupTracker()
                for (p, b) in bytes[..<end].enumerated() { tracker.take(b, at: p) }
                let endSafe = tracker.isSafeCut(before: end > 0 ? bytes[end - 1] : nil, after: nil)
                guard places[c].isOutside || (endSafe && markersFit) else { continue }
                guard
                    try PlainMarkupTrackerTests.partsReadAsWhole(
                        bytes, end: end, start: c, place: places[c], final: final)
                else {
                    Issue.record(
                        "cut after the line break at \(c - 1) of \(String(decoding: bytes, as: UTF8.self).debugDescription)"
                    )
                    return false
                }
            }
            return true
        }
    }

    @Test func aSpoilerAcrossABlankLineIsOpenThere() throws {
        let bytes = Array("a ||b\n\nc|| d".utf8)
        let (places, _, final) = PlainMarkupTrackerTests.track(bytes)
        #expect(places[6].spoiler && !places[6].isOutside)
        #expect(final.resolve(places[6]) == PlainMarkupTracker.Open(spoiler: true, code: false))
        #expect(places[bytes.count].isOutside)
    }

    /// The last `||` is never closed: text, so nothing after it is inside a spoiler; the
    /// last backtick is never closed: the pipes after it pair up.
    @Test func markersNeverClosedAreResolvedAtTheEnd() throws {
        let stray = Array("a ||b\n\nc d".utf8)
        let (places, _, final) = PlainMarkupTrackerTests.track(stray)
        #expect(places[6].spoiler)
        #expect(final.resolve(places[6]) == .nothing)

        let backtick = Array("a `b ||c\n\nd|| e".utf8)
        let (bp, _, bf) = PlainMarkupTrackerTests.track(backtick)
        #expect(bp[10].code && !bp[10].spoiler && bp[10].spoilerIfCodeNeverCloses)
        #expect(bf.resolve(bp[10]) == PlainMarkupTracker.Open(spoiler: true, code: false))
    }
}
