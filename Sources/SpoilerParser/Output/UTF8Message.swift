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
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var out = [Int](repeating: 0, count: offsets.count)
        bytes.withUnsafeBufferPointer { p in
            var byte = 0
            var unit = 0
            for k in order {
                let target = offsets[k]
                unit += MarkdownFlattener.utf16Length(UnsafeBufferPointer(rebasing: p[byte..<target]))
                byte = target
                out[k] = unit
            }
        }
        return out
    }

    /// The message, offsets in UTF-16 units; empty entities are dropped.
    var message: Message {
        let text = String(decoding: bytes, as: UTF8.self)
        var kept = entities.filter { $0.length > 0 }
        if !kept.isEmpty {
            var offsets: [Int] = []
            offsets.reserveCapacity(2 * kept.count)
            for e in kept {
                offsets.append(e.offset)
                offsets.append(e.end)
            }
            let units = utf16Offsets(offsets)
            for k in kept.indices {
                kept[k].offset = units[2 * k]
                kept[k].length = units[2 * k + 1] - units[2 * k]
            }
        }
        return Message(text: text, entities: kept)
    }
}
