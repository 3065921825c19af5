import Foundation

/// SplitMix64 (Steele, Lea & Flood 2014), the test targets' one seeded generator: every test
/// sees the same data on every platform. Constants of Vigna's reference `splitmix64.c`.
///
/// Sources/Datasets has the project's own `SplitMix64` (same outputs from `next()`, other
/// helpers); a test file that imports both names this one `TestSupport.SplitMix64`.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose first output scrambles `seed &+ 0x9E37_79B9_7F4A_7C15`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits times 2^-53.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1.0p-53 }

    /// A standard normal deviate by Box–Muller from two `uniform()` draws (`1 - u` avoids
    /// log(0)); the second deviate of the pair is not kept.
    public mutating func normal() -> Double {
        let u = 1 - uniform(), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
