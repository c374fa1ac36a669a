/// Manually managed buffers for the MarkdownV2 and HTML scanners.
///
/// The scanners touch every input byte, often pushing or popping an open entity for it (a
/// run of `*` toggles bold at each byte). Unsafe pointers of trivial types keep that work to
/// a few instructions even in debug builds, where generic `Array` operations cost hundreds;
/// these two types fence the unsafe code off. Both must be released with `deallocate()`.

/// An entity that has begun and not yet ended: a trivial value, so the stack can live in
/// raw memory.
struct OpenEntity {
    /// The scanner's code for what the entity will become.
    var kind: UInt8
    /// Scanner-specific flags (HTML: `blockquote expandable`).
    var flags: UInt8
    /// Index into the scanner's side table of attributes, or -1.
    var attributes: Int32
    /// UTF-16 offset in the output where the entity starts.
    var utf16Start: Int
    /// Byte offset in the input of the markup that opened it.
    var byteOffset: Int
    /// Byte offset in the output where the entity starts.
    var outStart: Int
}

/// A growable stack of ``OpenEntity`` in memory it owns.
struct OpenEntityStack {
    private(set) var base: UnsafeMutablePointer<OpenEntity>
    private(set) var count = 0
    private var capacity = 64

    init() {
        base = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }

    /// The innermost open entity; the stack must not be empty.
    var top: OpenEntity { base[count - 1] }

    mutating func push(_ entity: OpenEntity) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<OpenEntity>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        (base + count).initialize(to: entity)
        count += 1
    }

    @discardableResult
    mutating func pop() -> OpenEntity {
        count -= 1
        return (base + count).move()
    }

    func deallocate() {
        base.deallocate()
    }
}

/// The output bytes of a scan, with room for `capacity` bytes (never outgrown: both scanners
/// write at most one output byte per input byte).
struct OutputBytes {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(capacity: Int) {
        base = .allocate(capacity: max(capacity, 1))
    }

    @inline(__always) mutating func append(_ b: UInt8) {
        base[count] = b
        count += 1
    }

    /// Appends `count` bytes from `bytes`.
    @inline(__always) mutating func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        (base + count).initialize(from: bytes, count: n)
        count += n
    }

    /// The bytes from `start` to the end, copied.
    func bytes(from start: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: base + start, count: count - start))
    }

    /// The output as text (it is valid UTF-8 whenever the scan succeeds).
    var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
    }

    func deallocate() {
        base.deallocate()
    }
}
