import SpoilerCore

extension PlainScanner {
    /// Reads plain markup from the raw bytes of a JSON string that starts at `p[0]`, just
    /// after its opening quote, and writes the text as the quoted JSON string's content:
    /// in one pass, what reading the string (``UTF8Validation`` included), decoding its
    /// escapes, ``scan(_:)`` and ``JSONByteCursor/quoted(utf8:)`` give in four. Returns
    /// the offset of the closing quote in `p`; nil, with the output to be dropped, where
    /// the string is not one the NDJSON fast path reads: invalid UTF-8, a raw control
    /// character, a `\u` escape, an escape JSON does not have, or no closing quote.
    ///
    /// Each decoded character is taken as ``scan(_:)`` takes it, and written as the JSON
    /// writer writes it: `\"`, `\\`, `\n`, `\r`, `\t`, a `\u` escape for the other
    /// controls, DEL, C1 controls and the bidirectional formatting characters
    /// (``JSONWriter/escapedSequence(_:at:)``), any other character as it is. A delimiter
    /// is one byte both ways, so that the positions of open delimiters in the output serve
    /// as they do in ``scan(_:)``, and UTF-16 offsets count the decoded text.
    ///
    /// With `decoding`, the text itself is written instead, every character as it is
    /// (what decoding the escapes and ``scan(_:)`` give), for a caller that needs the text.
    ///
    /// - Parameters:
    ///   - p: The line's bytes from just after the string's opening quote on.
    ///   - decoding: Write the text rather than its JSON.
    /// - Precondition: The output has room for six bytes for each byte of `p` (one with
    ///   `decoding`), and eight more.
    mutating func scanJSON(_ p: UnsafeBufferPointer<UInt8>, decoding: Bool = false) -> Int? {
        PlainScanner.unitsPerJSONByte.withUnsafeBufferPointer { table in
            UTF8Validation.automatonRows.withUnsafeBufferPointer { rows in
                scanJSON(p, table: table, rows: rows.baseAddress!, decoding: decoding)
            }
        }
    }

    private mutating func scanJSON(
        _ p: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>, rows: UnsafePointer<UInt64>,
        decoding: Bool
    ) -> Int? {
        let n = p.count
        let accept = UTF8Validation.acceptState
        // The UTF-8 automaton's state: outside the ordinary runs, always `accept`.
        var state = accept
        var i = 0
        while true {
            while true {
                guard i < n else { return nil }
                let b = p[i]
                if b == PlainScanner.quote { break }
                switch b {
                case PlainScanner.backslash:
                    guard let next = jsonEscape(p, at: i, decoding: decoding) else { return nil }
                    i = next
                case PlainScanner.pipe:
                    i = takePipe(p, at: i)
                case PlainScanner.backtick:
                    i = takeBacktick(at: i)
                case 0x7F:
                    if decoding { appendASCII(b) } else { unicodeEscape(0x7F) }
                    i += 1
                case 0xC2, 0xE2:
                    let length = b == 0xC2 ? 2 : 3
                    guard i + length <= n else { return nil }
                    for k in i..<(i + length) { state = UTF8Validation.step(state, p[k], rows: rows) }
                    guard state == accept else { return nil }
                    if !decoding, let (scalar, _) = JSONWriter.escapedSequence(p, at: i) {
                        unicodeEscape(scalar)
                    } else {
                        // Any other character they start, as it is: one UTF-16 unit.
                        out.append(b)
                        out.append(p[i + 1])
                        if length == 3 { out.append(p[i + 2]) }
                        utf16Count += 1
                    }
                    i += length
                case 0x00..<0x20:
                    return nil
                default:
                    // A run of bytes that are written as they are: eight at a time while
                    // none needs a look, each word stored whole (the output has room for
                    // it) and checked by the automaton unless it is ASCII between whole
                    // sequences, then byte by byte. The run ends between whole sequences.
                    var units = 0
                    let raw = UnsafeRawPointer(p.baseAddress!)
                    let highs: UInt64 = 0x8080_8080_8080_8080
                    var atLook = false
                    while i + 8 <= n {
                        var v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                        let looks = PlainScanner.jsonLookMask(v)
                        // The bytes before the first that needs a look (all eight if none
                        // does); the automaton reads the others as spaces, which leave it
                        // where it was between whole sequences and fail it inside one, as
                        // the byte that needs a look would.
                        let k = looks == 0 ? 8 : looks.trailingZeroBitCount >> 3
                        if looks != 0 {
                            let kept = ~(UInt64.max << (k << 3))
                            v = v & kept | 0x2020_2020_2020_2020 & ~kept
                            atLook = true
                        }
                        // One branch for both tests (the states are below 64).
                        if (state ^ accept) | (v & highs) != 0 {
                            state = UTF8Validation.step(state, through: v, rows: rows)
                        }
                        out.appendWord(v, keeping: k)
                        // UTF-16 units: the kept bytes (the spaces after them are one unit
                        // each, taken off), counted by one multiply.
                        units &+= PlainScanner.utf16Units(v) &- 8 &+ k
                        i += k
                        if atLook { break }
                    }
                    while !atLook && i < n {
                        let u = table[Int(p[i])]
                        if u == PlainScanner.markup { break }
                        state = UTF8Validation.step(state, p[i], rows: rows)
                        out.append(p[i])
                        units &+= Int(u)
                        i += 1
                    }
                    guard state == accept else { return nil }
                    utf16Count += units
                }
            }
            guard let resume = restartAfterUnmatchedBacktick() else { return i }
            i = resume
        }
    }

