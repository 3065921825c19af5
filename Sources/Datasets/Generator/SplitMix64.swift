/// SplitMix64: the project's one seeded pseudo-random generator, for generated data sets and
/// benchmarks. Same seed, same sequence, on every platform and Swift version.
///
/// Algorithm (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014; constants of Vigna's reference `splitmix64.c`): a Weyl sequence of 64-bit
/// states, each scrambled by a variant of MurmurHash3's finaliser:
///
///     state = state &+ 0x9E3779B97F4A7C15          // γ, 2^64 / golden ratio, odd
///     z = state
///     z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
///     z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
///     return z ^ (z >> 31)
///
/// Period 2^64; passes BigCrush. Every state is valid, so any seed (0 included) works.
///
/// Derived values use only exact integer arithmetic, IEEE basic operations and
/// ``DeterministicMath``, never the C library or the standard library's
/// `random(in:using:)` (whose algorithm is not part of Swift's stability promise), so they
/// too are the same everywhere:
/// - ``nextDouble()``: the top 53 bits times 2^-53, uniform in [0, 1);
/// - ``nextInt(below:)``: Lemire's multiply-shift with rejection (unbiased);
/// - ``nextNormal()``: Marsaglia's polar method, the second deviate of each pair kept for
///   the next call.
///
/// The conformance to `RandomNumberGenerator` lets standard algorithms such as `shuffle`
/// use it, but their results may change between Swift releases; data that must be
/// reproducible uses the methods here.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The Weyl increment γ.
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The current state; the next output is `mix(state &+ increment)`.
    public private(set) var state: UInt64
    /// The second deviate of the last polar-method pair, not yet returned.
    private var spareNormal: Double?

    /// A generator whose first output is `mix(seed &+ increment)`.
    public init(seed: UInt64) {
        state = seed
    }

    /// An independent stream for `(seed, stream)`: the state starts at the `stream`-th output
    /// of `SplitMix64(seed: seed)`, a pseudo-random 64-bit value, so two streams of one seed
    /// start far apart on the Weyl sequence. (Seeding with `seed &+ stream` would not do:
    /// those sequences are the same one shifted by a step.)
    public init(seed: UInt64, stream: UInt64) {
        state = Self.mix(seed &+ (stream &+ 1) &* Self.increment)
    }

    /// The SplitMix64 output function (a bijection of 64-bit values).
    @inline(__always)
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next 64 random bits.
    @inline(__always)
    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// Uniform in [0, 1), in steps of 2^-53.
    @inline(__always)
    public mutating func nextDouble() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in [lower, upper).
    @inline(__always)
    public mutating func nextDouble(in lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * nextDouble()
    }

    /// Uniform in 0..<n (Lemire 2019, "Fast random integer generation in an interval").
    /// - Precondition: n > 0.
    public mutating func nextInt(below n: Int) -> Int {
        precondition(n > 0, "nextInt(below:) needs a positive bound")
        let bound = UInt64(n)
        var m = next().multipliedFullWidth(by: bound)
        if m.low < bound {
            let threshold = (0 &- bound) % bound
            while m.low < threshold { m = next().multipliedFullWidth(by: bound) }
        }
        return Int(m.high)
    }

    /// Uniform in `range`, both ends included.
    public mutating func nextInt(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + nextInt(below: range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `p`.
    @inline(__always)
    public mutating func nextBool(probability p: Double) -> Bool {
        nextDouble() < p
    }

    /// A standard normal deviate (mean 0, standard deviation 1), by Marsaglia's polar method:
    /// draw (u, v) uniform in the unit disc minus its centre, s = u² + v², and return
    /// u·√(-2 ln s / s), keeping v·√(-2 ln s / s) for the next call.
    public mutating func nextNormal() -> Double {
        if let spare = spareNormal {
            spareNormal = nil
            return spare
        }
        var u = 0.0, v = 0.0, s = 0.0
        repeat {
            u = 2 * nextDouble() - 1
            v = 2 * nextDouble() - 1
            s = u * u + v * v
        } while s >= 1 || s == 0
        let m = (-2 * DeterministicMath.log(s) / s).squareRoot()
        spareNormal = v * m
        return u * m
    }

    /// A log-normal deviate: `median · e^(sigma · Z)` for a standard normal Z.
    public mutating func nextLogNormal(median: Double, sigma: Double) -> Double {
        median * DeterministicMath.exp(sigma * nextNormal())
    }

    /// A Pareto (type I) deviate with scale 1 and shape `alpha`: `(1 - U)^(-1/alpha)`, at
    /// least 1, with a tail P(X > x) = x^-alpha.
    public mutating func nextPareto(alpha: Double) -> Double {
        DeterministicMath.exp(-DeterministicMath.log(1 - nextDouble()) / alpha)
    }

    /// Log-uniform in [lower, upper): equal probability for each factor of the range.
    public mutating func nextLogUniform(_ lower: Double, _ upper: Double) -> Double {
        lower * DeterministicMath.exp(nextDouble() * DeterministicMath.log(upper / lower))
    }
}
