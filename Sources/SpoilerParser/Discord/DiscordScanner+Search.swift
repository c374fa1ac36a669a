import SpoilerCore

/// The searches of ``DiscordScanner`` that a regex engine would repeat from every position
/// (and so take quadratic time on unclosed markup: thousands of `~~` that no `~~` can
/// close, `[a](http` without a `)`, backtick runs of every length), answered in constant
/// or logarithmic time from tables built once per message, the first time each is needed.
///
/// Each table is built over the whole message; a search bounded by an `end` (the content
/// of an enclosing rule) gets the same answer as a scan stopped at `end`, which the
/// comments below argue case by case.
struct DiscordSearch {
    /// The closing pairs: per ``DiscordScanner/PairKind``, for each byte offset, the first
    /// valid pair at or after it (the message's length if none). Empty until one is needed.
    var pairs: [[Int32]] = []
    /// Per ``DiscordScanner/StopKind``, for each byte offset, the first stop at or after it.
    /// Empty until one is needed.
    var stops: [[Int32]] = []
    /// Maximal runs of backticks, in order: where each starts and ends.
    var runStarts: [Int32] = []
    var runEnds: [Int32] = []
    var runsBuilt = false
    /// The runs' starts, by length.
    var runsByLength: [Int32: [Int32]] = [:]
}

extension DiscordScanner {
    /// `||`, `**` (not before `*`), `__` (not before `_`), `~~` (not before `_`).
    enum PairKind: Int {
        case pipe, star, underscore, tilde

        var byte: UInt8 {
            switch self {
            case .pipe: UInt8(ascii: "|")
            case .star: UInt8(ascii: "*")
            case .underscore: UInt8(ascii: "_")
            case .tilde: UInt8(ascii: "~")
            }
        }

        var notFollowedBy: UInt8? {
            switch self {
            case .pipe: nil
            case .star: UInt8(ascii: "*")
            case .underscore, .tilde: UInt8(ascii: "_")
            }
        }
    }

    /// The closing pair of a rule opened by the pair at `i` (its content holds at least
    /// one character): the first pair that ends by `end` and is not followed by the kind's
    /// excluded character (the end of the content counts as not followed).
    ///
    /// A pair at `k < end - 2` is followed by the same byte under `end` as in the whole
    /// message, so the table's first pair answers if it lies there; otherwise only a pair
    /// at `end - 2`, followed by nothing under `end`, can.
    mutating func pair(_ kind: PairKind, after i: Int, _ end: Int) -> Int? {
        guard i + 2 < end else { return nil }
        let from = i + 2 + scalarLength(i + 2)
        guard from + 1 < end else { return nil }
        let c = kind.byte
        // Most pairs close soon: a short scan first, the table only past it.
        let excluded = kind.notFollowedBy
        let limit = min(end - 1, from + DiscordScanner.shortScan)
        let (found, j) = s.withUnsafeBufferPointer { p -> (Int?, Int) in
            var j = from
            let base = p.baseAddress!
            while j < limit {
                if j + 8 <= limit {
                    // Eight starts at a time: on to the first byte that is `c`, if any (the
                    // lowest byte first).
                    let zero = ByteLanes.equal(UnsafeRawPointer(base + j).loadUnaligned(as: UInt64.self), c)
                    if zero == 0 {
                        j += 8
                        continue
                    }
                    j += zero.trailingZeroBitCount &>> 3
                }
                if p[j] == c && p[j + 1] == c && !(excluded != nil && j + 2 < end && p[j + 2] == excluded!) {
                    return (j, j)
                }
                j += 1
            }
            return (nil, j)
        }
        if let found { return found }
        steps += j - from
        guard j + 1 < end else { return nil }
        if search.pairs.isEmpty { search.pairs = [[], [], [], []] }
        if search.pairs[kind.rawValue].isEmpty { search.pairs[kind.rawValue] = pairTable(kind) }
        let first = Int(search.pairs[kind.rawValue][from])
        if first < end - 2 { return first }
        return s[end - 2] == c && s[end - 1] == c ? end - 2 : nil
    }

    mutating func pairTable(_ kind: PairKind) -> [Int32] {
        let n = s.count
        steps += n
        var table = [Int32](repeating: Int32(n), count: n + 1)
        let c = kind.byte
        let excluded = kind.notFollowedBy
        var next = Int32(n)
        var j = n - 2
        while j >= 0 {
            if s[j] == c && s[j + 1] == c && !(excluded != nil && j + 2 < n && s[j + 2] == excluded!) {
                next = Int32(j)
            }
            table[j] = next
            j -= 1
        }
        return table
    }

    /// Where a scan for a closing character stops.
    enum StopKind: Int {
        /// ```` ``` ````, the end of a code block.
        case backtickTriple
        /// `)` or whitespace, the end of a masked link's address.
        case parenthesisOrSpace
        /// `>` or whitespace, the end of `<https://…>`.
        case angleOrSpace
    }

