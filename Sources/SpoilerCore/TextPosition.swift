/// A position in an input text, given every way a reader may count it.
///
/// `line` and `column` are 1-based; the column counts UTF-8 bytes from the start of the
/// line, as cmark and swift-markdown do. `utf16Offset` is what Telegram entity offsets
/// count.
public struct TextPosition: Sendable, Hashable, CustomStringConvertible {
    /// Byte offset from the start of the input (0-based).
    public var utf8Offset: Int
    /// UTF-16 code units from the start of the input (0-based).
    public var utf16Offset: Int
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int

    /// Creates a position from all of its counts.
    public init(utf8Offset: Int, utf16Offset: Int, line: Int, column: Int) {
        self.utf8Offset = utf8Offset
        self.utf16Offset = utf16Offset
        self.line = line
        self.column = column
    }

    /// The position of the byte at `utf8Offset` in `bytes` (which may hold invalid
    /// UTF-8: each byte of an invalid sequence counts as one UTF-16 unit, as a
    /// replacement character would).
    ///
    /// - Complexity: O(`utf8Offset`).
    public init(utf8Offset: Int, in bytes: some Sequence<UInt8>) {
        self = TextPosition(utf8Offset: 0, utf16Offset: 0, line: 1, column: 1).advanced(over: bytes.prefix(utf8Offset))
        self.utf8Offset = utf8Offset
    }

    /// The position after `bytes`, which follow this one in the input: a reader that knows
    /// where one place is finds a later one by reading only what lies between.
    ///
    /// ```swift
    /// let start = TextPosition(utf8Offset: 0, utf16Offset: 0, line: 1, column: 1)
    /// let p = start.advanced(over: Array("ab\ncd".utf8))  // line 2, column 3, utf8Offset 5
    /// ```
    ///
    /// Bytes in contiguous memory (an array, a slice, a buffer) are read in place by one
    /// loop; any other sequence is copied into an array first. (A loop over the sequence
    /// itself, called from another module, went through its witnesses for each byte: seconds
    /// for 100 MB.)
    ///
    /// - Complexity: O(n) in the bytes.
    public func advanced(over bytes: some Sequence<UInt8>) -> TextPosition {
        if let p = bytes.withContiguousStorageIfAvailable({ advanced(contiguous: $0) }) { return p }
        return Array(bytes).withUnsafeBufferPointer { advanced(contiguous: $0) }
    }

    /// ``advanced(over:)`` for bytes in memory.
    private func advanced(contiguous bytes: UnsafeBufferPointer<UInt8>) -> TextPosition {
        var p = self
        var lastBreak = -1
        var lines = 0
        var units = 0
        for (k, b) in bytes.enumerated() {
            if b == UInt8(ascii: "\n") {
                lines += 1
                lastBreak = k
            }
            // Lead bytes start a scalar; 4-byte sequences are two UTF-16 units.
            if b & 0xC0 != 0x80 { units += b >= 0xF0 && b <= 0xF4 ? 2 : 1 }
        }
        p.line += lines
        p.column = lastBreak < 0 ? p.column + bytes.count : bytes.count - lastBreak
        p.utf16Offset += units
        p.utf8Offset += bytes.count
        return p
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
