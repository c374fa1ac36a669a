/// Writes compact JSON into a byte buffer, with keys in the order the caller writes them
/// and numbers in a fixed format, so that output is byte-identical run after run.
///
/// ```swift
/// var w = JSONWriter()
/// w.object { w in
///     w.key("text"); w.string("hi")
///     w.key("n"); w.number(3)
/// }
/// // w.bytes == Array(#"{"text":"hi","n":3}"#.utf8)
/// ```
///
/// The writer keeps track of commas; callers write a key before each value in an object.
public struct JSONWriter: Sendable {
    /// The JSON written so far, UTF-8.
    public var bytes: [UInt8] = []
    /// How many containers are open.
    private var depth = 0
    /// Bit `d` is set when the container at depth `d + 1` (of the first 64) has a value
    /// already, so that the next one needs a comma; a bit set is no allocation.
    private var commaBits: UInt64 = 0
    /// The same for the containers deeper than 64.
    private var deepNeedsComma: [Bool] = []
    private var afterKey = false

    /// An empty writer: `bytes` is empty until the first value is written.
    public init() {}

    /// The JSON written so far as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard depth > 0 else { return }
        if depth <= 64 {
            let bit: UInt64 = 1 << UInt64(depth - 1)
            if commaBits & bit != 0 { bytes.append(UInt8(ascii: ",")) }
            commaBits |= bit
        } else {
            if deepNeedsComma[depth - 65] { bytes.append(UInt8(ascii: ",")) }
            deepNeedsComma[depth - 65] = true
        }
    }

    /// Opens a container after its opening bracket: it has no value yet.
    private mutating func open() {
        depth += 1
        if depth <= 64 {
            commaBits &= ~(1 << UInt64(depth - 1))
        } else {
            deepNeedsComma.append(false)
        }
    }

    private mutating func close() {
        if depth > 64 { deepNeedsComma.removeLast() }
        depth -= 1
    }

    /// Writes an object; `body` writes its keys and values.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        open()
        body(&self)
        close()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes an array; `body` writes its elements.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        open()
        body(&self)
        close()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next value written belongs to it.
    public mutating func key(_ k: String) {
        beginValue()
        JSONWriter.appendQuoted(k, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        afterKey = true
    }

    /// Writes a string value from its UTF-8 bytes, escaped as ``string(_:)`` escapes it.
    ///
    /// - Parameter utf8: Valid UTF-8 (the caller vouches for it; invalid bytes would be
    ///   copied as they are).
    public mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        JSONWriter.appendEscaped(utf8, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a string value, escaped so the result is always valid JSON.
    public mutating func string(_ s: some StringProtocol) {
        beginValue()
        JSONWriter.appendQuoted(s, to: &bytes)
    }

    /// Writes an integer value.
    public mutating func number(_ n: some BinaryInteger) {
        beginValue()
        if let v = Int(exactly: n) {
            JSONWriter.appendInteger(v, to: &bytes)
        } else {
            bytes.append(contentsOf: String(n).utf8)
        }
    }

    /// Writes an integer value (the common case of ``number(_:)-(BinaryInteger)``, without
    /// a String).
    public mutating func number(_ n: Int) {
        beginValue()
        JSONWriter.appendInteger(n, to: &bytes)
    }

    /// Appends the decimal digits of `n` (and a `-` before a negative one), as `String(n)`
    /// writes them.
    public static func appendInteger(_ n: Int, to out: inout [UInt8]) {
        var m = n.magnitude
        if n < 0 { out.append(UInt8(ascii: "-")) }
        if m < 10 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m))
            return
        }
        var digits = 1
        var t = m
        while t >= 10 {
            t /= 10
            digits += 1
        }
        let start = out.count
        out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        out.withUnsafeMutableBufferPointer { p in
            var i = start + digits - 1
            while m > 0 {
                p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: m % 10)
                m /= 10
                i -= 1
            }
        }
    }

    /// Writes a floating-point value with at most `decimals` digits after the point,
    /// trailing zeros dropped (`1.5`, `2`, `-0.0333`). Non-finite values are written as null.
    public mutating func number(_ d: Double, decimals: Int = 4) {
        beginValue()
        JSONWriter.appendNumber(d, decimals: decimals, to: &bytes)
    }

    /// Writes a Boolean value.
    public mutating func bool(_ b: Bool) {
        beginValue()
        bytes.append(contentsOf: (b ? "true" : "false").utf8)
    }

    /// Writes null.
    public mutating func null() {
        beginValue()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Writes already-encoded JSON as one value (the caller vouches for its validity).
    public mutating func raw(_ json: some Sequence<UInt8>) {
        beginValue()
        bytes.append(contentsOf: json)
    }

    /// Appends `d` in the fixed format of ``number(_:decimals:)``.
    public static func appendNumber(_ d: Double, decimals: Int, to out: inout [UInt8]) {
        guard d.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        // A whole number (a pixel coordinate, mostly) has no fraction to write: the digits
        // below are then those of the integer. The bound keeps `d × 10^decimals` exact.
        if decimals <= 6 && d.magnitude < 2_147_483_648 && d == d.rounded(.towardZero) {
            appendInteger(Int(d), to: &out)
            return
        }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(d) * scale).rounded()
        if scaled >= 9.0e15 {  // too large for exact integer formatting: plain integer part
            out.append(contentsOf: String(Int64(d.rounded())).utf8)
            return
        }
        if scaled == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        if d < 0 { out.append(UInt8(ascii: "-")) }
        var places = decimals
        var whole = UInt64(scaled)
        // Split into integer and fractional digits, dropping trailing zeros.
        var digits = [UInt8](repeating: 0, count: decimals)
        for i in stride(from: decimals - 1, through: 0, by: -1) {
            digits[i] = UInt8(whole % 10)
            whole /= 10
        }
        while places > 0 && digits[places - 1] == 0 { places -= 1 }
        out.append(contentsOf: String(whole).utf8)
        if places > 0 {
            out.append(UInt8(ascii: "."))
            for i in 0..<places { out.append(UInt8(ascii: "0") + digits[i]) }
        }
    }

    /// Appends `s` as a quoted JSON string.
    ///
    /// Control characters (C0, DEL and C1), quotes,
    /// backslashes, U+2028, U+2029 and the bidirectional embeddings, overrides and isolates
    /// (U+202A–U+202E, U+2066–U+2069) are escaped, so JSON printed to a terminal never
    /// carries a raw control (DESIGN.md §9); everything else is written as UTF-8.
    ///
    /// - Complexity: O(n) in the UTF-8 bytes of `s`; runs that need no escaping are
    ///   copied at once.
    public static func appendQuoted(_ s: some StringProtocol, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { appendEscaped($0, to: &out) }
        if done == nil {
            Array(s.utf8).withUnsafeBufferPointer { appendEscaped($0, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The scalar to escape that starts at `p[i]` (a C1 control, C2 80–9F; or U+2028–U+202E,
    /// E2 80 A8–AE; or U+2066–U+2069, E2 81 A6–A9) and its length in bytes, if any.
    ///
    /// The writer writes these scalars as `\u` escapes: C1 controls are invisible, and the
    /// line separators and bidirectional formatting characters can reorder or break what a
    /// reader of the JSON sees. Other code that writes JSON the writer's way asks here.
    ///
    /// ```swift
    /// let bytes = Array("\u{2028}".utf8)
    /// let s = bytes.withUnsafeBufferPointer { JSONWriter.escapedSequence($0, at: 0) }
    /// // s?.0 == 0x2028, s?.1 == 3
    /// ```
    ///
    /// - Parameters:
    ///   - p: Valid UTF-8.
    ///   - i: Where a scalar starts in `p`.
    /// - Returns: The scalar and its length in bytes, or nil when it is written as it is.
    public static func escapedSequence(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> (UInt32, Int)? {
        let n = p.count
        if p[i] == 0xC2 {
            guard i + 1 < n, p[i + 1] >= 0x80, p[i + 1] <= 0x9F else { return nil }
            return (UInt32(p[i + 1]), 2)
        }
        guard i + 2 < n else { return nil }
        if p[i + 1] == 0x80 && p[i + 2] >= 0xA8 && p[i + 2] <= 0xAE { return (0x2000 + UInt32(p[i + 2] - 0x80), 3) }
        if p[i + 1] == 0x81 && p[i + 2] >= 0xA6 && p[i + 2] <= 0xA9 { return (0x2040 + UInt32(p[i + 2] - 0x80), 3) }
        return nil
    }

    private static func appendEscaped(_ p: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        func appendUnicodeEscape(_ v: UInt32, to out: inout [UInt8]) {
            let digits = UnsafeBufferPointer(start: hex.utf8Start, count: 16)
            out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
            out.append(digits[Int(v >> 12 & 15)])
            out.append(digits[Int(v >> 8 & 15)])
            out.append(digits[Int(v >> 4 & 15)])
            out.append(digits[Int(v & 15)])
        }
        let n = p.count
        var runStart = 0
        var i = 0
        while i < n {
            let b = p[i]
            // Fast path: printable ASCII but '"' and '\\', and non-ASCII bytes other than
            // the lead bytes C2 and E2 of the escaped scalars (one look-up a byte).
            if !JSONWriter.needsLook(b) {
                i += 1
                continue
            }
            var sequence: (UInt32, Int)?
            if b == 0xC2 || b == 0xE2 {
                sequence = escapedSequence(p, at: i)
                if sequence == nil {
                    i += 1
                    continue
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: p[runStart..<i]))
            if let (scalar, length) = sequence {
                appendUnicodeEscape(scalar, to: &out)
                i += length
                runStart = i
                continue
            }
            switch b {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            default: appendUnicodeEscape(UInt32(b), to: &out)
            }
            i += 1
            runStart = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: p[runStart..<n]))
    }

    /// Whether byte `b` may need escaping: C0 controls, `"`, `\\`, DEL, and the lead bytes
    /// C2 and E2 of the escaped scalars; a bit test in four words instead of six compares.
    @inline(__always)
    static func needsLook(_ b: UInt8) -> Bool {
        let word: UInt64
        switch b >> 6 {
        case 0: word = 0x0000_0004_FFFF_FFFF  // 00–1F and 22
        case 1: word = 0x8000_0000_1000_0000  // 5C and 7F
        case 2: word = 0
        default: word = 0x0000_0004_0000_0004  // C2 and E2
        }
        return word >> UInt64(b & 63) & 1 != 0
    }
}
