/// A parsed JSON value (RFC 8259), keeping object keys in input order and numbers as
/// their source text, so an `id` can be echoed exactly as it came in.
public enum JSONValue: Sendable, Hashable {
    /// The literal `null`.
    case null
    /// The literal `true` or `false`.
    case bool(Bool)
    /// A number, as written in the input (`12`, `-3.5e2`).
    case number(String)
    /// A string, with its escapes decoded.
    case string(String)
    /// An array, its elements in input order.
    case array([JSONValue])
    /// Members in input order; duplicate keys are kept (lookups take the last one).
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .null: h.combine(0)
        case .bool(let b): h.combine(b)
        case .number(let n): h.combine(n)
        case .string(let s): h.combine(s)
        case .array(let a): h.combine(a)
        case .object(let o):
            for (k, v) in o {
                h.combine(k)
                h.combine(v)
            }
        }
    }

    /// The member named `key` of an object (the last one if repeated), else nil.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as an integer, if this is a number written as an integer in range.
    public var intValue: Int64? {
        if case .number(let n) = self { return Int64(n) }
        return nil
    }

    /// The number as a Double, if this is a number.
    public var doubleValue: Double? {
        if case .number(let n) = self { return Double(n) }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The value re-encoded as compact JSON (numbers as written in the input).
    public func write(to w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case .bool(let b): w.bool(b)
        case .number(let n): w.raw(Array(n.utf8))
        case .string(let s): w.string(s)
        case .array(let a): w.array { w in for v in a { v.write(to: &w) } }
        case .object(let o):
            w.object { w in
                for (k, v) in o {
                    w.key(k)
                    v.write(to: &w)
                }
            }
        }
    }

    /// Compact JSON for this value.
    public var jsonString: String {
        var w = JSONWriter()
        write(to: &w)
        return w.string
    }
}

/// A JSON syntax error, with the position of the offending byte.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, e.g. "expected ':' after object key".
    public var reason: String
    /// Where: byte offset, and 1-based line and column (the column in bytes).
    public var position: TextPosition

    /// An error saying what was wrong (`reason`) and where (`position`).
    public init(reason: String, position: TextPosition) {
        self.reason = reason
        self.position = position
    }

    /// `line L, column C: reason`.
    public var description: String {
        "invalid JSON at line \(position.line), column \(position.column) (byte offset \(position.utf8Offset)): \(reason)"
    }
}

extension JSONValue {
    /// The byte a one-character JSON escape (`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`)
    /// stands for, given the character after the backslash; nil for `u` and anything else.
    package static func simpleEscape(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "\""): 0x22
        case UInt8(ascii: "\\"): 0x5C
        case UInt8(ascii: "/"): 0x2F
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// The deepest nesting accepted; deeper input is an error, so parsing is bounded in stack.
    public static let maximumDepth = 512

    /// Parses one JSON value from UTF-8 `bytes`; surrounding whitespace is allowed,
    /// anything else after the value is an error. Invalid UTF-8 inside strings is an error.
    ///
    /// - Complexity: O(n).
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var p = JSONScanner(bytes: bytes)
        p.skipWhitespace()
        let v = try p.value(depth: 0)
        p.skipWhitespace()
        if p.i < bytes.count { throw p.error("unexpected data after the JSON value") }
        return v
    }

    /// Parses `text` as JSON.
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