    /// The first stop of `kind` at or after `from` in the whole message (its length if none).
    ///
    /// A stop before `end` is the first one under `end` too; a caller checks `< end`.
    mutating func nextStop(_ kind: StopKind, from: Int) -> Int {
        let n = s.count
        guard from < n else { return n }
        // Most stops are near (an address ends soon): a short scan first, the table only
        // past it.
        if search.stops.isEmpty || search.stops[kind.rawValue].isEmpty {
            var j = from
            while j < n && j < from + DiscordScanner.shortScan {
                if isStop(kind, j) { return j }
                j += 1
            }
            steps += j - from
            if j == n { return n }
        }
        if search.stops.isEmpty { search.stops = [[], [], []] }
        if search.stops[kind.rawValue].isEmpty {
            steps += n
            var table = [Int32](repeating: Int32(n), count: n + 1)
            var next = Int32(n)
            var j = n - 1
            while j >= 0 {
                if isStop(kind, j) { next = Int32(j) }
                table[j] = next
                j -= 1
            }
            search.stops[kind.rawValue] = table
        }
        return Int(search.stops[kind.rawValue][from])
    }

    /// Whether a stop of `kind` is at `j`.
    @inline(__always)
    func isStop(_ kind: StopKind, _ j: Int) -> Bool {
        switch kind {
        case .backtickTriple: j + 2 < s.count && s[j] == 0x60 && s[j + 1] == 0x60 && s[j + 2] == 0x60
        case .parenthesisOrSpace: s[j] == UInt8(ascii: ")") || spaceLength(j) > 0
        case .angleOrSpace: s[j] == UInt8(ascii: ">") || spaceLength(j) > 0
        }
    }

    // MARK: Emphasis

    /// simple-markdown's `*` emphasis: `\*(?=\S)((?:\*\*|\\[\s\S]|\s+(?:\\[\s\S]|[^\s\*\\]|\*\*)|[^\s\*\\])+?)\*(?!\*)`;
    /// returns the end of the match.
    mutating func starEmphasis(at i: Int, _ end: Int) -> Int? {
        guard i + 1 < end, spaceLength(i + 1) == 0, let second = starUnit(i + 1, end) else { return nil }
        return emphasisEnd(0, from: second, end)
    }

    /// One unit of `*` emphasis's content at `j`; returns where the next begins.
    func starUnit(_ j: Int, _ end: Int) -> Int? {
        let star = UInt8(ascii: "*")
        let backslash = UInt8(ascii: "\\")
        var k = j
        var space = spaceLength(k)
        if space > 0 {
            while k < end && space > 0 {
                k += space
                space = k < end ? spaceLength(k) : 0
            }
            guard k < end else { return nil }
        }
        if s[k] == star { return k + 1 < end && s[k + 1] == star ? k + 2 : nil }
        if s[k] == backslash && k + 1 < end { return k + 1 + scalarLength(k + 1) }
        return k + scalarLength(k)
    }

    /// simple-markdown's `_` emphasis: `\b_((?:__|\\[\s\S]|[^\\_])+?)_\b`.
    mutating func underscoreEmphasis(at i: Int, _ end: Int) -> Int? {
        if i > 0 && DiscordScanner.isWord(s[i - 1]) { return nil }
        guard i + 1 < end, let second = underscoreUnit(i + 1, end) else { return nil }
        return emphasisEnd(1, from: second, end)
    }

    func underscoreUnit(_ j: Int, _ end: Int) -> Int? {
        let underscore = UInt8(ascii: "_")
        if s[j] == underscore { return j + 1 < end && s[j + 1] == underscore ? j + 2 : nil }
        if s[j] == UInt8(ascii: "\\") && j + 1 < end { return j + 1 + scalarLength(j + 1) }
        return j + scalarLength(j)
    }

    /// Whether emphasis `kind` (0 `*`, 1 `_`) closes at `j`, after at least one unit.
    func closesEmphasis(_ kind: Int, _ j: Int, _ end: Int) -> Bool {
        if kind == 0 { return s[j] == UInt8(ascii: "*") && !(j + 1 < end && s[j + 1] == UInt8(ascii: "*")) }
        return s[j] == UInt8(ascii: "_") && !(j + 1 < end && DiscordScanner.isWord(s[j + 1]))
    }

    /// The end of an emphasis whose second unit starts at `from`.
    ///
    /// No table is needed here: a scan stops at the next lone `*` (closing after text,
    /// failing after whitespace) or the next `_` that is not part of `__` (closing or
    /// failing), and an emphasis can only open at such a character, so the scans from
    /// successive openers do not overlap.
    mutating func emphasisEnd(_ kind: Int, from: Int, _ end: Int) -> Int? {
        var j = from
        while j < end {
            if closesEmphasis(kind, j, end) { return j + 1 }
            guard let next = kind == 0 ? starUnit(j, end) : underscoreUnit(j, end) else { return nil }
            steps += next - j
            j = next
        }
        return nil
    }

