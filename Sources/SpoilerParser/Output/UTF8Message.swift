import SpoilerCore

/// Text being built as UTF-8 bytes, with entities whose `offset` and `length` count bytes
/// until ``message`` turns them into UTF-16 units; for the readers that copy their text
/// from UTF-8 input piece by piece (Discord).
struct UTF8Message {
    var bytes: [UInt8] = []
    var entities: [Entity] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// Appends `source[from..<to]` to the text, through a pointer (no slice to retain).
    @inline(__always)
    mutating func append(_ source: [UInt8], _ from: Int, _ to: Int) {
        guard from < to else { return }
        source.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[from..<to])) }
    }

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
        if !kept.isEmpty { bytes.withUnsafeBufferPointer { UTF8Message.convertToUTF16(&kept, in: $0) } }
        return Message(text: text, entities: kept)
    }

    /// Turns the byte offsets and lengths of `entities` into UTF-16 ones: one pass over `p`
    /// eight bytes at a time notes the units before each eight (in a buffer on the stack for
    /// a short text), then each edge adds the units of the bytes before it in its eight.
    static func convertToUTF16(_ entities: inout [Entity], in p: UnsafeBufferPointer<UInt8>) {
        guard let base = p.baseAddress else { return }
        let n = p.count
        let words = n / 8
        withUnsafeTemporaryAllocation(of: Int.self, capacity: words + 1) { before in
            var unit = 0
            for w in 0..<words {
                before[w] = unit
                unit &+= utf16Units(inWord: UnsafeRawPointer(base + 8 * w).loadUnaligned(as: UInt64.self), bytes: 8)
            }
            before[words] = unit
            // All ASCII so far: offsets before the last eight bytes stay as they are.
            if unit == 8 * words && UTF8Message.isASCII(UnsafeBufferPointer(rebasing: p[(8 * words)...])) { return }
            /// The units before byte offset `offset` (a scalar boundary).
            func units(_ offset: Int) -> Int {
                let w = offset &>> 3
                let r = offset & 7
                var u = before[w]
                guard r > 0 else { return u }
                if 8 * w + 8 <= n {
                    // The bytes before `offset` in its eight, the rest masked off (the first
                    // byte is the lowest).
                    let word = UnsafeRawPointer(base + 8 * w).loadUnaligned(as: UInt64.self)
                    return u &+ utf16Units(inWord: word & ((1 &<< UInt64(8 &* r)) &- 1), bytes: r)
                }
                for k in (8 * w)..<offset where base[k] & 0xC0 != 0x80 { u += base[k] >= 0xF0 ? 2 : 1 }
                return u
            }
            entities.withUnsafeMutableBufferPointer { list in
                for k in 0..<list.count {
                    let start = units(list[k].offset)
                    let end = units(list[k].offset + list[k].length)
                    list[k].offset = start
                    list[k].length = end - start
                }
            }
        }
    }

    /// The UTF-16 units of the UTF-8 bytes in `w` (its first `bytes` bytes; the rest zero),
    /// a scalar split across words counted in the word of its first byte: the bytes, less the
    /// continuation bytes (`10xxxxxx`), plus the four-byte leads (`11110xxx`). The bits are
    /// added by a multiplication, as the baseline x86-64 has no population count.
    @inline(__always)
    static func utf16Units(inWord w: UInt64, bytes: Int) -> Int {
        let (high, ones) = (ByteLanes.highs, ByteLanes.ones)
        if w & high == 0 { return bytes }
        let continuation = (w & ~(w &<< 1) & high) &>> 7
        let fourByteLead = (w & (w &<< 1) & (w &<< 2) & (w &<< 3) & high) &>> 7
        return bytes &+ Int(truncatingIfNeeded: (fourByteLead &* ones) &>> 56)
            &- Int(truncatingIfNeeded: (continuation &* ones) &>> 56)
    }
}
