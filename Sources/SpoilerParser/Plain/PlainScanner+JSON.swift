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
    ///   - checkingUTF8: Check the string's UTF-8 (with `decoding` only). Without it the
    ///     caller checks the text, which is valid UTF-8 exactly when the string is: what
    ///     the scan leaves out or puts in is ASCII, and where a delimiter it may leave out
    ///     (`||`, a backtick) comes right before a continuation byte (which could join two
    ///     parts of a sequence the string does not have), the string is checked here all
    ///     the same.
    /// - Precondition: The output has room for six bytes for each byte of `p` (one with
    ///   `decoding`), and eight more.
    mutating func scanJSON(_ p: UnsafeBufferPointer<UInt8>, decoding: Bool = false, checkingUTF8: Bool = true) -> Int? {
        // The automaton's rows only where the scan steps it: decoding checks the text by
        // lanes (and each fetch of the rows runs their lazy initialiser's check).
        decoding
            ? scanJSONDecoding(p, checkingUTF8: checkingUTF8)
            : scanJSONEscaping(p, rows: UTF8Validation.automatonRowStorage)
    }

    /// ``scanJSON(_:decoding:)`` writing the text's JSON: a copy of its own, with the
    /// look mask of the escapes.
    @inline(never)
    private mutating func scanJSONEscaping(_ p: UnsafeBufferPointer<UInt8>, rows: UnsafePointer<UInt64>) -> Int? {
        scanJSON(p, rows: rows, decoding: false, checkingUTF8: true)
    }

    /// ``scanJSON(_:decoding:)`` writing the text: a copy of its own, whose look mask
    /// leaves out DEL, C2 and E2, written as they are.
    @inline(never)
    private mutating func scanJSONDecoding(
        _ p: UnsafeBufferPointer<UInt8>, checkingUTF8: Bool
    ) -> Int? {
        scanJSON(p, rows: nil, decoding: true, checkingUTF8: checkingUTF8)
    }

    /// The scan, one loop over eight-byte words. Each word is stored whole up to the first
    /// byte that needs a look (all eight if none does); that byte is taken at once, in the
    /// same loop. The output's length and the text's UTF-16 length stay in locals, stored
    /// back only around a delimiter's own function, which reads and writes them.
    ///
    /// Writing JSON, the UTF-8 automaton is stepped through every word; a byte that needs a
    /// look is read by it as a space, which leaves it where it was between whole sequences
    /// and fails it inside one. Its error state is never left, so one check at the closing
    /// quote covers the whole text (what was written after an error is dropped with the
    /// rest). Decoding, where every byte that needs a look is ASCII, the text is checked
    /// on its own once its closing quote is found (``isValidUTF8(_:through:)``), sixteen
    /// bytes at a time and each once, rather than word by word as the scan goes, which
    /// reads again the bytes after each look. `rows` (the automaton's) is read only when
    /// writing JSON, and may be nil when decoding.
    @inline(__always)
    private mutating func scanJSON(
        _ p: UnsafeBufferPointer<UInt8>, rows: UnsafePointer<UInt64>?, decoding: Bool, checkingUTF8: Bool
    ) -> Int? {
        let n = p.count
        guard n > 0, let first = p.baseAddress else { return nil }
        let raw = UnsafeRawPointer(first)
        let accept = UTF8Validation.acceptState
        let spaces: UInt64 = 0x2020_2020_2020_2020
        var state = accept
        let room = out.start
        let capacity = out.room
        var count = out.count
        var units = utf16Count
        var i = 0
        // Decoding, whether the text's UTF-8 was checked (at the closing quote, once), and
        // whether a delimiter that may be left out came right before a continuation byte.
        var checked = false
        var uncheckedJoin = false
        while true {
            // Sixteen bytes, as two words, and the bytes of each that need a look.
            let w0: UInt64
            let w1: UInt64
            let lanes: SIMD16<UInt8>
            if i &+ 16 <= n {
                // The lanes loaded as they are (built from the words, they cost a shuffle).
                lanes = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                w0 = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                w1 = raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            } else {
                // The last bytes, with zeros (controls, which need a look) after them.
                guard i < n else { return nil }
                (w0, w1) = PlainScanner.lastBytes(p, from: i)
                lanes = unsafeBitCast(SIMD2(w0, w1), to: SIMD16<UInt8>.self)
            }
            let marks = unsafeBitCast(
                decoding ? PlainScanner.decodedLookLanes(lanes) : PlainScanner.jsonLookLanes(lanes),
                to: SIMD2<UInt64>.self)
            var v = w0
            var looks = marks[0]
            if looks == 0 {
                if decoding && marks[1] == 0 {
                    // Sixteen bytes with none to look at.
                    precondition(count &+ 16 <= capacity, "plain output outgrew its room (\(capacity) bytes)")
                    let at = UnsafeMutableRawPointer(room + count)
                    at.storeBytes(of: w0, as: UInt64.self)
                    at.storeBytes(of: w1, toByteOffset: 8, as: UInt64.self)
                    count &+= 16
                    units &+= PlainScanner.utf16Units(lanes)
                    i &+= 16
                    continue
                }
                PlainScanner.take(
                    v, keeping: 8, state: &state, stepping: !decoding, rows: rows, room: room, count: &count,
                    capacity: capacity, units: &units)
                i &+= 8
                v = w1
                looks = marks[1]
                if !decoding && looks == 0 {
                    PlainScanner.take(
                        v, keeping: 8, state: &state, stepping: true, rows: rows, room: room, count: &count,
                        capacity: capacity, units: &units)
                    i &+= 8
                    continue
                }
            }
            // The word with the first byte that needs a look: the bytes before it, and the
            // automaton reads the others as spaces.
            let k = looks.trailingZeroBitCount >> 3
            let kept = ~(UInt64.max << (k << 3))
            v = v & kept | spaces & ~kept
            PlainScanner.take(
                v, keeping: k, state: &state, stepping: !decoding, rows: rows, room: room, count: &count,
                capacity: capacity, units: &units)
            i &+= k
            // The byte that needs a look; past the last byte, no closing quote.
            guard i < n else { return nil }
            let b = p[i]
            switch b {
            case PlainScanner.quote:
                if decoding {
                    // The text's UTF-8, checked on its own now that its end is known, or
                    // left to the caller (where no delimiter taken out may have joined two
                    // parts of a sequence: then it is checked here all the same).
                    if checkingUTF8 || uncheckedJoin {
                        guard checked || PlainScanner.isValidUTF8(p, through: i) else { return nil }
                        checked = true
                        uncheckedJoin = false
                    }
                } else {
                    guard state == accept else { return nil }
                }
                out.setCount(count)
                utf16Count = units
                guard let resume = restartAfterUnmatchedBacktick() else {
                    restoreUnclosedSpoiler()
                    return i
                }
                i = resume
                count = out.count
                units = utf16Count
            case PlainScanner.pipe:
                if codeOpenerByte == nil, i + 1 < n, p[i + 1] == PlainScanner.pipe {
                    // A continuation byte right after a delimiter the text may leave out:
                    // the bytes around it could join into a sequence the string does not
                    // have.
                    if i &+ 2 < n && p[i &+ 2] & 0xC0 == 0x80 { uncheckedJoin = true }
                    out.setCount(count)
                    utf16Count = units
                    pipePair()
                    count = out.count
                    units = utf16Count
                    i += 2
                } else {
                    precondition(count < capacity, "plain output outgrew its room (\(capacity) bytes)")
                    room[count] = PlainScanner.pipe
                    count += 1
                    units += 1
                    i += 1
                }
            case PlainScanner.backslash:
                out.setCount(count)
                utf16Count = units
                guard let next = jsonEscape(p, at: i, decoding: decoding) else { return nil }
                count = out.count
                units = utf16Count
                i = next
            case PlainScanner.backtick:
                // A code span's backticks are left out too.
                if i &+ 1 < n && p[i &+ 1] & 0xC0 == 0x80 { uncheckedJoin = true }
                out.setCount(count)
                utf16Count = units
                i = takeBacktick(at: i)
                count = out.count
                units = utf16Count
            case 0x7F where !decoding:
                out.setCount(count)
                utf16Count = units
                unicodeEscape(0x7F)
                count = out.count
                units = utf16Count
                i += 1
            case 0xC2 where !decoding, 0xE2 where !decoding:
                let length = b == 0xC2 ? 2 : 3
                guard i + length <= n else { return nil }
                for j in i..<(i + length) { state = UTF8Validation.step(state, p[j], rows: rows!) }
                guard state == accept else { return nil }
                if let (scalar, _) = JSONWriter.escapedSequence(p, at: i) {
                    out.setCount(count)
                    utf16Count = units
                    unicodeEscape(scalar)
                    count = out.count
                    units = utf16Count
                } else {
                    // Any other character they start, as it is: one UTF-16 unit.
                    precondition(count + 3 <= capacity, "plain output outgrew its room (\(capacity) bytes)")
                    room[count] = b
                    room[count + 1] = p[i + 1]
                    if length == 3 { room[count + 2] = p[i + 2] }
                    count += length
                    units += 1
                }
                i += length
            default:
                // A control character, which a JSON string may not hold raw. (Nothing else
                // is marked first; were it, nil would only send the line the general way.)
                return nil
            }
        }
    }

    /// Takes the first `k` bytes of the word `v` as they are: steps the UTF-8 automaton
    /// through all eight if `stepping`, stores the word at `room + count` (the room must
    /// hold eight bytes) and counts `k` bytes written and their UTF-16 units (the bytes
    /// after them, spaces, one unit each, taken off).
    @inline(__always)
    static func take(
        _ v: UInt64, keeping k: Int, state: inout UInt64, stepping: Bool, rows: UnsafePointer<UInt64>?,
        room: UnsafeMutablePointer<UInt8>, count: inout Int, capacity: Int, units: inout Int
    ) {
        if stepping { state = UTF8Validation.step(state, through: v, rows: rows!) }
        precondition(count &+ 8 <= capacity, "plain output outgrew its room (\(capacity) bytes)")
        UnsafeMutableRawPointer(room + count).storeBytes(of: v, as: UInt64.self)
        count &+= k
        units &+= PlainScanner.utf16Units(v) &- 8 &+ k
    }

    /// Whether the bytes of `p` up to `q`, the closing quote, are valid UTF-8: sixteen
    /// lanes at a time by ``utf8ErrorLanes(_:after:_:_:)``, each block once but the last
    /// (the sixteen bytes that end at the quote, some checked already), the lanes before
    /// each loaded where they lie, past the first block.
    @inline(__always)
    static func isValidUTF8(_ p: UnsafeBufferPointer<UInt8>, through q: Int) -> Bool {
        let raw = UnsafeRawPointer(p.baseAddress!)
        let end = q &+ 1
        if end < 16 {
            let (w0, w1) = lastBytes(UnsafeBufferPointer(rebasing: p[0..<end]), from: 0)
            return noneMarked(utf8ErrorLanes(unsafeBitCast(SIMD2(w0, w1), to: SIMD16<UInt8>.self), after: 0))
        }
        var bad = utf8ErrorLanes(raw.loadUnaligned(as: SIMD16<UInt8>.self), after: 0)
        var i = 16
        while i &+ 16 <= end {
            bad |= utf8ErrorLanes(at: raw + i)
            i &+= 16
        }
        if i < end {
            if end >= 19 {
                // The sixteen bytes that end at `end`, with three before them.
                bad |= utf8ErrorLanes(at: raw + (end &- 16))
            } else {
                // One or two bytes after the first sixteen.
                let (w0, w1) = lastBytes(UnsafeBufferPointer(rebasing: p[0..<end]), from: 16)
                bad |= utf8ErrorLanes(
                    unsafeBitCast(SIMD2(w0, w1), to: SIMD16<UInt8>.self),
                    after: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        }
        return noneMarked(bad)
    }

    /// Whether no lane of `lanes` has its high bit set.
    @inline(__always)
    static func noneMarked(_ lanes: SIMD16<UInt8>) -> Bool {
        let words = unsafeBitCast(lanes, to: SIMD2<UInt64>.self)
        return (words[0] | words[1]) & ByteLanes.highs == 0
    }

    /// ``utf8ErrorLanes(_:after:_:_:)`` for the sixteen bytes at `bytes`, the three before
    /// them readable.
    @inline(__always)
    static func utf8ErrorLanes(at bytes: UnsafeRawPointer) -> SIMD16<UInt8> {
        utf8ErrorLanes(
            bytes.loadUnaligned(as: SIMD16<UInt8>.self),
            after: bytes.loadUnaligned(fromByteOffset: -1, as: SIMD16<UInt8>.self),
            bytes.loadUnaligned(fromByteOffset: -2, as: SIMD16<UInt8>.self),
            bytes.loadUnaligned(fromByteOffset: -3, as: SIMD16<UInt8>.self))
    }

    /// ``utf8ErrorLanes(_:after:_:_:)`` for the sixteen bytes `lanes`, after the eight bytes
    /// of `before` (in memory order; zeros where nothing comes before): the lanes before
    /// them are loaded from a copy of both on the stack.
    @inline(__always)
    static func utf8ErrorLanes(_ lanes: SIMD16<UInt8>, after before: UInt64) -> SIMD16<UInt8> {
        var copy = (SIMD16<UInt8>(), SIMD16<UInt8>())
        return withUnsafeMutableBytes(of: &copy) { b in
            b.storeBytes(of: before, toByteOffset: 8, as: UInt64.self)
            b.storeBytes(of: lanes, toByteOffset: 16, as: SIMD16<UInt8>.self)
            return utf8ErrorLanes(
                lanes, after: b.loadUnaligned(fromByteOffset: 15, as: SIMD16<UInt8>.self),
                b.loadUnaligned(fromByteOffset: 14, as: SIMD16<UInt8>.self),
                b.loadUnaligned(fromByteOffset: 13, as: SIMD16<UInt8>.self))
        }
    }

    /// The lanes of `v` where UTF-8 text is invalid, given the three bytes before each
    /// (`back1`, `back2`, `back3`: `v` shifted on by one, two and three bytes): 0x80 in
    /// each such lane, 0 in the others. Text is valid UTF-8 exactly when no lane of it is
    /// marked, each looked at with the bytes before it (zeros before the first), so that
    /// lanes may be checked twice, or in any order, and a byte that ends the text is
    /// checked with its lane.
    ///
    /// A lane is invalid where it is a continuation byte and the bytes before it leave none
    /// to come, or the other way round: one is to come after a lead byte (C0 and up) one
    /// byte back, a three- or four-byte lead (E0 and up) two back, a four-byte lead (F0
    /// and up) three back. Then C0, C1 and F5 to FF are never valid, and four lead bytes
    /// narrow the range of the byte after them: E0 (A0 to BF: no overlong form), ED (80
    /// to 9F: no surrogate), F0 (90 to BF: no overlong form) and F4 (80 to 8F: nothing past
    /// U+10FFFF). What ``UTF8Validation/automatonRows`` accepts, lane by lane.
    @inline(__always)
    static func utf8ErrorLanes(
        _ v: SIMD16<UInt8>, after back1: SIMD16<UInt8>, _ back2: SIMD16<UInt8>, _ back3: SIMD16<UInt8>
    ) -> SIMD16<UInt8> {
        // Bits 6, 5 and 4 of each lane moved to bit 7 (a lane's high bit is then all that
        // is looked at; the lanes are added on their own, with no carry between them).
        let v2 = v &+ v
        let v4 = v2 &+ v2
        let v8 = v4 &+ v4
        let a2 = back1 &+ back1
        let b2 = back2 &+ back2
        let b4 = b2 &+ b2
        let c2 = back3 &+ back3
        let c4 = c2 &+ c2
        let c8 = c4 &+ c4
        let continuation = v & ~v2
        let expected = back1 & a2 | back2 & b2 & b4 | back3 & c2 & c4 & c8
        let never =
            v & ((v & SIMD16(repeating: 0x7F)) &+ SIMD16(repeating: 0x0B))
            | zero((v | SIMD16(repeating: 1)) ^ SIMD16(repeating: 0xC1))
        let narrowed =
            zero(back1 ^ SIMD16(repeating: 0xE0)) & ~v4 | zero(back1 ^ SIMD16(repeating: 0xED)) & v4
            | zero(back1 ^ SIMD16(repeating: 0xF0)) & ~(v4 | v8) | zero(back1 ^ SIMD16(repeating: 0xF4)) & (v4 | v8)
        return (continuation ^ expected | never | narrowed) & SIMD16(repeating: 0x80)
    }

    /// The bytes of `p` from `i` on, fewer than sixteen, as two words in memory order with
    /// zero bytes after them: the last sixteen bytes of `p` loaded at once and shifted
    /// down, or, when `p` is shorter than sixteen bytes, its bytes one by one.
    @inline(__always)
    static func lastBytes(_ p: UnsafeBufferPointer<UInt8>, from i: Int) -> (UInt64, UInt64) {
        let n = p.count
        if n >= 16 {
            let raw = UnsafeRawPointer(p.baseAddress!)
            let a = raw.loadUnaligned(fromByteOffset: n - 16, as: UInt64.self)
            let b = raw.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
            // The bytes to skip, 1 to 15.
            let skip = UInt64(i + 16 - n) << 3
            if skip < 64 { return (a >> skip | b << (64 - skip), b >> skip) }
            return (b >> (skip - 64), 0)
        }
        var w0: UInt64 = 0
        var w1: UInt64 = 0
        for j in i..<n {
            let shift = UInt64((j - i) & 7) << 3
            if j - i < 8 { w0 |= UInt64(p[j]) << shift } else { w1 |= UInt64(p[j]) << shift }
        }
        return (w0, w1)
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

    /// Which of the eight bytes of `v` needs a look when the text is decoded rather than
    /// written as JSON: markup (`|`, `\`, a backtick), the end of the string (`"`) or a
    /// control, which a string may not hold. DEL, C2 and E2 are written as they are.
    ///
    /// Returns the high bit of each byte that may be one, as ``jsonLookMask(_:)`` does:
    /// none is missed, and the lowest one marked is one of them.
    @inline(__always)
    static func decodedLookMask(_ v: UInt64) -> UInt64 {
        let folded = v | 0x2020_2020_2020_2020
        return ByteLanes.below(v, 0x20) | ByteLanes.equal(folded, 0x22) | ByteLanes.equal(folded, 0x7C)
            | ByteLanes.equal(v, 0x60)
    }

    /// ``jsonLookMask(_:)`` for sixteen bytes: 0x80 in each lane that needs a look, 0 in
    /// the others, exactly (lanes do not borrow from each other). Swift's lane-wise
    /// arithmetic compiles to SSE2 here, where its comparisons (`.==`) go byte by byte.
    @inline(__always)
    static func jsonLookLanes(_ v: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let folded = v | SIMD16(repeating: 0x20)
        return
            (below(v, 0x20) | zero(folded ^ SIMD16(repeating: 0x22)) | zero(folded ^ SIMD16(repeating: 0x7C))
            | zero(folded ^ SIMD16(repeating: 0xE2)) | zero(v ^ SIMD16(repeating: 0x60))
            | zero(v ^ SIMD16(repeating: 0x7F))) & SIMD16(repeating: 0x80)
    }

    /// ``decodedLookMask(_:)`` for sixteen bytes, exactly, as ``jsonLookLanes(_:)``.
    @inline(__always)
    static func decodedLookLanes(_ v: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let folded = v | SIMD16(repeating: 0x20)
        return
            (below(v, 0x20) | zero(folded ^ SIMD16(repeating: 0x22)) | zero(folded ^ SIMD16(repeating: 0x7C))
            | zero(v ^ SIMD16(repeating: 0x60))) & SIMD16(repeating: 0x80)
    }

    /// The high bit set in each lane of `x` that is zero (other bits may be set too).
    @inline(__always)
    private static func zero(_ x: SIMD16<UInt8>) -> SIMD16<UInt8> {
        (x &- SIMD16(repeating: 1)) & ~x
    }

    /// The high bit set in each lane of `v` below `bound`, at most 0x80 (other bits may be
    /// set too).
    @inline(__always)
    private static func below(_ v: SIMD16<UInt8>, _ bound: UInt8) -> SIMD16<UInt8> {
        (v &- SIMD16(repeating: bound)) & ~v
    }

    /// The UTF-16 units of the sixteen bytes of `v`, taken as ``utf16Units(_:)-(UInt64)``
    /// takes eight: each lane's weight, 1 − (continuation) + (four-byte lead), summed
    /// across the lanes.
    @inline(__always)
    static func utf16Units(_ v: SIMD16<UInt8>) -> Int {
        let v2 = v &+ v
        let v4 = v2 &+ v2
        let v8 = v4 &+ v4
        let continuations = (v & ~v2) &>> 7
        let fourByteLeads = (v & v2 & v4 & v8) &>> 7
        // The two halves added lane by lane (at most four a lane), then summed by one
        // multiply (`wrappedSum()` is a call of its own).
        let weights = unsafeBitCast(SIMD16(repeating: 1) &- continuations &+ fourByteLeads, to: SIMD2<UInt64>.self)
        return Int(truncatingIfNeeded: ((weights[0] &+ weights[1]) &* ByteLanes.ones) >> 56)
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
}
