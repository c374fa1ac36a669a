import SpoilerCore

extension TextLayout {
    /// The geometry JSON of ``jsonBytes(id:redact:)``, written a piece at a time so that
    /// the JSON of a layout with many words is never held whole.
    ///
    /// ```swift
    /// layout.writeJSON(id: nil, redact: false) { piece in send(piece) }
    /// ```
    ///
    /// - Parameters:
    ///   - id: the record's id as raw JSON, or nil to leave the key out.
    ///   - redact: leave out every word's `text`.
    ///   - write: called with the JSON's bytes in order, in pieces of about 64 KB (one
    ///     for a small layout); their concatenation is ``jsonBytes(id:redact:)``.
    public func writeJSON(id: [UInt8]?, redact: Bool, pieces write: ([UInt8]) -> Void) {
        let pieceSize = 1 << 16
        var piece = JSONByteCursor.bytes(capacity: headBound(id: id) + 16) { c in
            writeHead(to: &c, id: id)
            c.literal(#","lines":["#)
        }
        func passOnWhenFull() {
            if piece.count >= pieceSize {
                write(piece)
                piece.removeAll(keepingCapacity: true)
            }
        }
        var k = 0
        while k < lines.count {
            let end = min(lines.count, k + 64)
            piece += JSONByteCursor.bytes(capacity: 200 * (end - k)) { c in
                for l in k..<end { writeLine(l, to: &c) }
            }
            k = end
            passOnWhenFull()
        }
        piece += Array(#"],"words":["#.utf8)
        k = 0
        while k < words.count {
            var end = k
            var room = 0
            while end < words.count && room < pieceSize / 4 {
                room += wordBound(end)
                end += 1
            }
            piece += JSONByteCursor.bytes(capacity: room) { c in
                for w in k..<end { writeWord(w, to: &c, redact: redact) }
            }
            k = end
            passOnWhenFull()
        }
        piece += Array("]}".utf8)
        write(piece)
    }
}
