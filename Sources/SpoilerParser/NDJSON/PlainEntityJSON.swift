import SpoilerCore

/// Writes the entities of plain markup (spoilers and code, with no other field) as the
/// `parse` output's JSON, without a branch on each entity's type or on its numbers' digit
/// counts below 1,000: in text that mixes short and long spoilers those branches go one way
/// and the other at random, and each wrong guess costs more than the bytes written.
enum PlainEntityJSON {
    /// The most bytes ``write(_:to:)`` writes for `count` entities, with room for the
    /// whole words it stores past what it keeps: each entity its type, two integers of at
    /// most 20 bytes, the keys and a comma.
    @inline(__always)
    static func bound(count: Int) -> Int { 16 + 96 * count }

    /// Writes `,"entities":[…]}` for `entities` into room the caller checked for
    /// ``bound(count:)`` bytes; the same bytes as writing each entity's type, offset and
    /// length with ``RawJSON``'s literals and integers.
    @inline(__always)
    static func write(_ entities: UnsafeBufferPointer<Entity>, to o: inout RawJSON) {
        o.literal(#","entities":["#)
        // Each table's lazy global checked once, not once an entity.
        let heads = UnsafeRawPointer(headStorage)
        let digits = smallIntegerStorage
        for k in entities.indices {
            // A comma before every entity but the first: stored always, kept after one.
            o.p[0] = UInt8(ascii: ",")
            o.p += k == 0 ? 0 : 1
            let isSpoiler = entities[k].type == .spoiler
            // The head of either kind, 32 bytes stored, its own length kept.
            let head = heads + (isSpoiler ? 0 : 32)
            let to = UnsafeMutableRawPointer(o.p)
            to.storeBytes(of: head.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            to.storeBytes(
                of: head.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16,
                as: SIMD16<UInt8>.self)
            o.p += isSpoiler ? spoilerHead.utf8CodeUnitCount : codeHead.utf8CodeUnitCount
            integer(entities[k].offset, digits: digits, to: &o)
            o.literal(#","length":"#)
            integer(entities[k].length, digits: digits, to: &o)
            o.literal("}")
        }
        o.literal("]}")
    }

    /// Writes `n` as ``RawJSON/integer(_:)`` does; below 1,000 from `digits`
    /// (``smallIntegerStorage``), four bytes stored (room for them is the caller's) and
    /// the digits kept.
    @inline(__always)
    static func integer(_ n: Int, digits: UnsafePointer<UInt32>, to o: inout RawJSON) {
        guard UInt(bitPattern: n) < 1000 else {
            o.integer(n)
            return
        }
        let entry = digits[n]
        UnsafeMutableRawPointer(o.p).storeBytes(of: entry, as: UInt32.self)
        o.p += Int(entry >> 24)
    }

    static let spoilerHead: StaticString = #"{"type":"spoiler","offset":"#
    static let codeHead: StaticString = #"{"type":"code","offset":"#

    /// The two heads, each padded to 32 bytes: a spoiler's, then code's. Made once and
    /// never freed, reached without a retain.
    nonisolated(unsafe) static let headStorage: UnsafePointer<UInt8> = {
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        storage.initialize(repeating: 0x20, count: 64)
        for (row, head) in [spoilerHead, codeHead].enumerated() {
            precondition(head.utf8CodeUnitCount <= 32, "an entity's head outgrew its 32 bytes")
            (storage + 32 * row).update(from: head.utf8Start, count: head.utf8CodeUnitCount)
        }
        return UnsafePointer(storage)
    }()

    /// The decimal digits of 0 to 999: in each entry's low bytes in memory order, and
    /// their count in its top byte. Made once and never freed, reached without a retain.
    nonisolated(unsafe) static let smallIntegerStorage: UnsafePointer<UInt32> = {
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: 1000)
        for n in 0..<1000 {
            let count = n < 10 ? 1 : n < 100 ? 2 : 3
            var entry = UInt32(count) << 24
            var rest = n
            for k in (0..<count).reversed() {
                entry |= UInt32(0x30 + rest % 10) << (8 * UInt32(k))
                rest /= 10
            }
            (storage + n).initialize(to: entry)
        }
        return UnsafePointer(storage)
    }()
}
