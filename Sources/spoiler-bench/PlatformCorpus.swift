import SpoilerCore

/// Deterministic chat messages with the markup people write on chat platforms, for the
/// `platforms` stage: written to each platform's format and read back.
///
/// Each message has one to four lines of words in Latin, Cyrillic, CJK and emoji (ZWJ
/// sequences and combining marks included). About a third of its runs carry formatting:
/// spoilers (a quarter of them with a reason), bold, italic, bold with a spoiler inside,
/// strikethrough, underline, inline code and links with text; some lines are quotes, and
/// some messages end with a code block with its language. Every message has a spoiler.
/// The same seed gives the same messages on every machine.
enum PlatformCorpus {
    static let words: [String] = [
        "the", "butler", "did", "it", "in", "library", "with", "a", "candlestick", "ending",
        "twist", "season", "finale", "watch", "tonight", "spoiler", "don't", "read", "this",
        "Привет", "концовка", "сон", "герой", "умер", "фильм", "漢字", "秘密", "日本語",
        "映画", "结局", "😀", "🎬", "🍿", "👩‍👩‍👧", "🇺🇦", "👍🏽", "café", "naïve", "e\u{301}te\u{301}",
        "Zoë", "42", "2026", "ok", "lol", "wow", "episode", "really", "who", "knew",
    ]
    static let punctuation: [String] = [".", ",", "!", "?", ":", ";", "…", " (yes)"]
    static let reasons: [String] = ["plot", "ending", "season 3", "finale spoilers"]
    static let hosts: [String] = ["example.org", "en.wikipedia.org/wiki/Clue", "youtu.be/dQw4w9WgXcQ", "t.me/s/news"]
    static let languages: [String] = ["swift", "python", "", "js"]

    /// `count` messages from `seed`.
    static func messages(count: Int, seed: UInt64 = 0xC4A7) -> [Message] {
        var rng = SplitMix64(seed: seed)
        func pick(_ xs: [String]) -> String { xs[Int(rng.next() % UInt64(xs.count))] }
        var out: [Message] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            var text = ""
            var units = 0
            var entities: [Entity] = []
            func add(_ s: String) {
                text += s
                units += s.utf16.count
            }
            func run() -> String {
                var r = ""
                for w in 0..<(Int(rng.next() % 4) + 1) {
                    if w > 0 { r += " " }
                    r += pick(PlatformCorpus.words)
                }
                return r
            }
            var hasSpoiler = false
            let lines = Int(rng.next() % 4) + 1
            for line in 0..<lines {
                if line > 0 { add("\n") }
                let lineStart = units
                for r in 0..<(Int(rng.next() % 6) + 1) {
                    if r > 0 { add(" ") }
                    let start = units
                    let phrase = run()
                    switch rng.next() % 16 {
                    case 0, 1:
                        add(phrase)
                        let reason = rng.next() % 4 == 0 ? pick(reasons) : nil
                        entities.append(Entity(.spoiler, offset: start, length: units - start, reason: reason))
                        hasSpoiler = true
                    case 2:
                        add(phrase)
                        entities.append(Entity(.bold, offset: start, length: units - start))
                    case 3:
                        add(phrase)
                        entities.append(Entity(.italic, offset: start, length: units - start))
                    case 4:
                        add(phrase)
                        entities.append(Entity(.strikethrough, offset: start, length: units - start))
                    case 5:
                        add(phrase)
                        entities.append(Entity(.code, offset: start, length: units - start))
                    case 6:
                        add(phrase)
                        let url = "https://" + pick(hosts)
                        entities.append(Entity(.textLink, offset: start, length: units - start, url: url))
                    case 7:
                        add(phrase + " ")
                        let inner = units
                        add(pick(PlatformCorpus.words))
                        entities.append(Entity(.bold, offset: start, length: units - start))
                        entities.append(Entity(.spoiler, offset: inner, length: units - inner))
                        hasSpoiler = true
                    case 8:
                        add(phrase)
                        entities.append(Entity(.underline, offset: start, length: units - start))
                    default:
                        add(phrase)
                    }
                    if rng.next() % 5 == 0 { add(pick(punctuation)) }
                }
                if lines > 1 && rng.next() % 6 == 0 {
                    entities.append(Entity(.blockquote, offset: lineStart, length: units - lineStart))
                }
            }
            if !hasSpoiler {
                add("\n")
                let start = units
                add(run())
                entities.append(Entity(.spoiler, offset: start, length: units - start))
            }
            if rng.next() % 12 == 0 {
                add("\n")
                let start = units
                add("let x = \"" + pick(PlatformCorpus.words) + "\"\nprint(x)")
                let language = pick(languages)
                entities.append(
                    Entity(.pre, offset: start, length: units - start, language: language.isEmpty ? nil : language))
            }
            out.append(Message(text: text, entities: entities))
        }
        return out
    }
}
