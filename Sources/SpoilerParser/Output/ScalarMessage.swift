import SpoilerCore

/// Text being built as Unicode scalars, with entities whose `offset` and `length` count
/// scalars until ``message`` turns them into UTF-16 units; for the readers that build their
/// text piece by piece (Matrix).
struct ScalarMessage {
    var scalars: [Unicode.Scalar] = []
    var entities: [Entity] = []

    /// The message, with scalar offsets turned into UTF-16 ones; empty entities are dropped.
    ///
    /// The text is encoded to UTF-8 in one pass (appending scalars to a `String` one by one
    /// costs several times more), and the offsets move only when the text holds scalars
    /// outside the Basic Multilingual Plane, the only ones that take two UTF-16 units.
    var message: Message {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count + scalars.count / 2)
        var astral = false
        for s in scalars {
            let v = s.value
            if v < 0x80 {
                bytes.append(UInt8(v))
            } else if v < 0x800 {
                bytes.append(UInt8(0xC0 | v >> 6))
                bytes.append(UInt8(0x80 | v & 0x3F))
            } else if v < 0x10000 {
                bytes.append(UInt8(0xE0 | v >> 12))
                bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
                bytes.append(UInt8(0x80 | v & 0x3F))
            } else {
                astral = true
                bytes.append(UInt8(0xF0 | v >> 18))
                bytes.append(UInt8(0x80 | v >> 12 & 0x3F))
                bytes.append(UInt8(0x80 | v >> 6 & 0x3F))
                bytes.append(UInt8(0x80 | v & 0x3F))
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var out: [Entity] = []
        out.reserveCapacity(entities.count)
        if !astral {
            for e in entities where e.length > 0 { out.append(e) }
            return Message(text: text, entities: out)
        }
        var utf16 = [Int](repeating: 0, count: scalars.count + 1)
        for (i, s) in scalars.enumerated() { utf16[i + 1] = utf16[i] + (s.value < 0x10000 ? 1 : 2) }
        for var e in entities where e.length > 0 {
            let end = e.offset + e.length
            e.offset = utf16[e.offset]
            e.length = utf16[end] - e.offset
            out.append(e)
        }
        return Message(text: text, entities: out)
    }
}
