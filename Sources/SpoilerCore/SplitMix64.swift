/// A small, fast, seeded pseudo-random generator (Steele, Lea and Flood, "Fast Splittable
/// Pseudorandom Number Generators", 2014). The same seed gives the same sequence on every
/// machine, which is what deterministic output needs.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's whole state: each call to `next()` adds a fixed odd constant to it and
    /// returns a scramble of the result. Saving and restoring it replays the sequence from there.
    public var state: UInt64

    /// A generator that starts from `seed`; every value of the seed, 0 included, is a valid start.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in [0, 1), from the top 53 bits.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A uniform Float in [0, 1), from the top 24 bits.
    public mutating func nextUnitFloat() -> Float {
        Float(next() >> 40) * 0x1.0p-24
    }
}
