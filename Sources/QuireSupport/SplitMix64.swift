/// SplitMix64: a small seeded generator, for simulations and tests that must repeat.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    package var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    package mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// An index drawn with the weights given.
    package mutating func pick(_ weights: [Double]) -> Int {
        var x = uniform() * weights.reduce(0, +)
        for (k, w) in weights.enumerated() {
            if x < w { return k }
            x -= w
        }
        return weights.count - 1
    }
}
