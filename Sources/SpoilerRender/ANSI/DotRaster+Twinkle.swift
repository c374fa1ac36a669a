extension DotRaster {
    /// Seconds of one twinkle phase of a cell (``twinklePhase(cell:)``).
    ///
    /// A quarter of a second: each cell of a hidden word changes at every new phase, so
    /// none holds its glyph longer than that, even seen at ten frames a second.
    public static let twinkleSeconds = 0.25

    /// The twinkle phase of cell `cell` (row-major) at ``twinkleTime``: a whole number
    /// that goes up by one every ``twinkleSeconds``, from an offset of the cell's own (a
    /// hash of its index), so neighbouring cells change at different moments; 0 when
    /// there is no twinkle time.
    public func twinklePhase(cell: Int) -> Int {
        guard let t = twinkleTime, t.isFinite, abs(t) < 1e12 else { return 0 }
        let offset = Double(DotRaster.mix(UInt32(truncatingIfNeeded: cell))) / 4_294_967_296
        return Int((t / DotRaster.twinkleSeconds + offset).rounded(.down))
    }

    /// Lights one faint dot (the lowest level, a light of half a particle) in cell `cell`
    /// (row-major, inside the raster), in `color` (`0xRRGGBB`).
    ///
    /// The frame builder gives an ember to every cell of a hidden word that no particle
    /// lights: at a low `--density`, or by chance in a small word, a cell has no
    /// particle, and a blank cell in a hidden word shows where the text is not (a gap
    /// the width of a letter). The dot moves to another dot of the cell at every twinkle
    /// phase (``twinklePhase(cell:)``; a braille cell steps three dots on, a half-block or
    /// ASCII cell swaps its two); without a twinkle time it stays on its first dot.
    public mutating func addEmber(cell: Int, color: UInt32) {
        guard cell >= 0, cell < columns * rows else { return }
        let dots = UInt32(glyphs.dotsPerColumn * glyphs.dotsPerRow)
        let phase = UInt32(truncatingIfNeeded: twinklePhase(cell: cell))
        let dot = (DotRaster.mix(UInt32(truncatingIfNeeded: cell) ^ 0x9E37_79B9) &+ phase &* 3) % dots
        light(cell: cell, bit: UInt8(1) << UInt8(dot), level: 1, alpha: 0.5, color: color)
    }

    /// Makes the braille pattern of the lit cell `cell` change at every twinkle phase:
    /// adds one dot (or, in a full cell, takes one away) so that the number of dots is
    /// odd in odd phases and even in even ones. Two patterns with a different number of
    /// dots differ, so the cell's glyph changes at every new phase whatever its particles
    /// do (they may move in a way that leaves the pattern as it was). An empty cell and
    /// glyph sets other than braille are left alone (the ramps take the phase in
    /// ``GlyphSet/symbol(mask:light:phase:)``), and so is everything without a twinkle time.
    ///
    /// The dot added is an unlit one picked by a hash of the cell and the phase; it adds
    /// no light, level or colour.
    public mutating func keepTwinkling(cell: Int) {
        guard glyphs == .braille, twinkleTime != nil, cell >= 0, cell < columns * rows else { return }
        let mask = masks[cell]
        guard mask != 0 else { return }
        let phase = twinklePhase(cell: cell)
        guard mask.nonzeroBitCount & 1 != phase & 1 else { return }
        // The candidates: the unlit dots, or in a full cell the lit ones.
        let candidates = mask == 0xFF ? mask : ~mask
        let pick = Int(DotRaster.mix(UInt32(truncatingIfNeeded: cell) &+ UInt32(truncatingIfNeeded: phase)) % 8)
        var bit: UInt8 = 0
        for k in 0..<8 {
            let b = UInt8(1) << UInt8((pick + k) & 7)
            if candidates & b != 0 {
                bit = b
                break
            }
        }
        masks[cell] = mask ^ bit
    }

    /// MurmurHash3's 32-bit finaliser (`fmix32`): a bijection that mixes every bit of
    /// `value` into every other.
    @inlinable
    static func mix(_ value: UInt32) -> UInt32 {
        var h = value
        h ^= h >> 16
        h &*= 0x85EB_CA6B
        h ^= h >> 13
        h &*= 0xC2B2_AE35
        h ^= h >> 16
        return h
    }
}
