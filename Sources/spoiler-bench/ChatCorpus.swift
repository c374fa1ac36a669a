import SpoilerCore

/// A deterministic corpus of generated chat messages for the benchmarks.
///
/// Words in Latin,
/// Cyrillic, CJK and emoji (ZWJ sequences and combining marks included), with spoilers,
/// bold, italic, strikethrough, code and punctuation, written both as plain chat text and
/// as Telegram MarkdownV2. The same seed gives the same bytes on every machine.
struct ChatCorpus {
    /// One message in plain chat markup (`||spoiler||`, `` `code` ``), one element each.
    var plain: [[UInt8]] = []
    /// The same messages in MarkdownV2, escaped as the Bot API requires.
    var markdownV2: [[UInt8]] = []

    /// Total bytes of the plain messages.
    var plainBytes: Int { plain.reduce(0) { $0 + $1.count } }
    /// Total bytes of the MarkdownV2 messages.
    var markdownV2Bytes: Int { markdownV2.reduce(0) { $0 + $1.count } }

    private static let words: [String] = [
        "the", "butler", "did", "it", "in", "library", "with", "a", "candlestick", "ending",
        "twist", "season", "finale", "watch", "tonight", "spoiler", "don't", "read", "this",
        "Привет", "концовка", "сон", "герой", "умер", "фильм", "漢字", "秘密", "日本語",
        "映画", "结局", "😀", "🎬", "🍿", "👩‍👩‍👧", "🇺🇦", "👍🏽", "café", "naïve", "e\u{301}te\u{301}",
        "Zoë", "42", "2026", "ok", "lol", "wow",
    ]
    private static let punctuation: [String] = [".", ",", "!", "?", " -", ":", ";", "(yes)"]

    /// Generates `count` messages from `seed`.
    init(count: Int, seed: UInt64 = 0x5EED) {
        var rng = SplitMix64(seed: seed)
        plain.reserveCapacity(count)
        markdownV2.reserveCapacity(count)
        for _ in 0..<count {
            var p = ""
            var m = ""
            let lines = Int(rng.next() % 3) + 1
            for line in 0..<lines {
                if line > 0 {
                    p += "\n"
                    m += "\n"
                }
                let runs = Int(rng.next() % 6) + 1
                for r in 0..<runs {
                    if r > 0 {
                        p += " "
                        m += " "
                    }
                    var run = ""
                    for w in 0..<(Int(rng.next() % 5) + 1) {
                        if w > 0 { run += " " }
                        run += ChatCorpus.words[Int(rng.next() % UInt64(ChatCorpus.words.count))]
                    }
                    if rng.next() % 4 == 0 {
                        run += ChatCorpus.punctuation[Int(rng.next() % UInt64(ChatCorpus.punctuation.count))]
                    }
                    switch rng.next() % 10 {
                    case 0, 1:
                        p += "||" + run + "||"
                        m += "||" + ChatCorpus.escapeMarkdownV2(run) + "||"
                    case 2:
                        p += run
                        m += "*" + ChatCorpus.escapeMarkdownV2(run) + "*"
                    case 3:
                        p += run
                        m += "_" + ChatCorpus.escapeMarkdownV2(run) + "_"
                    case 4:
                        p += run
                        m += "~" + ChatCorpus.escapeMarkdownV2(run) + "~"
                    case 5:
                        p += "`" + run + "`"
                        m += "`" + run + "`"
                    default:
                        p += run
                        m += ChatCorpus.escapeMarkdownV2(run)
                    }
                }
            }
            plain.append(Array(p.utf8))
            markdownV2.append(Array(m.utf8))
        }
    }

    /// `s` with every MarkdownV2 special character escaped (core.telegram.org/bots/api,
    /// "MarkdownV2 style").
    static func escapeMarkdownV2(_ s: String) -> String {
        var out = ""
        for c in s.unicodeScalars {
            if "_*[]()~`>#+-=|{}.!\\".unicodeScalars.contains(c) { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }
}
