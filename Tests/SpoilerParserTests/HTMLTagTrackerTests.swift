import SpoilerCore
import Testing

@testable import SpoilerParser

/// What ``HTMLTagTracker`` promises the chunk scanner that looks at many bytes at once and
/// keeps no copy of the tracker: the bytes it names as markup are the ones it takes one at
/// a time, only a `>` changes what is open, and what it says of the state before the last
/// change is what a copy taken before that byte says.
@Suite struct HTMLTagTrackerTests {
    /// Pieces of HTML dense in tags: nested, with attributes, some refused, some never
    /// closed.
    static let pieces = [
        "<b>", "</b>", "<i>", "</i>", "<tg-spoiler>", "</tg-spoiler>", "<a href=\"https://t.me/x\">", "</a>",
        "<a>", "<pre>", "</pre>", "<code class=\"language-swift\">", "</code>", "<code>",
        "<span class=\"tg-spoiler\">", "</span>", "<u >", "</u >", "< b>", "</>", "<x>", "text ", "&amp;", "&lt",
        "a\nb ",
        "\n\n", ">", "<", "é ",
    ]

    /// A text's bytes taken one at a time, or with every run between ``markupBytes`` taken
    /// at once while in text (as the chunk scanner takes them): the same tracker after each.
    /// What is open can be opened again around a part, with its start tag as written, but
    /// for an `<a>` without href (with no attributes at all, too: found by the `html-chunks`
    /// fuzz target), which takes its text as its link, and a `<code>` with a language.
    @Test(arguments: [
        ("<b>", true), ("<a href=\"http://x.org/\">", true), ("<code>", true), ("<pre>", true),
        ("<a>", false), ("<a title=\"t\">", false), ("<code class=\"language-c\">", false),
    ])
    func whatCanBeOpenedAgain(startTag: String, reopens: Bool) {
        var tracker = HTMLTagTracker()
        for (offset, b) in Array((startTag + "text").utf8).enumerated() { tracker.take(b, at: offset) }
        #expect(tracker.canReopen == reopens)
        #expect(tracker.openingMarkup == (reopens ? Array(startTag.utf8) : nil))
    }

    @Test func runsBetweenMarkupBytesMayBeTakenAtOnce() {
        let (first, second) = HTMLTagTracker.markupBytes
        var rng = SplitMix64(seed: 0x7A66)
        var runsTaken = 0
        var failures: [String] = []
        for _ in 0..<2_000 {
            let text = Self.text(&rng)
            var one = HTMLTagTracker()
            var runs = HTMLTagTracker()
            text.withUnsafeBufferPointer { bytes in
                var i = 0
                while i < bytes.count {
                    var end = i
                    while runs.isInText && end < bytes.count && bytes[end] != first && bytes[end] != second { end += 1 }
                    if end > i {
                        runs.takeText(bytes[i..<end])
                        runsTaken += 1
                    } else {
                        runs.take(bytes[i], at: i)
                        end = i + 1
                    }
                    for k in i..<end { one.take(bytes[k], at: k) }
                    if one != runs { failures.append("\(String(decoding: text, as: UTF8.self)) @\(end)") }
                    i = end
                }
            }
        }
        #expect(runsTaken > 5_000)
        #expect(failures.count == 0, "\(failures.prefix(3))")
    }

    static func text(_ rng: inout SplitMix64) -> [UInt8] {
        var text: [UInt8] = []
        for _ in 0..<Int(rng.next() % 40) { text += Array(pieces[Int(rng.next() % UInt64(pieces.count))].utf8) }
        return text
    }

    /// Generated HTML dense in tags (nested, with attributes, some refused, some never
    /// closed), taken byte by byte: at each change, the tracker's account of what was open
    /// before it matches a copy taken before the byte.
    @Test func stateBeforeTheLastChangeIsTheCopyBeforeIt() {
        var rng = SplitMix64(seed: 0x7A65)
        var changesSeen = 0
        var failures: [String] = []
        for _ in 0..<2_000 {
            let text = Self.text(&rng)
            var tracker = HTMLTagTracker()
            for (offset, b) in text.enumerated() {
                let before = tracker
                tracker.take(b, at: offset)
                guard tracker.changes != before.changes else { continue }
                changesSeen += 1
                if b != 0x3E || !HTMLTagTracker.mayChangeOpen(b) || tracker.changes != before.changes + 1 {
                    failures.append("\(String(decoding: text, as: UTF8.self)) @\(offset): changed on \(b)")
                }
                if (tracker.openingMarkupBeforeLastChange != nil) != before.canReopen
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
