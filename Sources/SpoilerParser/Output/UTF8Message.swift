import SpoilerCore

/// Text being built as UTF-8 bytes, with entities whose `offset` and `length` count bytes
/// until ``message`` turns them into UTF-16 units; for the readers that copy their text
/// from UTF-8 input piece by piece (Discord).
struct UTF8Message {
    var bytes: [UInt8] = []
    var entities: [Entity] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Opens an entity at the end of the text; returns its index for ``close(_:)``.
    mutating func open(_ e: Entity) -> Int {
        // One allocation for the few entities of most messages, not one per doubling.
        if entities.isEmpty { entities.reserveCapacity(8) }
        var e = e
        e.offset = bytes.count
        entities.append(e)
        return entities.count - 1
    }

    /// Ends entity `index` at the end of the text.
    mutating func close(_ index: Int) {
        entities[index].length = bytes.count - entities[index].offset
    }

    /// The UTF-16 offsets of the byte offsets `offsets` (each on a scalar boundary, in
    /// any order).
    func utf16Offsets(_ offsets: [Int]) -> [Int] {
        bytes.withUnsafeBufferPointer { UTF8Message.utf16Offsets(offsets, in: $0) }
    }

    /// ``utf16Offsets(_:)`` in `p`: the offsets sorted as whole numbers (offset and index
    /// packed in one), then one pass that counts the units between each and the next.
    static func utf16Offsets(_ offsets: [Int], in p: UnsafeBufferPointer<UInt8>) -> [Int] {
        var out = [Int](repeating: 0, count: offsets.count)
        guard p.count <= Int(UInt32.max), offsets.count <= Int(UInt32.max) else {
            let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
            var byte = 0
            var unit = 0
            for k in order {
                unit += MarkdownFlattener.utf16Length(UnsafeBufferPointer(rebasing: p[byte..<offsets[k]]))
                byte = offsets[k]
                out[k] = unit
            }
            return out
        }
        var keys = [UInt64]()
        keys.reserveCapacity(offsets.count)
        for (k, offset) in offsets.enumerated() { keys.append(UInt64(offset) << 32 | UInt64(k)) }
        keys.sort()
        var byte = 0
        var unit = 0
        for key in keys {
            let target = Int(key >> 32)
            if target > byte {
                unit += MarkdownFlattener.utf16Length(UnsafeBufferPointer(rebasing: p[byte..<target]))
                byte = target
            }
            out[Int(key & 0xFFFF_FFFF)] = unit
        }
        return out
    }

    /// Whether `p` is all ASCII (then byte offsets are UTF-16 offsets).
    static func isASCII(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = p.baseAddress else { return true }
        var i = 0
        var bits: UInt64 = 0
        while i + 8 <= p.count {
            bits |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < p.count {
            bits |= UInt64(base[i])
            i += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// The message, offsets in UTF-16 units; empty entities are dropped.
    var message: Message {
        var copy = self
        return copy.takeMessage()
    }

    /// ``message``, taking the entities out of this one (left without them), so that
    /// they are changed in place rather than copied.
    mutating func takeMessage() -> Message {
        let text = String(decoding: bytes, as: UTF8.self)
        var kept: [Entity] = []
        swap(&kept, &entities)
        if kept.contains(where: { $0.length <= 0 }) { kept.removeAll { $0.length <= 0 } }
        if !kept.isEmpty {
            bytes.withUnsafeBufferPointer { p in
                if UTF8Message.isASCII(p) { return }
                guard p.count <= Int(UInt32.max), kept.count <= Int(UInt32.max / 2) else {
                    var offsets: [Int] = []
                    for e in kept {
                        offsets.append(e.offset)
                        offsets.append(e.end)
                    }
                    let units = UTF8Message.utf16Offsets(offsets, in: p)
                    for k in kept.indices {
                        kept[k].offset = units[2 * k]
                        kept[k].length = units[2 * k + 1] - units[2 * k]
                    }
                    return
                }
                UTF8Message.convertToUTF16(&kept, in: p)
            }
        }
        return Message(text: text, entities: kept)
    }

    /// Turns the byte offsets and lengths of `entities` into UTF-16 ones: their edges, each
    /// packed with its place in one whole number, sorted in a buffer on the stack (for a
    /// few), then one walk over `p` to the last edge, eight bytes at a time.
    static func convertToUTF16(_ entities: inout [Entity], in p: UnsafeBufferPointer<UInt8>) {
        let count = 2 * entities.count
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { buffer in
            var keys = buffer
            for (k, e) in entities.enumerated() {
                keys[2 * k] = UInt64(e.offset) << 32 | UInt64(2 * k)
                keys[2 * k + 1] = UInt64(e.end) << 32 | UInt64(2 * k + 1)
            }
            keys.sort()
            guard let base = p.baseAddress else { return }
            let high: UInt64 = 0x8080_8080_8080_8080
            var i = 0
            var unit = 0
            for key in keys {
                let target = Int(key >> 32)
                while i + 8 <= target {
                    let w = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                    if w & high == 0 {
                        unit += 8
                    } else {
                        let continuation = w & ~(w << 1) & high
                        let fourByteLead = w & (w << 1) & (w << 2) & (w << 3) & high
                        unit += 8 + fourByteLead.nonzeroBitCount - continuation.nonzeroBitCount
                    }
                    i += 8
                }
                while i < target {
                    let c = base[i]
                    if c & 0xC0 != 0x80 { unit += c >= 0xF0 ? 2 : 1 }
                    i += 1
                }
                let slot = Int(key & 0xFFFF_FFFF)
                // The end goes in `length` for now.
                if slot & 1 == 0 { entities[slot >> 1].offset = unit } else { entities[slot >> 1].length = unit }
            }
        }
        for k in entities.indices { entities[k].length -= entities[k].offset }
    }
}
