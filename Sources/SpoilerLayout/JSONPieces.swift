import SpoilerCore

/// JSON written through a ``JSONByteCursor`` into one reused buffer and handed on in pieces
/// of about 64 KB as it fills, so that a long output is never held whole.
///
/// Each write gives an upper bound of the bytes it writes; one of up to ``slack`` bytes goes
/// straight into the buffer, a larger one is made apart and copied in.
struct JSONPieces {
    /// The size at which a piece is handed on.
    static let size = 1 << 16
    /// The largest write that goes straight into the buffer.
    static let slack = 1 << 13

    private var buffer = [UInt8](repeating: 0, count: size + slack)
    private var count = 0

    /// Writes at most `bound` bytes with `body`, then hands the piece to `write` if it has
    /// reached ``size``.
    mutating func append(bound: Int, _ write: ([UInt8]) -> Void, _ body: (inout JSONByteCursor) -> Void) {
        if bound > Self.slack {
            let bytes = JSONByteCursor.bytes(capacity: bound, body)
            var at = 0
            while at < bytes.count {
                let end = min(bytes.count, at + Self.slack)
                append(bound: end - at, write) { c in
                    bytes.withUnsafeBufferPointer { c.raw(UnsafeBufferPointer(rebasing: $0[at..<end])) }
                }
                at = end
            }
            return
        }
        let start = count
        count += buffer.withUnsafeMutableBufferPointer { room in
            JSONByteCursor.write(into: UnsafeMutableBufferPointer(rebasing: room[start...]), body)
        }
        if count >= Self.size { flush(write) }
    }

    /// Writes `s` as it is.
    mutating func append(_ s: StaticString, _ write: ([UInt8]) -> Void) {
        append(bound: s.utf8CodeUnitCount, write) { c in c.literal(s) }
    }

    /// Writes the valid UTF-8 `text` escaped as a JSON string's content, in pieces cut
    /// between scalars (``JSONByteCursor/escaped(utf8:)``), without the quotes.
    mutating func appendEscaped(_ text: UnsafeBufferPointer<UInt8>, _ write: ([UInt8]) -> Void) {
        var at = 0
        while at < text.count {
            var end = min(text.count, at + Self.slack / 8)
            // Back to the start of a scalar: never a continuation byte (10xxxxxx).
            while end < text.count && end > at && text[end] & 0xC0 == 0x80 { end -= 1 }
            let chunk = UnsafeBufferPointer(rebasing: text[at..<end])
            append(bound: 6 * chunk.count, write) { c in c.escaped(utf8: chunk) }
            at = end
        }
    }

    /// Hands on what is written and not yet handed on, if anything.
    mutating func flush(_ write: ([UInt8]) -> Void) {
        guard count > 0 else { return }
        write(Array(buffer[0..<count]))
        count = 0
    }
}
