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
        let n = bytes.count
        guard let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while i < n {
            while i + 8 <= n && raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i += 8
            }
            if i >= n { break }
            if base[i] < 0x80 {
                i += 1
                continue
            }
            guard let length = sequenceLength(base, at: i, count: n) else { return i }
            i += length
        }
        return nil
    }

    /// The length of the valid UTF-8 sequence that starts with the byte at `i` of the
    /// `count` bytes at `base`, a byte of 0x80 or more; nil when no valid sequence starts
    /// there (a continuation byte, C0, C1 or F5 and above, a sequence cut short by `count`,
    /// an overlong form, a surrogate, or a scalar past U+10FFFF).
    ///
    /// The one place the package spells out these rules for bytes read through a pointer:
    /// ``firstInvalidOffset(in:)-(UnsafeBufferPointer<UInt8>)`` and the NDJSON line reader
    /// both call it.
    ///
    /// ```swift
    /// let bytes: [UInt8] = Array("é!".utf8)
    /// let n = bytes.withUnsafeBufferPointer { UTF8Validation.sequenceLength($0.baseAddress!, at: 0, count: $0.count) }
    /// // n == 2
    /// ```
    ///
    /// - Parameters:
    ///   - base: The bytes.
    ///   - i: Where the sequence starts; `base[i]` is 0x80 or more.
    ///   - count: How many bytes there are at `base`.
    /// - Returns: 2, 3 or 4, or nil.
    @inlinable @inline(__always)
    public static func sequenceLength(_ base: UnsafePointer<UInt8>, at i: Int, count: Int) -> Int? {
        let b = base[i]
        // One branch per sequence length, with the second byte's range narrowed for E0
        // and F0 (overlong forms), ED (surrogates) and F4 (past U+10FFFF).
        @inline(__always) func isContinuation(_ k: Int) -> Bool { base[k] & 0xC0 == 0x80 }
        if b < 0xE0 {
            guard b >= 0xC2, i + 1 < count, isContinuation(i + 1) else { return nil }
            return 2
        }
        if b < 0xF0 {
            guard i + 2 < count else { return nil }
            let c = base[i + 1]
            let ok =
                switch b {
                case 0xE0: c >= 0xA0 && c <= 0xBF
                case 0xED: c >= 0x80 && c <= 0x9F
                default: c & 0xC0 == 0x80
                }
            guard ok, isContinuation(i + 2) else { return nil }
            return 3
        }
        guard b <= 0xF4, i + 3 < count else { return nil }
        let c = base[i + 1]
        let ok =
            switch b {
            case 0xF0: c >= 0x90 && c <= 0xBF
            case 0xF4: c >= 0x80 && c <= 0x8F
            default: c & 0xC0 == 0x80
            }
        guard ok, isContinuation(i + 2), isContinuation(i + 3) else { return nil }
        return 4
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
