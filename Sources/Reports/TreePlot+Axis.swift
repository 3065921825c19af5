#if canImport(Glibc)
import Glibc  // log10, pow (FoundationEssentials does not re-export them)
#elseif canImport(Darwin)
import Darwin
#endif

/// The vertical axis of the tree plot: λ (1/m) growing downwards, finite values on a linear
/// or logarithmic scale, and infinite λ (coincident points) clamped to a band of its own
/// below the largest finite value.
struct LambdaAxis {
    let scale: TreePlotOptions.LambdaScale
    /// The finite λ range drawn: `low` at `top` (0 on a linear axis), `high` at `finiteBottom`.
    let low: Double
    let high: Double
    /// Pixel rows: the axis's top, where the largest finite λ sits, and where ∞ sits (equal
    /// to `finiteBottom` when the tree has no infinite λ).
    let top: Double
    let finiteBottom: Double
    let infinityY: Double
    let hasInfinity: Bool

    /// Height in px of the band between the largest finite λ and the clamped ∞.
    static let infinityBand = 30.0

    /// - Parameters:
    ///   - smallestPositive, largestFinite: the smallest positive and the largest finite λ in
    ///     the tree (nil when there is none).
    init(scale: TreePlotOptions.LambdaScale, smallestPositive: Double?, largestFinite: Double?,
         hasInfinity: Bool, top: Double, bottom: Double) {
        self.scale = scale
        self.hasInfinity = hasInfinity
        self.top = top
        infinityY = bottom
        finiteBottom = hasInfinity ? bottom - Self.infinityBand : bottom
        // A tree whose points all coincide (or a single point) has no positive finite λ: any
        // range will do, ∞ still gets its band.
        var hi = largestFinite ?? 1
        var lo = smallestPositive ?? hi / 10
        if !(hi > 0) { hi = 1; lo = 0.1 }
        switch scale {
        case .linear:
            low = 0
            high = hi
        case .logarithmic:
            // A little room above the first split, so the root's column (born at λ = 0,
            // drawn from the top) shows before anything leaves it.
            if lo >= hi { lo = hi / 10 }
            low = lo / 1.5
            high = hi
        }
    }

    /// The pixel row of `lambda` (λ ≤ `low` at the top, ∞ in its band).
    func y(_ lambda: Double) -> Double {
        if lambda.isInfinite { return infinityY }
        let span = finiteBottom - top
        switch scale {
        case .linear:
            return top + min(lambda / high, 1) * span
        case .logarithmic:
            guard lambda > low else { return top }
            return top + min(log10(lambda / low) / log10(high / low), 1) * span
        }
    }

    /// Tick values on the finite range with the decimals their labels need: 1-2-5 steps on a
    /// linear axis, 1-2-5 per decade (only 1s when that gives too many) on a log axis.
    func ticks() -> [(lambda: Double, decimals: Int)] {
        switch scale {
        case .linear:
            let (step, exponent) = Self.niceStep(high / 6)
            var out: [(Double, Int)] = []
            var k = 0.0
            while k * step <= high * (1 + 1e-9) { out.append((k * step, max(0, -exponent))); k += 1 }
            return out
        case .logarithmic:
            let first = Int(log10(low).rounded(.down)), last = Int(log10(high).rounded(.up))
            func candidates(_ mantissas: [Double]) -> [(Double, Int)] {
                var out: [(Double, Int)] = []
                for e in first...last {
                    for m in mantissas {
                        let v = m * pow(10, Double(e))
                        if v >= low * (1 - 1e-9) && v <= high * (1 + 1e-9) { out.append((v, max(0, -e))) }
                    }
                }
                return out
            }
            let all = candidates([1, 2, 5])
            return all.count <= 12 ? all : candidates([1])
        }
    }

    /// A 1, 2 or 5 times a power of ten at least `raw`, and that power's exponent.
    static func niceStep(_ raw: Double) -> (Double, Int) {
        guard raw > 0, raw.isFinite else { return (1, 0) }
        var e = Int(log10(raw).rounded(.down))
        let base = pow(10, Double(e))
        let m = raw / base
        let step: Double
        if m <= 1 { step = 1 } else if m <= 2 { step = 2 } else if m <= 5 { step = 5 } else { step = 1; e += 1 }
        return (step * pow(10, Double(e)), e)
    }

    /// A distance in metres for the secondary labels: three significant digits, km from 1 km.
    static func distanceLabel(_ metres: Double) -> String {
        guard metres.isFinite else { return "∞" }
        if metres >= 1000 { return significant(metres / 1000) + " km" }
        return significant(metres) + " m"
    }

    private static func significant(_ value: Double) -> String {
        guard value > 0 else { return "0" }
        let digits = Int(log10(value).rounded(.down))
        return svgNumber(value, decimals: max(0, 2 - digits))
    }
}
