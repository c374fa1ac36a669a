import SpoilerCore

/// Reads the JSON of a common chat message straight from its bytes — an object of
/// strings, whole numbers and arrays of such objects — for the fast paths of the Matrix
/// and Signal readers, which need no ``JSONValue`` tree for it.
///
/// It gives up (returns nil or false) at anything else: `\u` escapes, control characters,
/// other values, numbers that are not small whole non-negative ones, syntax errors. A
/// caller then reads the message with ``JSONValue`` as before, which also names the error.
/// The input is valid UTF-8 (``MessageParser`` checks it first).
struct FlatJSONReader {
    let b: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { b = bytes }

    mutating func skipSpace() {
        while i < b.count && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 }
    }

    /// Takes `c` after optional whitespace.
    mutating func take(_ c: UInt8) -> Bool {
        skipSpace()
        guard i < b.count, b[i] == c else { return false }
        i += 1
        return true
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool {
        skipSpace()
        return i == b.count
    }

    /// A string's bytes, escapes decoded (a slice of the input when it has none).
    mutating func string() -> ArraySlice<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        while i < b.count && b[i] != UInt8(ascii: "\"") && b[i] != UInt8(ascii: "\\") && b[i] >= 0x20 { i += 1 }
        guard i < b.count, b[i] != UInt8(ascii: "\"") else {
            defer { i += 1 }
            return i < b.count ? b[start..<i] : nil
        }
        guard b[i] == UInt8(ascii: "\\") else { return nil }
        var out = Array(b[start..<i])
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                i += 1
                return out[...]
            }
            guard c >= 0x20 else { return nil }
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < b.count else { return nil }
            guard let e = JSONValue.simpleEscape(b[i + 1]) else { return nil }
            out.append(e)
            i += 2
        }
        return nil
    }

    /// A whole number from 0 to 10^15, as JSON writes it (no leading zero).
    mutating func integer() -> Int64? {
        skipSpace()
        let start = i
        while i < b.count && b[i] >= 0x30 && b[i] <= 0x39 { i += 1 }
        let n = i - start
        guard n >= 1 && n <= 15, n == 1 || b[start] != 0x30 else { return nil }
        // Not a fraction or an exponent.
        if i < b.count && (b[i] == UInt8(ascii: ".") || b[i] | 0x20 == UInt8(ascii: "e")) { return nil }
        var v: Int64 = 0
        for k in start..<i { v = v * 10 + Int64(b[k] - 0x30) }
        return v
    }

    /// Reads an object, calling `member` with each key and the reader at its value, which
    /// `member` reads; false when `member` does or the syntax is not an object's.
    mutating func object(_ member: (inout FlatJSONReader, ArraySlice<UInt8>) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// Reads an array, calling `element` with the reader at each element.
    mutating func array(_ element: (inout FlatJSONReader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]"))
    }
}

extension ArraySlice<UInt8> {
    /// The bytes, valid UTF-8, as a String.
    var utf8String: String { withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }

    /// Whether the bytes are `literal`'s.
    func isKey(_ literal: StaticString) -> Bool {
        count == literal.utf8CodeUnitCount
            && elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
