/// The page being written: a buffer that passes its bytes on to the caller's `write` each
/// time it holds 64 KB, so that a page of any size takes a bounded buffer.
struct PageWriter {
    /// What a piece is added to.
    var w = SVGWriter(into: [])
    /// Where full buffers go.
    let write: ([UInt8]) -> Void

    /// The size at which the buffer is passed on.
    static let pieceSize = 1 << 16

    /// Passes the buffer on when it holds a piece's worth.
    mutating func passOnWhenFull() {
        if w.bytes.count >= Self.pieceSize { passOn() }
    }

    /// Passes on whatever the buffer holds.
    mutating func passOn() {
        guard !w.bytes.isEmpty else { return }
        write(w.bytes)
        w.bytes.removeAll(keepingCapacity: true)
    }
}
