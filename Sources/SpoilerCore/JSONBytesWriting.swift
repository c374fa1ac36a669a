/// What writes JSON values as bytes: ``JSONByteCursor``, which checks its room at every
/// value, and ``RawJSON``, which writes through a pointer into room checked once for a
/// whole object. Both write the same bytes for the same values.
///
/// A writer of an object generic over it (`@inlinable`, or in the module that calls it)
/// is specialised for each, so that one function serves the checked and the unchecked
/// way with no call through a witness table:
///
/// ```swift
/// @inline(__always)
/// func writePoint<W: JSONBytesWriting>(x: Int, y: Int, to w: inout W) {
///     w.literal(#"{"x":"#); w.integer(x); w.literal(#","y":"#); w.integer(y); w.literal("}")
/// }
/// ```
public protocol JSONBytesWriting {
    /// Writes the bytes of `s` as they are (JSON syntax and keys the caller vouches for).
    mutating func literal(_ s: StaticString)
    /// Writes bytes as they are (raw JSON the caller vouches for).
    mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>)
    /// Writes `n` in decimal, as ``JSONWriter/number(_:)-(Int)``; at most 20 bytes.
    mutating func integer(_ n: Int)
    /// Writes `d` as ``JSONWriter/number(_:decimals:)`` writes it; at most 32 bytes for
    /// `decimals` up to 8.
    mutating func number(_ d: Double, decimals: Int)
    /// Writes valid UTF-8 `text` quoted and escaped as ``JSONWriter/string(utf8:)`` does;
    /// at most 6 × `text.count` + 2 bytes.
    mutating func quoted(utf8 text: UnsafeBufferPointer<UInt8>)
}

extension JSONBytesWriting {
    /// Writes `s` quoted and escaped as ``JSONWriter/string(_:)`` does; at most 6 × its
    /// UTF-8 bytes + 2.
    @inlinable
    public mutating func quoted(_ s: some StringProtocol) {
        let done: Void? = s.utf8.withContiguousStorageIfAvailable { quoted(utf8: $0) }
        if done == nil { Array(s.utf8).withUnsafeBufferPointer { quoted(utf8: $0) } }
    }

    /// Opens an object with its first key: `{"id":`, the raw JSON `id` and a comma where
    /// there is an id, `{` where not, then `firstKey` (its quotes and colon, and anything
    /// after them known in advance, as `#""text":"#`).
    @inlinable @inline(__always)
    public mutating func openObject(id: UnsafeBufferPointer<UInt8>?, firstKey: StaticString) {
        if let id {
            literal(#"{"id":"#)
            raw(id)
            literal(",")
        } else {
            literal("{")
        }
        literal(firstKey)
    }

    /// Writes a whole number `v` as ``number(_:decimals:)`` writes `Double(v)`: an integer
    /// below 2³¹ in magnitude, a double above (a rectangle's coordinates are doubles).
    @inlinable @inline(__always)
    public mutating func wholeNumber(_ v: Int) {
        if v.magnitude < 2_147_483_648 {
            integer(v)
        } else {
            number(Double(v), decimals: 4)
        }
    }
}

extension JSONByteCursor: JSONBytesWriting {}
