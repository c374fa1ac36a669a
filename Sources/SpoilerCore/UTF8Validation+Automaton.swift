extension UTF8Validation {
    /// The state of the validating automaton (``step(_:_:rows:)``) between whole
    /// sequences: where it starts, and where a valid text ends.
    public static let acceptState: UInt64 = 6

    /// The state of the automaton once it has met an invalid sequence; it never leaves it.
    public static let errorState: UInt64 = 0

    /// The rows of the validating automaton, one for each byte value: the package's one
    /// statement of which UTF-8 is valid (no overlong forms, surrogates or scalars past
    /// U+10FFFF; ``firstInvalidOffset(in:)-(UnsafeBufferPointer<UInt8>)`` and the NDJSON
    /// line reader both step through it), as a table, so that a run of non-ASCII text is checked a byte at a time
    /// with no branch (a branch on each sequence's length is mispredicted often in text
    /// that mixes scripts).
    ///
    /// A state is the offset of a 6-bit field in a row, and the field holds the next
    /// state: the shift automaton of Per Vognsen's "shift-based DFAs"
    /// (gist.github.com/pervognsen/218ea17743e1442e59bb60d29b1aa725), on the states of
    /// Björn Höhrmann's "Flexible and Economical UTF-8 Decoder". The states are
    /// ``errorState`` (0, so that every transition left out leads to it and it leads only
    /// to itself), ``acceptState`` (6), one, two or three continuation bytes still to come
    /// (12, 18, 24), and after E0, ED, F0 and F4, whose second byte has a narrower range
    /// (30, 36, 42, 48).
    public static let automatonRows: [UInt64] = (0...255).map { (byte: Int) -> UInt64 in
        let accept: UInt64 = 6
        let need1: UInt64 = 12
        let need2: UInt64 = 18
        let need3: UInt64 = 24
        let afterE0: UInt64 = 30
        let afterED: UInt64 = 36
        let afterF0: UInt64 = 42
        let afterF4: UInt64 = 48
        var row: UInt64 = 0
        func add(_ from: UInt64, _ to: UInt64) { row |= to << from }
        switch byte {
        case 0x00...0x7F:
            add(accept, accept)
        case 0x80...0xBF:
            add(need1, accept)
            add(need2, need1)
            add(need3, need2)
            if byte >= 0xA0 { add(afterE0, need1) } else { add(afterED, need1) }
            if byte >= 0x90 { add(afterF0, need2) } else { add(afterF4, need2) }
        case 0xC2...0xDF: add(accept, need1)
        case 0xE0: add(accept, afterE0)
        case 0xED: add(accept, afterED)
        case 0xE1...0xEF: add(accept, need2)
        case 0xF0: add(accept, afterF0)
        case 0xF4: add(accept, afterF4)
        case 0xF1...0xF3: add(accept, need3)
        default: break  // C0, C1, F5 to FF: never valid
        }
        return row
    }

    /// ``automatonRows``' 256 rows in storage of their own, made once and never freed:
    /// for scans that run once a line, which reach the rows through this pointer without
    /// the retain and release that borrowing the array's storage costs each time.
    ///
    /// ```swift
    /// var state = UTF8Validation.acceptState
    /// for b in "é".utf8 { state = UTF8Validation.step(state, b, rows: UTF8Validation.automatonRowStorage) }
    /// // state == UTF8Validation.acceptState
    /// ```
    nonisolated(unsafe) public static let automatonRowStorage: UnsafePointer<UInt64> = {
        let storage = UnsafeMutablePointer<UInt64>.allocate(capacity: automatonRows.count)
        storage.initialize(from: automatonRows, count: automatonRows.count)
        return UnsafePointer(storage)
    }()

    /// The automaton's state after `byte`, from `state`: ``acceptState`` after a whole
    /// valid sequence, ``errorState`` from an invalid one on, or a state inside a sequence.
    ///
    /// A text is valid UTF-8 when stepping through all of its bytes from ``acceptState``
    /// ends in ``acceptState``. With no branch, it costs the same for every byte.
    ///
    /// ```swift
    /// UTF8Validation.automatonRows.withUnsafeBufferPointer { rows in
    ///     var state = UTF8Validation.acceptState
    ///     for b in "é".utf8 { state = UTF8Validation.step(state, b, rows: rows.baseAddress!) }
    ///     // state == UTF8Validation.acceptState
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - state: The state before the byte.
    ///   - byte: The next byte.
    ///   - rows: ``automatonRows``' storage.
    /// - Returns: The state after the byte.
    @inlinable @inline(__always)
    public static func step(_ state: UInt64, _ byte: UInt8, rows: UnsafePointer<UInt64>) -> UInt64 {
        rows[Int(byte)] &>> state & 63
    }

    /// The automaton's state after the eight bytes of `word`, in memory order (the
    /// least significant byte first, as an unaligned load on a little-endian machine
    /// gives them), from `state`: what eight calls of ``step(_:_:rows:)`` give.
    ///
    /// The field is picked out once, at the end: a shift counts only the low six bits of
    /// its amount, so that each byte costs a load that does not wait for the state and
    /// one shift that does.
    ///
    /// - Parameters:
    ///   - state: The state before the word.
    ///   - word: Eight bytes.
    ///   - rows: ``automatonRows``' storage.
    /// - Returns: The state after the word.
    @inlinable @inline(__always)
    public static func step(_ state: UInt64, through word: UInt64, rows: UnsafePointer<UInt64>) -> UInt64 {
        var s = state
        for j in 0..<8 { s = rows[Int(truncatingIfNeeded: word &>> UInt64(j << 3) & 0xFF)] &>> s }
        return s & 63
    }
}
