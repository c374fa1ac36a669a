/// Markup being written, as UTF-8 bytes that are passed on to a `write` function each time
/// they reach 64 KB, or kept whole when there is none: the serializers that can write a
/// long message a piece at a time (``HTMLSerializer``, ``MarkdownV2Serializer``) write to one.
struct MarkupOutput {
    /// The bytes not passed on yet.
    var bytes: [UInt8] = []
    /// Where full buffers go; nil keeps everything in ``bytes``.
    let write: (([UInt8]) -> Void)?

    /// The size at which the buffer is passed on.
    static let pieceSize = 1 << 16

    init(write: (([UInt8]) -> Void)? = nil) { self.write = write }

    /// Appends `s`'s UTF-8.
    static func += (out: inout MarkupOutput, s: String) {
        out.bytes.append(contentsOf: s.utf8)
        out.passOnWhenFull()
    }

    /// Appends one scalar's UTF-8.
    mutating func append(_ scalar: Unicode.Scalar) {
        let v = scalar.value
        if v < 0x80 {
            bytes.append(UInt8(v))
        } else {
            UTF8.encode(scalar) { bytes.append($0) }
        }
        passOnWhenFull()
    }

    /// Passes the buffer on when it holds a piece's worth (and there is a `write`).
    mutating func passOnWhenFull() {
        if bytes.count >= Self.pieceSize, write != nil { passOn() }
    }

    /// Passes on whatever the buffer holds (when there is a `write`).
    mutating func passOn() {
        guard let write, !bytes.isEmpty else { return }
        write(bytes)
        bytes.removeAll(keepingCapacity: true)
    }

    /// The bytes kept, as a string (for a buffer without `write`).
    var string: String { String(decoding: bytes, as: UTF8.self) }
}
