import SpoilerCore

/// Reads chat text with `||spoiler||` and code between backticks markup (`--from plain`, the default).
///
/// The rules (DESIGN.md §2), which the tests pin down:
/// - `||text||` hides `text`: a `spoiler` entity. Spans may cross line breaks and hold code.
///   Spoilers do not nest: the first `||` after an opener closes it.
/// - An `||` that is never closed is literal text, and so is everything it would have
///   covered (code inside it is still code).
/// - An empty pair `||||` is literal: when `||` follows an opener directly, the opener is
///   literal and the second `||` opens instead (`||||x||` reads as `||` then a spoiler `x`).
/// - Text between backticks is a `code` entity; its content is literal (no spoilers inside code, so
///   `a || b` between backticks keeps its pipes). Code may cross line breaks and may sit inside a
///   spoiler. An unmatched backtick is literal and the rest of the input is read as if it
///   were not there. An empty pair of backticks is literal, as `||||` is.
/// - A backslash before `|`, `\` or a backtick makes that character literal, everywhere
///   (inside code too, so that code can hold a backtick). Before any other character, or
///   at the end of the input, a backslash is itself literal: `C:\dir` stays `C:\dir`.
/// - Nothing else is markup, and no input is an error once it is valid UTF-8 (which
///   ``MessageParser`` checks first).
///
/// ```swift
/// let m = try MessageParser.parse("hi ||there||", from: .plain)
/// // m.text == "hi there", m.entities == [Entity(.spoiler, offset: 3, length: 5)]
/// ```
///
/// - Complexity: O(n) in the input bytes, in one pass. A backtick is written to the
///   output as it is met; when code closes, its opener is removed again (a move of the
///   code's content, and pairs of one kind never overlap, so the total is linear). An
///   `||` that opens a spoiler is not written: when the spoiler closes there is nothing
///   to take out, and if it never does, the pipes are put back at the end (one move). An
///   unmatched backtick makes the parser read the rest once more without code, and that
///   rest holds no other unescaped backtick, so it happens at most once.
public enum PlainParser {
    /// Parses `bytes` as plain chat text with `||spoiler||` and code between backticks.
    ///
    /// The bytes must be valid UTF-8; the first invalid sequence is an error naming its
    /// byte offset, as ``MessageParser`` reports it.
    ///
    /// - Parameter bytes: The message's bytes, UTF-8.
    /// - Returns: The message: its text and its entities, offsets in UTF-16 code units.
    /// - Throws: ``ParseError`` naming the position and the reason.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> Message {
        try parse(validUTF8: ParseError.checkedUTF8(bytes))
    }

    /// Parses `text` as plain chat text with `||spoiler||` and code between backticks.
    ///
    /// ```swift
    /// let message = try PlainParser.parse("hi ||there||")
    /// ```
    ///
    /// - Parameter text: The message as written.
    /// - Returns: The message: its text and its entities, offsets in UTF-16 code units.
    /// - Throws: ``ParseError`` naming the position and the reason.
    public static func parse(_ text: String) throws(ParseError) -> Message {
        try parse(validUTF8: Array(text.utf8))
    }

    /// Parses `bytes`, which must be valid UTF-8, as plain chat text.
    static func parse(validUTF8 bytes: [UInt8]) throws(ParseError) -> Message {
        if bytes.isEmpty { return Message(text: "") }
        var entities: [Entity] = []
        // The text is written straight into the String's storage: the output is never
        // longer than the input, since only markup is taken out.
        let text = bytes.withUnsafeBufferPointer { input in
            String(unsafeUninitializedCapacity: input.count) { storage in
                var scanner = PlainScanner(output: PlainOutput(storage))
                // A long input's entities get their room at once: growing the array by
                // doubling holds the old and the new storage together, up to twice the
                // entities, the most of the parse's memory (issue 17).
                if input.count >= 1 << 16 { scanner.entities.reserveCapacity(PlainScanner.entityBound(input)) }
                scanner.scan(input)
                entities = scanner.entities
                return scanner.out.count
            }
        }
        // Entities are made in canonical order: a spoiler is put before the code inside it.
        return Message(text: text, unsortedEntities: entities)
    }
}

