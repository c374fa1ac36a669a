import SpoilerCore

/// Where a JSON string's content lies in the input, for readers that look at most strings
/// only once (a key, a style name) or decode them only when needed.
struct JSONStringRange {
    /// The content's first byte (after the opening quote) and its end (the closing quote).
    var start: Int
    var end: Int
    /// Whether the content holds escapes (all of them one-character escapes).
    var escaped: Bool
}

extension FlatJSONReader {
    /// After optional whitespace, a string, as ``string()`` reads it (nil where it gives
    /// nil: `\u` escapes, control characters, no closing quote), without copying it.
    ///
    /// Eight bytes at a time while none of them is a quote, a backslash or a control
    /// character.
    mutating func stringRange() -> JSONStringRange? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = i
        var escaped = false
        let end: Int? = b.withUnsafeBufferPointer { p -> Int? in
            guard let base = p.baseAddress else { return nil }
            let n = p.count
            var k = start
            while true {
                while k + 8 <= n && !FlatJSONReader.mayEndRun(UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
                {
                    k += 8
                }
                guard k < n else { return nil }
                let c = base[k]
                if c == UInt8(ascii: "\"") { return k }
                if c == UInt8(ascii: "\\") {
                    guard k + 1 < n, JSONValue.simpleEscape(base[k + 1]) != nil else { return nil }
                    escaped = true
                    k += 2
                    continue
                }
                if c < 0x20 { return nil }
                k += 1
            }
        }
        guard let end else { return nil }
        i = end + 1
        return JSONStringRange(start: start, end: end, escaped: escaped)
    }

    /// Whether the eight bytes of `w` may hold a quote, a backslash or a control character
    /// (never false when one does; rarely true when none does).
    @inline(__always)
    static func mayEndRun(_ w: UInt64) -> Bool {
        ByteLanes.equal(w, 0x22) | ByteLanes.equal(w, 0x5C) | ByteLanes.below(w, 0x20) != 0
    }

    /// The content of `r`, escapes decoded.
    func bytes(of r: JSONStringRange) -> [UInt8] {
        b.withUnsafeBufferPointer { p in
            guard r.escaped else { return Array(p[r.start..<r.end]) }
            var out: [UInt8] = []
            out.reserveCapacity(r.end - r.start)
            var k = r.start
            var run = k
            while k < r.end {
                if p[k] == UInt8(ascii: "\\") {
                    out.append(contentsOf: p[run..<k])
                    out.append(JSONValue.simpleEscape(p[k + 1])!)
                    k += 2
                    run = k
                } else {
                    k += 1
                }
            }
            out.append(contentsOf: p[run..<r.end])
            return out
        }
    }

    /// Whether the content of `r` is `literal` (no escape in it).
    @inline(__always)
    func range(_ r: JSONStringRange, is literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard !r.escaped, r.end - r.start == n else { return false }
        let q = literal.utf8Start
        for k in 0..<n where b[r.start + k] != q[k] { return false }
        return true
    }

    /// Reads an object as ``object(_:)`` does, handing `member` each key as a range.
    mutating func members(_ member: (inout FlatJSONReader, JSONStringRange) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = stringRange(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }
}
