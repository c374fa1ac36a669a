/// A growable byte buffer that output lines are written into through a ``JSONByteCursor``,
/// reused from line to line: a line filter writes thousands of small records a second, and
/// a fresh array for each costs an allocation, a metadata lookup and a free.
///
/// The storage only grows (geometrically), without being filled; ``removeAll()`` keeps it.
/// ``count`` bytes of it are the output.
///
/// ```swift
/// var out = JSONOutputBuffer()
/// out.write(bound: 16) { c in c.literal(#"{"n":"#); c.integer(7); c.literal("}") }
/// out.append(UInt8(ascii: "\n"))
/// // out.withUnsafeBytes { Array($0) } == Array("{\"n\":7}\n".utf8)
/// ```
public struct JSONOutputBuffer: Sendable {
    /// The storage; its first ``count`` bytes are the output, the rest room.
    @usableFromInline var storage: [UInt8] = []
    /// How many bytes have been written: ``count``, settable from inlined code.
    @usableFromInline var filled = 0

    /// How many bytes have been written.
    @inlinable public var count: Int { filled }

    /// An empty buffer; it allocates on the first write.
    public init() {}

    /// Makes room for at least `n` more bytes.
    @inlinable @inline(__always)
    mutating func reserve(_ n: Int) {
        if storage.count - filled < n { grow(n) }
    }

    /// Moves the bytes written into new storage of at least `count + n` bytes. The room
    /// past them is left as the allocator gives it, untouched: a bound far above what is
    /// written (six bytes for every byte of text, in case each needs `\u` escaping) costs
    /// address space, not resident memory.
    @usableFromInline
    mutating func grow(_ n: Int) {
        let wanted = max(count + n, 2 * storage.count, 4096)
        let used = count
        let old = storage
        storage = [UInt8](unsafeUninitializedCapacity: wanted) { room, initialized in
            if used > 0 {
                old.withUnsafeBufferPointer { room.baseAddress!.update(from: $0.baseAddress!, count: used) }
            }
            // UInt8 is trivial: the room is written before it is read, from `count` on.
            initialized = wanted
        }
    }

    /// Writes at most `bound` bytes with `body` after the bytes written so far.
    ///
    /// - Precondition: `body` writes at most `bound` bytes (a cursor traps past it).
    public mutating func write(bound: Int, _ body: (inout JSONByteCursor) -> Void) {
        reserve(bound)
        let start = count
        filled += storage.withUnsafeMutableBufferPointer { p in
            var cursor = JSONByteCursor(UnsafeMutableBufferPointer(start: p.baseAddress! + start, count: bound))
            body(&cursor)
            return (p.baseAddress! + start).distance(to: cursor.p)
        }
    }

    /// Lets `body` write at most `bound` bytes straight into the room after the bytes
    /// written so far; it returns how many it wrote, which are kept.
    ///
    /// Inlined into the caller, with `body`: a line filter writes each output line this way.
    ///
    /// - Precondition: `body` returns at most `bound`.
    @inlinable
    public mutating func write(bound: Int, raw body: (UnsafeMutableBufferPointer<UInt8>) -> Int) {
        reserve(bound)
        let start = count
        let written = storage.withUnsafeMutableBufferPointer { p in
            body(UnsafeMutableBufferPointer(start: p.baseAddress! + start, count: bound))
        }
        precondition(written >= 0 && written <= bound, "wrote \(written) bytes in room for \(bound)")
        filled += written
    }

    /// Appends one byte.
    ///
    /// Inlined into the caller: a line filter appends each line's newline this way, and a
    /// call across modules cost more than the store.
    @inlinable
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        storage[filled] = byte
        filled += 1
    }

    /// Appends bytes as they are.
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let from = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        let start = count
        storage.withUnsafeMutableBufferPointer { p in
            (p.baseAddress! + start).update(from: from, count: bytes.count)
        }
        filled += bytes.count
    }

    /// Forgets the bytes written from `newCount` on, keeping the storage: takes back what
    /// was written for a line that turned out to need another way.
    ///
    /// - Parameter newCount: How many bytes to keep, at most ``count``.
    public mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count, "cannot truncate \(count) bytes to \(newCount)")
        filled = newCount
    }

    /// Forgets the bytes written, keeping the storage.
    public mutating func removeAll() {
        filled = 0
    }

    /// Calls `body` with the bytes written.
    public func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { p in
            try body(UnsafeBufferPointer(start: p.baseAddress, count: count))
        }
    }

    /// Calls `body` with the bytes in `range` of those written.
    public func withUnsafeBytes<R>(in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows
        -> R
    {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "range \(range) outside 0..<\(count)")
        return try storage.withUnsafeBufferPointer { p in
            try body(UnsafeBufferPointer(rebasing: p[range]))
        }
    }
}
