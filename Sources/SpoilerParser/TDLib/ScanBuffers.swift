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

/// A growable stack of ``OpenEntity`` in memory it owns, six bytes an entity in the
/// common case.
///
/// Hostile markup opens millions of entities without closing them (`*_~*_~…`,
/// `<b><i><b><i>…`); at 32 bytes each their stack took eight times the input. Each
/// entity is kept as its kind, its flags and how far its three offsets are past those
/// of the entity below it (a byte each: an opening markup follows the one before it);
/// the top entity's offsets are kept whole. An entity whose offsets are further on, or
/// that has attributes, keeps them on side stacks.
struct OpenEntityStack {
    /// One entity on the stack.
    private struct Packed {
        var kind: UInt8
        var flags: UInt8
        /// ``hasAttributes`` and ``hasFarOffsets``.
        var marks: UInt8
        var byteDelta: UInt8
        var utf16Delta: UInt8
        var outDelta: UInt8
    }

    /// The entity's attributes index is on `attributes` (it is -1 otherwise).
    private static let hasAttributes: UInt8 = 1
    /// The deltas do not fit a byte: the offsets of the entity below are on `below`.
    private static let hasFarOffsets: UInt8 = 2

    private var base: UnsafeMutablePointer<Packed>
    private(set) var count = 0
    private var capacity = 64
    /// The top entity's offsets.
    private var utf16Start = 0
    private var byteOffset = 0
    private var outStart = 0
    /// The attributes indexes of the entities that have one, bottom first.
    private var attributes: [Int32] = []
    /// For each entity with far offsets, bottom first, the offsets of the entity below it.
    private var below: [(utf16Start: Int, byteOffset: Int, outStart: Int)] = []

    init() {
        base = .allocate(capacity: capacity)
    }

    var isEmpty: Bool { count == 0 }

    /// The innermost open entity; the stack must not be empty.
    var top: OpenEntity {
        let p = base[count - 1]
        return OpenEntity(
            kind: p.kind, flags: p.flags, attributes: p.marks & Self.hasAttributes != 0 ? attributes.last! : -1,
            utf16Start: utf16Start, byteOffset: byteOffset, outStart: outStart)
    }

    mutating func push(_ entity: OpenEntity) {
        if count == capacity {
            let bigger = UnsafeMutablePointer<Packed>.allocate(capacity: capacity * 2)
            bigger.moveInitialize(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
        var packed = Packed(kind: entity.kind, flags: entity.flags, marks: 0, byteDelta: 0, utf16Delta: 0, outDelta: 0)
        if entity.attributes >= 0 {
            packed.marks |= Self.hasAttributes
            attributes.append(entity.attributes)
        }
        let d16 = entity.utf16Start &- utf16Start
        let dByte = entity.byteOffset &- byteOffset
        let dOut = entity.outStart &- outStart
        if d16 >= 0 && d16 < 256 && dByte >= 0 && dByte < 256 && dOut >= 0 && dOut < 256 {
            packed.utf16Delta = UInt8(truncatingIfNeeded: d16)
            packed.byteDelta = UInt8(truncatingIfNeeded: dByte)
            packed.outDelta = UInt8(truncatingIfNeeded: dOut)
        } else {
            packed.marks |= Self.hasFarOffsets
            below.append((utf16Start, byteOffset, outStart))
        }
        (base + count).initialize(to: packed)
        count += 1
        utf16Start = entity.utf16Start
        byteOffset = entity.byteOffset
        outStart = entity.outStart
    }

    @discardableResult
    mutating func pop() -> OpenEntity {
        let entity = top
        count -= 1
        let p = (base + count).move()
        if p.marks & Self.hasAttributes != 0 { attributes.removeLast() }
        if p.marks & Self.hasFarOffsets != 0 {
            (utf16Start, byteOffset, outStart) = below.removeLast()
        } else {
            utf16Start -= Int(p.utf16Delta)
            byteOffset -= Int(p.byteDelta)
            outStart -= Int(p.outDelta)
        }
        return entity
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
