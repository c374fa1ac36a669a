import SpoilerCore
import SpoilerParser

/// The formatting on each Unicode scalar of a message, by name, as the mautrix oracle
/// script prints it (`bold`, `text_link:URL`, `spoiler:REASON`, `pre:LANG`, …).
func styleSets(_ m: Message) -> [[String]] {
    let scalars = Array(m.text.unicodeScalars)
    var utf16Start: [Int] = []
    var u = 0
    for s in scalars {
        utf16Start.append(u)
        u += s.utf16.count
    }
    var out = [Set<String>](repeating: [], count: scalars.count)
    for e in m.entities {
        let name: String
        switch e.type {
        case .bold, .italic, .underline, .strikethrough, .code, .blockquote: name = e.type.rawValue
        case .pre: name = "pre:" + (e.language ?? "")
        case .textLink: name = "text_link:" + (e.url ?? "")
        case .spoiler: name = "spoiler:" + (e.reason ?? "")
        default: continue
        }
        for (i, start) in utf16Start.enumerated() where start >= e.offset && start < e.end { out[i].insert(name) }
    }
    return out.map { $0.sorted() }
}

/// Random messages of what Matrix HTML can say exactly: words separated by single spaces
/// and line breaks, no whitespace at the ends, inline entities over whole words, code over
/// one word, block quotations and `pre` over whole lines with nothing inline on a `pre`.
func randomMatrixMessage(_ rng: inout SplitMix64) -> Message {
    let words = [
        "a", "bc", "Привет", "漢字", "😀", "👩‍👩‍👧", "e\u{301}", "x<y", "&amp;", "\"q\"", "it's", "1.", "||", "*", "日本",
    ]
    func pick(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    var lines: [[String]] = []
    for _ in 0...pick(4) { lines.append((0...pick(4)).map { _ in words[pick(words.count)] }) }
    // Offsets of each word (UTF-16), and line ranges.
    var text = ""
    var wordRanges: [(start: Int, end: Int, line: Int)] = []
    var lineRanges: [(start: Int, end: Int)] = []
    for (l, line) in lines.enumerated() {
        if l > 0 { text += "\n" }
        let lineStart = text.utf16.count
        for (w, word) in line.enumerated() {
            if w > 0 { text += " " }
            let s = text.utf16.count
            text += word
            wordRanges.append((s, text.utf16.count, l))
        }
        lineRanges.append((lineStart, text.utf16.count))
    }
    var entities: [Entity] = []
    // Blocks first: each line is a quotation, a pre, or neither.
    var preLines = Set<Int>()
    for (l, r) in lineRanges.enumerated() {
        switch pick(6) {
        case 0: entities.append(Entity(.blockquote, offset: r.start, length: r.end - r.start))
        case 1:
            entities.append(
                Entity(.pre, offset: r.start, length: r.end - r.start, language: pick(2) == 0 ? "swift" : nil))
            preLines.insert(l)
        default: break
        }
    }
    let free = wordRanges.filter { !preLines.contains($0.line) }
    if !free.isEmpty {
        for _ in 0..<pick(6) {
            var a = pick(free.count)
            var b = pick(free.count)
            if a > b { swap(&a, &b) }
            // Inline entities do not run over a pre line.
            if free[a].line != free[b].line, (free[a].line...free[b].line).contains(where: preLines.contains) {
                continue
            }
            let start = free[a].start
            let end = free[b].end
            switch pick(7) {
            case 0: entities.append(Entity(.bold, offset: start, length: end - start))
            case 1: entities.append(Entity(.italic, offset: start, length: end - start))
            case 2: entities.append(Entity(.underline, offset: start, length: end - start))
            case 3: entities.append(Entity(.strikethrough, offset: start, length: end - start))
            case 4:
                let reason = ["", "plot", "the \"end\" & <more>"][pick(3)]
                entities.append(
                    Entity(.spoiler, offset: start, length: end - start, reason: reason.isEmpty ? nil : reason))
            case 5:
                entities.append(
                    Entity(.textLink, offset: start, length: end - start, url: "https://example.com/?a=1&b=\"<x>\""))
            default:
                // Code over one word that no other entity starts or ends inside.
                entities.append(Entity(.code, offset: free[a].start, length: free[a].end - free[a].start))
            }
        }
    }
    return Message(text: text, entities: entities)
}
