public import SpoilerCore

extension LayoutEngine {
    /// Lays out `message` and writes its geometry JSON (``TextLayout/jsonBytes(id:redact:)``
    /// of ``layout(_:includeGraphemes:)``) a piece at a time, without making the layout:
    /// each word box is written as it is found, so that neither the boxes nor the JSON of
    /// a message with many spoilers are held whole.
    ///
    /// ```swift
    /// LayoutEngine().writeJSON(of: message, redact: false) { piece in send(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - message: the text and its entities.
    ///   - redact: leave out every word's `text`.
    ///   - write: called with the JSON's bytes in order, in pieces of about 64 KB (one for
    ///     a small layout); their concatenation is the layout's `jsonBytes(id: nil, redact:)`.
    /// - Complexity: as ``layout(_:includeGraphemes:)``; memory: the placed graphemes
    ///   and the lines, not the words.
    public func writeJSON(of message: Message, redact: Bool, pieces write: ([UInt8]) -> Void) {
        var text = message.text
        text.makeContiguousUTF8()
        _ = text.utf8.withContiguousStorageIfAvailable { p in
            writeJSON(bytes: p, entities: message.entities, redact: redact, write)
        }
    }

    private func writeJSON(
        bytes p: UnsafeBufferPointer<UInt8>, entities: [Entity], redact: Bool, _ write: ([UInt8]) -> Void
    ) {
        let breaker = place(p)
        let frame = frame(of: breaker)
        let pieceSize = 1 << 16
        // The head and lines (with an empty word list, whose `]}` is cut), then the words.
        var piece: [UInt8] = []
        frame.writeJSON(id: nil, redact: redact) { next in
            if !piece.isEmpty { write(piece) }
            piece = next
        }
        piece.removeLast(2)
        var first = true
        breaker.placements.withUnsafeBufferPointer { placements in
            forEachWordBox(p, placements: placements, entities: entities) { box, _ in
                piece += JSONByteCursor.bytes(capacity: TextLayout.bound(of: box)) { c in
                    TextLayout.write(box, first: first, to: &c, redact: redact)
                }
                first = false
                if piece.count >= pieceSize {
                    write(piece)
                    piece.removeAll(keepingCapacity: true)
                }
            }
        }
        piece += Array("]}".utf8)
        write(piece)
    }
}
