/// A growable run of bytes in memory its owner frees (``deallocate()``): what
/// `MarkdownFlattener` writes the message text into.
///
/// The flattener appends hundreds of thousands of short pieces per megabyte; `[UInt8]`'s
/// `append(contentsOf:)` costs about 90 instructions a call in its uniqueness and
/// capacity checks, this a compare and a copy. A value of this type must have one owner:
/// copies share the memory.
struct ByteWriter {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(64, capacity)
        base = .allocate(capacity: self.capacity)
    }

    var isEmpty: Bool { count == 0 }

    /// The bytes written so far (valid until the next append or ``deallocate()``).
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if capacity - count < bytes.count { grow(to: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    mutating func append(repeating byte: UInt8, count n: Int) {
        guard n > 0 else { return }
        if capacity - count < n { grow(to: count + n) }
        (base + count).update(repeating: byte, count: n)
        count += n
    }

    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        moved.moveInitialize(from: base, count: count)
        base.deallocate()
        base = moved
        capacity = newCapacity
    }

    /// Frees the memory; the writer must not be used after.
    func deallocate() { base.deallocate() }
}