/// The output bytes of ``PlainScanner``, in a buffer at least as long as the input.
struct PlainOutput {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    init(_ storage: UnsafeMutableBufferPointer<UInt8>) {
        base = storage.baseAddress!
        capacity = storage.count
    }

    mutating func append(_ b: UInt8) {
        precondition(count < capacity, "plain output outgrew its input (\(capacity) bytes)")
        base[count] = b
        count += 1
    }

    mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        precondition(count + bytes.count <= capacity, "plain output outgrew its input (\(capacity) bytes)")
        guard let from = bytes.baseAddress else { return }
        (base + count).update(from: from, count: bytes.count)
        count += bytes.count
    }

    /// The first byte of the room, for a scan that writes through its own pointer and
    /// then sets ``count`` with ``setCount(_:)``.
    var start: UnsafeMutablePointer<UInt8> { base }

    /// The room's length in bytes.
    var room: Int { capacity }

    /// Sets how many bytes were written, after a scan wrote them through ``start``.
    @inline(__always)
    mutating func setCount(_ newCount: Int) {
        precondition(
            newCount >= 0 && newCount <= capacity,
            "plain output of \(newCount) bytes outgrew its room (\(capacity) bytes)")
        count = newCount
    }

    /// Appends the first `k` of the eight bytes of `v` (in memory order), storing all
    /// eight: the room must hold them.
    @inline(__always)
    mutating func appendWord(_ v: UInt64, keeping k: Int = 8) {
        precondition(count + 8 <= capacity, "plain output outgrew its room (\(capacity) bytes)")
        UnsafeMutableRawPointer(base + count).storeBytes(of: v, as: UInt64.self)
        count += k
    }

    /// Removes `range`, moving what follows it down (the regions may overlap).
    mutating func removeSubrange(_ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) outside 0..<\(count)")
        UnsafeMutableRawPointer(base + range.lowerBound).copyMemory(
            from: base + range.upperBound, byteCount: count - range.upperBound)
        count -= range.count
    }

    /// Inserts `byte` twice at `offset`, moving what follows up (the regions may
    /// overlap).
    mutating func insertPair(_ byte: UInt8, at offset: Int) {
        precondition(offset >= 0 && offset <= count, "offset \(offset) outside 0...\(count)")
        precondition(count + 2 <= capacity, "plain output outgrew its room (\(capacity) bytes)")
        UnsafeMutableRawPointer(base + offset + 2).copyMemory(from: base + offset, byteCount: count - offset)
        base[offset] = byte
        base[offset + 1] = byte
        count += 2
    }

    /// Drops everything from `newCount` on.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "cannot truncate \(count) bytes to \(newCount)")
        count = newCount
    }
}

/// The state of one pass of ``PlainParser``.
struct PlainScanner {
    /// The text written so far, delimiters of open pairs included.
    var out: PlainOutput
    /// Length of `out` in UTF-16 code units.
    var utf16Count = 0
    /// Entities closed so far (not yet in canonical order).
    var entities: [Entity] = []

    /// Where the open `||` would sit in `out`, if a spoiler is open. Its pipes are not
    /// written while it is open: a spoiler that closes leaves them out anyway, and one
    /// still open at the end gets them back (``restoreUnclosedSpoiler()``).
    var spoilerOpenerByte: Int?
    var spoilerOpenerUTF16 = 0
    /// Index in `entities` of the first entity inside the open spoiler.
    var spoilerFirstEntity = 0

    /// Where the open backtick sits in `out`, if code is open.
    var codeOpenerByte: Int?
    var codeOpenerUTF16 = 0
    /// Input offset just after the open backtick, to read again from if it is unmatched.
    var codeResumeInput = 0
    /// False once an unmatched backtick was seen: the rest of the input has no code.
    var codeAllowed = true