struct JSONScanner {
    let bytes: [UInt8]
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String, at offset: Int? = nil) -> JSONError {
        JSONError(reason: reason, position: TextPosition(utf8Offset: offset ?? i, in: bytes))
    }

    mutating func skipWhitespace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard depth < JSONValue.maximumDepth else {
            throw error("nesting deeper than \(JSONValue.maximumDepth) levels")
        }
        guard i < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[i] {
        case UInt8(ascii: "{"):
            i += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
                i += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                    throw error(
                        i < bytes.count ? "expected a string as object key" : "unexpected end of input in object")
                }
                let k = try string()
                skipWhitespace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                    throw error("expected ':' after object key")
                }
                i += 1
                skipWhitespace()
                let v = try value(depth: depth + 1)
                members.append((k, v))
                skipWhitespace()
                guard i < bytes.count else { throw error("unexpected end of input in object") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if bytes[i] == UInt8(ascii: "}") {
                    i += 1
                    return .object(members)
                }
                throw error("expected ',' or '}' in object")
            }
        case UInt8(ascii: "["):
            i += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "]") {
                i += 1
                return .array(elements)
            }
            while true {
                skipWhitespace()
                elements.append(try value(depth: depth + 1))
                skipWhitespace()
                guard i < bytes.count else { throw error("unexpected end of input in array") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                if bytes[i] == UInt8(ascii: "]") {
                    i += 1
                    return .array(elements)
                }
                throw error("expected ',' or ']' in array")
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw error("unexpected character, expected a value")
        }
    }

    mutating func literal(_ word: StaticString, _ v: JSONValue) throws(JSONError) -> JSONValue {
        let n = word.utf8CodeUnitCount
        let w = UnsafeBufferPointer(start: word.utf8Start, count: n)
        guard i + n <= bytes.count, bytes[i..<i + n].elementsEqual(w) else { throw error("invalid literal") }
        i += n
        return v
    }

    mutating func number() throws(JSONError) -> JSONValue {
        let start = i
        func digit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < bytes.count, digit(bytes[i]) else { throw error("invalid number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < bytes.count && digit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard i < bytes.count, digit(bytes[i]) else { throw error("invalid number: expected digits after '.'") }
            while i < bytes.count && digit(bytes[i]) { i += 1 }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard i < bytes.count, digit(bytes[i]) else { throw error("invalid number: expected exponent digits") }
            while i < bytes.count && digit(bytes[i]) { i += 1 }
        }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self))
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("unexpected end of input in \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case 0x30...0x39: d = UInt32(b - 0x30)
            case 0x41...0x46: d = UInt32(b - 0x41 + 10)
            case 0x61...0x66: d = UInt32(b - 0x61 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    mutating func string() throws(JSONError) -> String {
        let open = i
        i += 1
        // Most strings hold no escape: they become a String in one validating copy.
        var j = i
        while j < bytes.count {
            let b = bytes[j]
            if b == UInt8(ascii: "\"") {
                guard let s = String(validating: bytes[i..<j], as: UTF8.self) else { break }
                i = j + 1
                return s
            }
            if b < 0x20 || b == UInt8(ascii: "\\") { break }
            j += 1
        }
        var out: [UInt8] = []
        var runStart = i
        while true {
            guard i < bytes.count else { throw error("unterminated string", at: open) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: bytes[runStart..<i])
                i += 1
                break
            }
            if b < 0x20 { throw error("control character in string must be escaped") }
            if b == UInt8(ascii: "\\") {
                out.append(contentsOf: bytes[runStart..<i])
                i += 1
                guard i < bytes.count else { throw error("unterminated string", at: open) }
                let e = bytes[i]
                i += 1
                if let simple = JSONValue.simpleEscape(e) {
                    out.append(simple)
                    runStart = i
                    continue
                }
                switch e {
                case UInt8(ascii: "u"):
                    let escapeStart = i - 2
                    var v = try hex4()
                    if v >= 0xD800 && v < 0xDC00 {
                        guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                        else {
                            throw error("unpaired surrogate in \\u escape", at: escapeStart)
                        }
                        i += 2
                        let lo = try hex4()
                        guard lo >= 0xDC00 && lo < 0xE000 else {
                            throw error("unpaired surrogate in \\u escape", at: escapeStart)
                        }
                        v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
                    } else if v >= 0xDC00 && v < 0xE000 {
                        throw error("unpaired surrogate in \\u escape", at: escapeStart)
                    }
                    out.append(contentsOf: String(Unicode.Scalar(v)!).utf8)
                default:
                    throw error("invalid escape sequence", at: i - 2)
                }
                runStart = i
                continue
            }
            i += 1
        }
        if let bad = UTF8Validation.firstInvalidOffset(in: bytes[open..<i]) {
            throw error("invalid UTF-8 in string", at: open + bad)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