    // MARK: Backtick runs

    mutating func buildRuns() {
        search.runsBuilt = true
        steps += s.count
        var j = 0
        while j < s.count {
            guard s[j] == 0x60 else {
                j += 1
                continue
            }
            var r = j
            while r < s.count && s[r] == 0x60 { r += 1 }
            search.runStarts.append(Int32(j))
            search.runEnds.append(Int32(r))
            search.runsByLength[Int32(r - j), default: []].append(Int32(j))
            j = r
        }
    }

    /// The index of the first run that ends after `offset`.
    func runIndex(endingAfter offset: Int) -> Int {
        var lo = 0
        var hi = search.runEnds.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(search.runEnds[mid]) <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The end of the backtick run that holds offset `i`.
    mutating func backtickRunEnd(at i: Int) -> Int {
        if !search.runsBuilt { buildRuns() }
        return Int(search.runEnds[runIndex(endingAfter: i)])
    }

    /// The start of the first run of exactly `length` backticks after `k` (where no
    /// backtick is) as a scan stopped at `end` sees runs: whole runs before `end`, and the
    /// run that `end` cuts, as long as its part before `end`.
    mutating func backtickRun(length: Int, after k: Int, _ end: Int) -> Int? {
        guard k < end else { return nil }
        // Most code spans close soon: a short scan first, the index only past it.
        var j = k
        while j < end && j < k + DiscordScanner.shortScan {
            guard s[j] == 0x60 else {
                j += 1
                continue
            }
            var r = j
            while r < end && s[r] == 0x60 && r - j <= length { r += 1 }
            if r - j == length { return j }
            // A longer run is left to the index.
            if r - j > length { break }
            j = r
        }
        steps += j - k
        guard j < end else { return nil }
        if !search.runsBuilt { buildRuns() }
        var best: Int?
        if let starts = search.runsByLength[Int32(length)] {
            var lo = 0
            var hi = starts.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Int(starts[mid]) < k { lo = mid + 1 } else { hi = mid }
            }
            if lo < starts.count, Int(starts[lo]) + length <= end { best = Int(starts[lo]) }
        }
        if s[end - 1] == 0x60 {
            let cut = runIndex(endingAfter: end - 1)
            let start = Int(search.runStarts[cut])
            if Int(search.runEnds[cut]) > end, start > k, end - start == length, best.map({ start < $0 }) ?? true {
                best = start
            }
        }
        return best
    }

    /// How far a search scans before it asks a table: the tables cost a pass over the
    /// message, and most closing markup is near.
    static let shortScan = 256

    // MARK: Characters

    /// The length in bytes of the scalar whose first byte is at `j`.
    @inline(__always)
    func scalarLength(_ j: Int) -> Int {
        let b = s[j]
        return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
    }

    /// The length in bytes of the whitespace scalar (Unicode's White_Space, as
    /// `Unicode.Scalar.Properties.isWhitespace`) at `j`, or 0 if none starts there.
    @inline(__always)
    func spaceLength(_ j: Int) -> Int {
        let b = s[j]
        if b < 0x80 { return b == 0x20 || (b >= 0x09 && b <= 0x0D) ? 1 : 0 }
        return UTF8Whitespace.length(in: s, at: j)
    }
}

/// Unicode's White_Space characters beyond ASCII, recognised in UTF-8.
enum UTF8Whitespace {
    /// Whether a whitespace scalar beyond ASCII may start with byte `c` (C2, E1, E2 or E3).
    @inline(__always)
    static func mayStart(_ c: UInt8) -> Bool { c == 0xC2 || (c >= 0xE1 && c <= 0xE3) }

    /// The length of the non-ASCII whitespace scalar at `j` in the valid UTF-8 `s`, or 0:
    /// U+0085, U+00A0, U+1680, U+2000…U+200A, U+2028, U+2029, U+202F, U+205F, U+3000.
    static func length(in s: [UInt8], at j: Int) -> Int {
        switch s[j] {
        case 0xC2:
            return j + 1 < s.count && (s[j + 1] == 0x85 || s[j + 1] == 0xA0) ? 2 : 0
        case 0xE1:
            return j + 2 < s.count && s[j + 1] == 0x9A && s[j + 2] == 0x80 ? 3 : 0
        case 0xE2:
            guard j + 2 < s.count else { return 0 }
            let (b1, b2) = (s[j + 1], s[j + 2])
            if b1 == 0x80 && (b2 <= 0x8A && b2 >= 0x80 || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF) { return 3 }
            return b1 == 0x81 && b2 == 0x9F ? 3 : 0
        case 0xE3:
            return j + 2 < s.count && s[j + 1] == 0x80 && s[j + 2] == 0x80 ? 3 : 0
        default:
            return 0
        }
    }
}