    init(output: PlainOutput) {
        out = output
    }

    static let pipe = UInt8(ascii: "|")
    static let backslash = UInt8(ascii: "\\")
    static let backtick = UInt8(ascii: "`")

    mutating func scan(_ p: UnsafeBufferPointer<UInt8>) {
        PlainScanner.unitsPerByte.withUnsafeBufferPointer { scan(p, table: $0) }
    }

    private mutating func scan(_ p: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>) {
        let n = p.count
        var i = 0
        while true {
            while i < n {
                let b = p[i]
                switch b {
                case PlainScanner.backslash:
                    if i + 1 < n, PlainScanner.isEscapable(p[i + 1]) {
                        appendASCII(p[i + 1])
                        i += 2
                    } else {
                        appendASCII(b)
                        i += 1
                    }
                case PlainScanner.pipe:
                    i = takePipe(p, at: i)
                case PlainScanner.backtick:
                    i = takeBacktick(at: i)
                default:
                    // A run of ordinary bytes, copied at once.
                    let start = i
                    var units = 0
                    // Eight bytes at a time while none is markup: UTF-16 units are the
                    // bytes that are not continuation bytes, plus one per four-byte lead.
                    let raw = UnsafeRawPointer(p.baseAddress!)
                    while i + 8 <= n {
                        let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        if PlainScanner.hasMarkup(v) { break }
                        let highs: UInt64 = 0x8080_8080_8080_8080
                        let continuations = v & ~(v << 1) & highs
                        let fourByteLeads = v & (v << 1) & (v << 2) & (v << 3) & highs
                        units &+=
                            8 - PlainScanner.highBitCount(continuations)
                            + PlainScanner.highBitCount(fourByteLeads)
                        i += 8
                    }
                    while i < n {
                        // UTF-16 units per byte: lead bytes start a scalar, four-byte
                        // sequences are two units; markup characters stop the run.
                        let u = table[Int(p[i])]
                        if u == PlainScanner.markup { break }
                        units &+= Int(u)
                        i += 1
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<i]))
                    utf16Count += units
                }
            }
            guard let resume = restartAfterUnmatchedBacktick() else { break }
            i = resume
        }
        restoreUnclosedSpoiler()
    }

    /// A `|` at `p[i]`, not escaped: a pair outside code opens or closes a spoiler, any
    /// other is text. Returns where the next character starts.
    @inline(__always)
    mutating func takePipe(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        if codeOpenerByte == nil, i + 1 < p.count, p[i + 1] == PlainScanner.pipe {
            pipePair()
            return i + 2
        }
        appendASCII(PlainScanner.pipe)
        return i + 1
    }

    /// A backtick at input offset `i`, not escaped. Returns where the next character starts.
    @inline(__always)
    mutating func takeBacktick(at i: Int) -> Int {
        if codeAllowed {
            backtick(resumeAt: i + 1)
        } else {
            appendASCII(PlainScanner.backtick)
        }
        return i + 1
    }

    /// At the end of the input: if a backtick was left unmatched, keeps it as text, drops
    /// what followed it and returns the input offset to read again from, without code;
    /// nil when no code is open.
    mutating func restartAfterUnmatchedBacktick() -> Int? {
        guard let opener = codeOpenerByte else { return nil }
        out.truncate(to: opener + 1)
        utf16Count = codeOpenerUTF16 + 1
        codeOpenerByte = nil
        codeAllowed = false
        return codeResumeInput
    }

    /// An upper bound of the entities a scan of `p` makes: a spoiler takes two `||` that do
    /// not overlap (at most half of a run of pipes each), code two backticks.
    ///
    /// - Complexity: O(n), eight bytes at a time where there is no markup.
    static func entityBound(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        let n = p.count
        guard let base = p.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var pipePairs = 0
        var backticks = 0
        var i = 0
        while i < n {
            if i + 8 <= n && !hasMarkup(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) {
                i += 8
                continue
            }
            let b = p[i]
            if b == pipe && i + 1 < n && p[i + 1] == pipe {
                pipePairs += 1
                i += 2
                continue
            }
            if b == backtick { backticks += 1 }
            i += 1
        }
        return pipePairs / 2 + backticks / 2
    }

    /// How many bytes of `v` have their high bit set, when no other bit is: the bytes
    /// summed by a multiply (`nonzeroBitCount` without POPCNT, the x86-64 baseline, is a
    /// dozen instructions).
    @inline(__always)
    static func highBitCount(_ v: UInt64) -> Int {
        Int(truncatingIfNeeded: ((v >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }

    /// Whether any of the eight bytes of `v` is `|`, `\` or a backtick.
    @inline(__always)
    static func hasMarkup(_ v: UInt64) -> Bool {
        ByteLanes.equal(v, 0x7C) | ByteLanes.equal(v, 0x5C) | ByteLanes.equal(v, 0x60) != 0
    }

    /// A byte's weight in UTF-16 code units, or ``markup`` for `|`, `\` and `` ` ``.
    static let unitsPerByte: [UInt8] = (0...255).map { (b: Int) -> UInt8 in
        switch b {
        case 0x7C, 0x5C, 0x60: return markup
        case 0x80...0xBF: return 0
        case 0xF0...0xFF: return 2
        default: return 1
        }
    }
    static let markup: UInt8 = 255

    static func isEscapable(_ b: UInt8) -> Bool {
        b == pipe || b == backslash || b == backtick
    }

    mutating func appendASCII(_ b: UInt8) {
        out.append(b)
        utf16Count += 1
    }

    /// An unescaped `||` outside code. Inlined: the scan of a JSON string keeps its
    /// constants in registers across it, which a call made it load again after.
    @inline(__always)
    mutating func pipePair() {
        if let opener = spoilerOpenerByte {
            if out.count != opener {
                // Close: the opener was never written, so the text inside is in place.
                let spoiler = Entity(.spoiler, offset: spoilerOpenerUTF16, length: utf16Count - spoilerOpenerUTF16)
                if spoilerFirstEntity == entities.count {
                    entities.append(spoiler)
                } else {
                    entities.insert(spoiler, at: spoilerFirstEntity)
                }
                spoilerOpenerByte = nil
                return
            }
            // An opener directly followed by `||` stays literal, and this one opens.
            out.append(PlainScanner.pipe)
            out.append(PlainScanner.pipe)
            utf16Count += 2
        }
        // Open, writing nothing yet.
        spoilerOpenerByte = out.count
        spoilerOpenerUTF16 = utf16Count
        spoilerFirstEntity = entities.count
    }

    /// At the end of the input: a spoiler still open is literal text, so its `||` goes
    /// back where it was met, and the entities made since (code inside it) move two
    /// UTF-16 units on.
    mutating func restoreUnclosedSpoiler() {
        guard let opener = spoilerOpenerByte else { return }
        out.insertPair(PlainScanner.pipe, at: opener)
        utf16Count += 2
        for k in spoilerFirstEntity..<entities.count { entities[k].offset += 2 }
        spoilerOpenerByte = nil
    }

    /// An unescaped backtick while code is allowed. Inlined, as ``pipePair()`` is.
    @inline(__always)
    mutating func backtick(resumeAt next: Int) {
        if let opener = codeOpenerByte, out.count != opener + 1 {
            out.removeSubrange(opener..<(opener + 1))
            utf16Count -= 1
            entities.append(Entity(.code, offset: codeOpenerUTF16, length: utf16Count - codeOpenerUTF16))
            codeOpenerByte = nil
            return
        }
        codeOpenerByte = out.count
        codeOpenerUTF16 = utf16Count
        codeResumeInput = next
        out.append(PlainScanner.backtick)
        utf16Count += 1
    }
}