    /// The JSON escape at `p[i]`: its character taken as ``scan(_:)`` takes it, or nil for
    /// a `\u` escape or one JSON does not have. A decoded backslash is plain markup's
    /// escape, so the character after it is looked at as well. Returns where the next
    /// character starts.
    @inline(__always)
    private mutating func jsonEscape(_ p: UnsafeBufferPointer<UInt8>, at i: Int, decoding: Bool) -> Int? {
        let n = p.count
        guard i + 1 < n else { return nil }
        let e = p[i + 1]
        switch e {
        case PlainScanner.backslash:
            // A backslash; before `|`, a backtick or another backslash (`\\` raw) that
            // character is literal, before anything else the backslash itself is.
            let j = i + 2
            if j < n, p[j] == PlainScanner.pipe || p[j] == PlainScanner.backtick {
                appendASCII(p[j])
                return j + 1
            }
            let next = j + 1 < n && p[j] == PlainScanner.backslash && p[j + 1] == PlainScanner.backslash ? j + 2 : j
            if decoding {
                appendASCII(PlainScanner.backslash)
            } else {
                twoBytes(PlainScanner.backslash, PlainScanner.backslash)
            }
            return next
        case PlainScanner.quote, UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            // Written back the same, or decoded.
            if decoding {
                appendASCII(
                    e == UInt8(ascii: "n") ? 0x0A : e == UInt8(ascii: "r") ? 0x0D : e == UInt8(ascii: "t") ? 0x09 : e)
            } else {
                twoBytes(PlainScanner.backslash, e)
            }
        case UInt8(ascii: "/"):
            appendASCII(e)
        case UInt8(ascii: "b"):
            if decoding { appendASCII(0x08) } else { unicodeEscape(0x08) }
        case UInt8(ascii: "f"):
            if decoding { appendASCII(0x0C) } else { unicodeEscape(0x0C) }
        default:
            // `\u`, for the reader that decodes it, or no JSON escape at all.
            return nil
        }
        return i + 2
    }

    /// Writes an escaped character that is one UTF-16 unit of the text.
    @inline(__always)
    private mutating func twoBytes(_ a: UInt8, _ b: UInt8) {
        out.append(a)
        out.append(b)
        utf16Count += 1
    }

    /// Writes `\u` and four lowercase hex digits for a character below U+10000, one UTF-16
    /// unit of the text.
    private mutating func unicodeEscape(_ v: UInt32) {
        let hex: StaticString = "0123456789abcdef"
        let digits = hex.utf8Start
        out.append(PlainScanner.backslash)
        out.append(UInt8(ascii: "u"))
        out.append(digits[Int(v >> 12 & 15)])
        out.append(digits[Int(v >> 8 & 15)])
        out.append(digits[Int(v >> 4 & 15)])
        out.append(digits[Int(v & 15)])
        utf16Count += 1
    }

    static let quote = UInt8(ascii: "\"")

    /// Which of the eight bytes of `v` is markup (`|`, `\`, a backtick), ends the
    /// string or is not allowed in it (`"`, a control), or may need a JSON escape in the
    /// output (DEL, or C2 or E2, which start the C1 controls and the bidirectional
    /// formatting characters).
    ///
    /// Returns the high bit of each byte that may be one: none is missed, and the lowest
    /// one marked is one of them (a borrow marks only bytes above a real one).
    ///
    /// Six tests rather than eight: with bit 5 set in every byte, `\` and `|` are both
    /// 0x7C, C2 and E2 both E2, and `"` is 0x22 (as is 0x02, a control marked anyway);
    /// no other byte becomes one of them.
    @inline(__always)
    static func jsonLookMask(_ v: UInt64) -> UInt64 {
        let folded = v | 0x2020_2020_2020_2020
        return ByteLanes.below(v, 0x20) | ByteLanes.equal(folded, 0x22) | ByteLanes.equal(folded, 0x7C)
            | ByteLanes.equal(folded, 0xE2) | ByteLanes.equal(v, 0x60) | ByteLanes.equal(v, 0x7F)
    }

    /// The UTF-16 units of the eight bytes of `v`, taken as text cut between whole
    /// sequences: each byte that is no continuation byte is one, and a four-byte lead one
    /// more (as ``unitsPerByte`` weighs them).
    ///
    /// Each byte's weight, 1 − (continuation) + (four-byte lead), is 0, 1 or 2 with no
    /// borrow (a byte is never both), and one multiply sums the eight.
    @inline(__always)
    static func utf16Units(_ v: UInt64) -> Int {
        let continuations = v & ~(v << 1) & ByteLanes.highs
        let fourByteLeads = v & (v << 1) & (v << 2) & (v << 3) & ByteLanes.highs
        let weights = ByteLanes.ones &- continuations >> 7 &+ fourByteLeads >> 7
        return Int(truncatingIfNeeded: (weights &* ByteLanes.ones) >> 56)
    }

    /// ``unitsPerByte`` with the controls, `"`, DEL, C2 and E2 marked as well.
    static let unitsPerJSONByte: [UInt8] = (0...255).map { (b: Int) -> UInt8 in
        switch b {
        case 0x00..<0x20, 0x22, 0x7F, 0xC2, 0xE2: return markup
        default: return unitsPerByte[b]
        }
    }
}
