// The widest empty stretch of values on a circle: where longitudes (degrees, or Web Mercator
// x in turns) are best cut open so that no group of points falls into two ends of a line. The
// sphere's grid cuts its cells there (GridClustering+Sphere.swift); pins and maps start their
// window there (Pins' `LongitudeWindow`).

/// The widest gap between consecutive values on the circle [`from`, `from + period`], the gap
/// across `from` (from the largest value round to the smallest) included. On a tie the gap
/// across `from` wins, then the first in ascending order: so data away from `from` is cut at
/// `from`, exactly as without a search.
package struct CircularGap: Sendable, Equatable {
    /// Whether the widest gap is the one across `from`.
    package let isAcross: Bool
    /// The value before the gap and the value after it (for the gap across `from`, the
    /// largest value and the smallest).
    package let lower: Double
    package let upper: Double
    /// The gap's width: `upper - lower`, or `period - (lower - upper)` across `from`.
    package let width: Double

    /// The widest gap of `values`, each in [`from`, `from + period`]; no values make one gap
    /// of the whole period across `from`.
    /// - Complexity: O(n) time and O(1) extra memory when the gap across `from` is the widest
    ///   by a clear margin, O(n) with a few bins otherwise, O(n log n) only when the values
    ///   fill the circle so evenly that no gap is wider than twice a bin.
    package init(of values: [Double], from: Double, period: Double) {
        guard var lo = values.first else {
            self.init(isAcross: true, lower: from, upper: from, width: period)
            return
        }
        var hi = lo
        for v in values { lo = Swift.min(lo, v); hi = Swift.max(hi, v) }
        let across = CircularGap(isAcross: true, lower: hi, upper: lo, width: period - (hi - lo))
        // Every other gap lies inside [lo, hi]: none can be wider than that.
        if across.width >= hi - lo { self = across; return }
        self = Self.binned(values, lo: lo, hi: hi, across: across) ?? Self.sorted(values, across: across)
    }

    private init(isAcross: Bool, lower: Double, upper: Double, width: Double) {
        self.isAcross = isAcross; self.lower = lower; self.upper = upper; self.width = width
    }

    /// The middle of the gap, in [`from`, `from + period`).
    package func middle(from: Double, period: Double) -> Double {
        var m = lower + width / 2
        while m >= from + period { m -= period }
        while m < from { m += period }
        return m
    }

    /// The number of bins `binned` spreads the values over.
    static let binCount = 1 << 16

    /// The widest gap from the least and greatest value of each of `binCount` equal bins over
    /// [lo, hi]: a gap inside one bin is at most a bin wide (give or take rounding), so a gap
    /// between bins wider than two bins is the widest of all, and every gap as wide lies
    /// between bins too (ties keep their order). Nil when no gap is that wide.
    private static func binned(_ values: [Double], lo: Double, hi: Double, across: CircularGap) -> CircularGap? {
        let bins = binCount, scale = Double(bins) / (hi - lo)
        var least = [Double](repeating: .infinity, count: bins), greatest = [Double](repeating: -.infinity, count: bins)
        for v in values {
            let b = Swift.min(bins - 1, Int((v - lo) * scale))
            least[b] = Swift.min(least[b], v); greatest[b] = Swift.max(greatest[b], v)
        }
        var best = across, previous = greatest[0]
        for b in 1..<bins where least[b] <= greatest[b] {
            if least[b] - previous > best.width {
                best = CircularGap(isAcross: false, lower: previous, upper: least[b], width: least[b] - previous)
            }
            previous = greatest[b]
        }
        return best.width > 2 * (hi - lo) / Double(bins) ? best : nil
    }

    /// The widest gap by sorting the values.
    private static func sorted(_ values: [Double], across: CircularGap) -> CircularGap {
        var sorted = values
        sorted.sort()
        var best = across
        for k in 1..<sorted.count where sorted[k] - sorted[k - 1] > best.width {
            best = CircularGap(isAcross: false, lower: sorted[k - 1], upper: sorted[k], width: sorted[k] - sorted[k - 1])
        }
        return best
    }
}
