import SpoilerCore
import Testing

@testable import SpoilerParser

/// What ``HTMLTagTracker`` promises the chunk scanner that looks at many bytes at once and
/// keeps no copy of the tracker: the bytes it names as markup are the ones it takes one at
/// a time, only a `>` changes what is open, and what it says of the state before the last
/// change is what a copy taken before that byte says.
@Suite struct HTMLTagTrackerTests {
    @Test func markupBytesAreTheMarkup() {
        let (first, second) = HTMLTagTracker.markupBytes
        for b in 0...255 {
            let byte = UInt8(b)
            #expect(HTMLTagTracker.isMarkup(byte) == (byte == first || byte == second), "byte \(b)")
        }
    }

    /// Generated HTML dense in tags (nested, with attributes, some refused, some never
    /// closed), taken byte by byte: at each change, the tracker's account of what was open
    /// before it matches a copy taken before the byte.
    @Test func stateBeforeTheLastChangeIsTheCopyBeforeIt() {
        let pieces = [
            "<b>", "</b>", "<i>", "</i>", "<tg-spoiler>", "</tg-spoiler>", "<a href=\"https://t.me/x\">", "</a>",
            "<a>", "<pre>", "</pre>", "<code class=\"language-swift\">", "</code>", "<code>",
            "<span class=\"tg-spoiler\">", "</span>", "<u >", "</u >", "< b>", "</>", "<x>", "text ", "&amp;", "a\nb ",
            "\n\n", ">", "<", "é ",
        ]
        var rng = SplitMix64(seed: 0x7A65)
        var changesSeen = 0
        var failures: [String] = []
        for _ in 0..<2_000 {
            var text: [UInt8] = []
            for _ in 0..<Int(rng.next() % 40) {
                text += Array(pieces[Int(rng.next() % UInt64(pieces.count))].utf8)
            }
            var tracker = HTMLTagTracker()
            for (offset, b) in text.enumerated() {
                let before = tracker
                tracker.take(b, at: offset)
                guard tracker.changes != before.changes else { continue }
                changesSeen += 1
                if b != 0x3E || !HTMLTagTracker.mayChangeOpen(b) || tracker.changes != before.changes + 1 {
                    failures.append("\(String(decoding: text, as: UTF8.self)) @\(offset): changed on \(b)")
                }
                if tracker.couldReopenBeforeLastChange != before.canReopen
                    || tracker.openingMarkupBeforeLastChange != before.openingMarkup
                    || tracker.closingMarkupBeforeLastChange != before.closingMarkup
                {
                    failures.append("\(String(decoding: text, as: UTF8.self)) @\(offset): before differs")
                }
            }
        }
        #expect(changesSeen > 10_000)
        #expect(failures.count == 0, "\(failures.prefix(3))")
    }
}
