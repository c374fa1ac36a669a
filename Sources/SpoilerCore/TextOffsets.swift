/// Exact conversions between the ways of counting positions in a string: UTF-16 code
/// units (Telegram entity offsets), UTF-8 bytes, and `String.Index`.
///
/// Conversions return nil for offsets that are out of range or fall inside a scalar
/// (a surrogate pair, or a multi-byte UTF-8 sequence).
extension String {
    /// The index at UTF-16 offset `utf16Offset`, if it is on a Unicode scalar boundary.
    public func index(atUTF16Offset utf16Offset: Int) -> String.Index? {
        guard utf16Offset >= 0,
            let i = utf16.index(utf16.startIndex, offsetBy: utf16Offset, limitedBy: utf16.endIndex)
        else { return nil }
        return i.samePosition(in: unicodeScalars)
    }

    /// The index at UTF-8 offset `utf8Offset`, if it is on a Unicode scalar boundary.
    public func index(atUTF8Offset utf8Offset: Int) -> String.Index? {
        guard utf8Offset >= 0,
            let i = utf8.index(utf8.startIndex, offsetBy: utf8Offset, limitedBy: utf8.endIndex)
        else { return nil }
        return i.samePosition(in: unicodeScalars)
    }

    /// The UTF-16 offset of `index`.
    public func utf16Offset(of index: String.Index) -> Int {
        utf16.distance(from: utf16.startIndex, to: index)
    }

    /// The UTF-8 offset of `index`.
    public func utf8Offset(of index: String.Index) -> Int {
        utf8.distance(from: utf8.startIndex, to: index)
    }

    /// The UTF-8 offset matching UTF-16 offset `utf16Offset`, if it is a scalar boundary.
    public func utf8Offset(forUTF16Offset utf16Offset: Int) -> Int? {
        index(atUTF16Offset: utf16Offset).map { utf8Offset(of: $0) }
    }

    /// The UTF-16 offset matching UTF-8 offset `utf8Offset`, if it is a scalar boundary.
    public func utf16Offset(forUTF8Offset utf8Offset: Int) -> Int? {
        index(atUTF8Offset: utf8Offset).map { utf16Offset(of: $0) }
    }
}

/// Validation of UTF-8 input bytes.
public enum UTF8Validation {
    /// The byte offset of the first invalid UTF-8 sequence in `bytes`, or nil when all of
    /// it is valid UTF-8; the same answer as the generic version, with a fast path that
    /// skips ASCII eight bytes at a time.
    ///
    /// - Complexity: O(n).
    public static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
    }

    /// The offset, from the start of the slice, of the first invalid UTF-8 sequence in
    /// `bytes`, or nil when all of it is valid UTF-8; the array version's fast path.
    ///
    /// - Complexity: O(n).
    public static func firstInvalidOffset(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { firstInvalidOffset(in: $0) }
    }

    /// The byte offset of the first invalid UTF-8 sequence in `bytes`, or nil when all of
    /// it is valid UTF-8, as the array version.
    ///
    /// - Complexity: O(n).
    public static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        return automatonRows.withUnsafeBufferPointer { rows in
            firstInvalidOffset(base, count: bytes.count, rows: rows.baseAddress!)
        }
    }

    /// ``firstInvalidOffset(in:)-(UnsafeBufferPointer<UInt8>)`` with the automaton's rows at
    /// hand: eight ASCII bytes between whole sequences are passed over at once, any other
    /// eight go through the automaton (``step(_:_:rows:)``) without a branch on each
    /// sequence's length.
    private static func firstInvalidOffset(_ base: UnsafePointer<UInt8>, count n: Int, rows: UnsafePointer<UInt64>)
        -> Int?
    {
        let raw = UnsafeRawPointer(base)
        var state = acceptState
        var i = 0
        while i + 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if state != acceptState || v & 0x8080_8080_8080_8080 != 0 {
                let before = state
                state = step(state, through: v, rows: rows)
                if state == errorState {
                    return invalidSequenceStart(base, from: i, state: before, rows: rows)
                }
            }
            i += 8
        }
        let before = state
        for j in i..<n { state = step(state, base[j], rows: rows) }
        if state == errorState { return invalidSequenceStart(base, from: i, state: before, rows: rows) }
        // A sequence cut short by the end starts at its lead byte.
        return state == acceptState ? nil : sequenceStart(base, before: n)
    }

    /// Where the invalid sequence starts that takes the automaton from `state` at byte
    /// `i` to ``errorState`` at a later byte: that byte itself when it came between whole
    /// sequences, or else the lead byte of the sequence it broke.
    private static func invalidSequenceStart(
        _ base: UnsafePointer<UInt8>, from i: Int, state: UInt64, rows: UnsafePointer<UInt64>
    ) -> Int {
        var state = state
        var k = i
        while true {
            let next = step(state, base[k], rows: rows)
            if next == errorState { return state == acceptState ? k : sequenceStart(base, before: k) }
            state = next
            k += 1
        }
    }

    /// The lead byte of the unfinished sequence that ends before byte `end`: the last byte
    /// before it that is no continuation byte (at most three back, in a sequence the
    /// automaton took so far).
    private static func sequenceStart(_ base: UnsafePointer<UInt8>, before end: Int) -> Int {
        var k = end - 1
        while base[k] & 0xC0 == 0x80 { k -= 1 }
        return k
    }

    /// The byte offset of the first invalid UTF-8 sequence in `bytes`, or nil when all of
    /// it is valid UTF-8 (overlong forms, surrogates and values past U+10FFFF are invalid).
    ///
    /// - Complexity: O(n).
    public static func firstInvalidOffset(in bytes: some Collection<UInt8>) -> Int? {
        var need = 0
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        var start = 0
        var i = 0
        for b in bytes {
            if need == 0 {
                start = i
                switch b {
                case 0x00...0x7F: break
                case 0xC2...0xDF: need = 1
                case 0xE0: need = 2; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: need = 2
                case 0xED: need = 2; upper = 0x9F
                case 0xF0: need = 3; lower = 0x90
                case 0xF1...0xF3: need = 3
                case 0xF4: need = 3; upper = 0x8F
                default: return i
                }
            } else {
                guard b >= lower && b <= upper else { return start }
                lower = 0x80
                upper = 0xBF
                need -= 1
            }
            i += 1
        }
        return need == 0 ? nil : start
    }
}
