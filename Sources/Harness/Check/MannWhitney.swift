#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Mann–Whitney U test (Wilcoxon rank-sum): do two samples of timings come from the same
/// distribution? It compares ranks, not means, so one slow outlier in a noisy run moves it
/// little — the test the speed lane of `geocluster check` uses to tell a real change from noise.
///
/// The p-value is two-sided. Without ties it is exact (the null distribution of U counted by
/// the usual recurrence); with ties it is the normal approximation with the tie correction and
/// a continuity correction, as scipy.stats.mannwhitneyu(method="asymptotic") computes it.
public struct MannWhitney: Sendable, Equatable {
    /// U of the first sample: the number of pairs (a, b) with a > b, ties counting one half.
    public var u: Double
    /// Two-sided p-value.
    public var p: Double
    /// Whether `p` is exact (no ties) or the normal approximation.
    public var exact: Bool

    /// The test of `a` against `b`. Both must be non-empty.
    /// - Complexity: O((n + m) log(n + m)) for the ranks; the exact distribution O(n · m · (n + m)).
    public init(_ a: [Double], _ b: [Double]) {
        precondition(!a.isEmpty && !b.isEmpty, "Mann-Whitney needs two non-empty samples")
        let n1 = a.count, n2 = b.count, n = n1 + n2
        let all = (a.map { ($0, 0) } + b.map { ($0, 1) }).sorted { $0.0 < $1.0 }
        var rankSumA = 0.0, tieTerm = 0.0
        var i = 0
        while i < n {
            var j = i
            while j + 1 < n && all[j + 1].0 == all[i].0 { j += 1 }
            let midrank = Double(i + j + 2) / 2  // ranks are 1-based
            for k in i...j where all[k].1 == 0 { rankSumA += midrank }
            let t = Double(j - i + 1)
            tieTerm += t * t * t - t
            i = j + 1
        }
        let u1 = rankSumA - Double(n1 * (n1 + 1)) / 2
        u = u1
        if tieTerm == 0 && n1 <= 50 && n2 <= 50 {
            exact = true
            p = MannWhitney.exactTwoSided(u: Int(u1.rounded()), n1: n1, n2: n2)
        } else {
            exact = false
            let mu = Double(n1 * n2) / 2
            let nn = Double(n)
            let variance = Double(n1 * n2) / 12 * ((nn + 1) - tieTerm / (nn * (nn - 1)))
            if variance <= 0 {
                p = 1  // every value is the same: nothing to tell apart
            } else {
                let uMax = max(u1, Double(n1 * n2) - u1)
                let z = (uMax - mu - 0.5) / variance.squareRoot()
                p = min(1, erfc(z / 2.0.squareRoot()))  // 2 · P(Z > z)
            }
        }
    }

    /// 2 · min(P(U ≤ u), P(U ≥ u)) under the null hypothesis, capped at 1.
    static func exactTwoSided(u: Int, n1: Int, n2: Int) -> Double {
        let maxU = n1 * n2
        // counts[j][k]: arrangements of j values of the first sample among j + (columns) others
        // giving U = k, built one column (value of the second sample) at a time.
        // f(i, j, k) = f(i - 1, j, k - j) + f(i, j - 1, k), with f(0, j, 0) = f(i, 0, 0) = 1.
        var previous = [[Double]](repeating: [], count: n2 + 1)
        for j in 0...n2 { previous[j] = [1] }  // i = 0: U = 0 only
        if n1 > 0 {
            for i in 1...n1 {
                var current = [[Double]](repeating: [], count: n2 + 1)
                current[0] = [1]  // j = 0: U = 0 only
                if n2 > 0 {
                    for j in 1...n2 {
                        var row = [Double](repeating: 0, count: i * j + 1)
                        for (k, c) in current[j - 1].enumerated() { row[k] += c }
                        for (k, c) in previous[j].enumerated() { row[k + j] += c }
                        current[j] = row
                    }
                }
                previous = current
            }
        }
        let counts = previous[n2]
        let total = counts.reduce(0, +)
        let clamped = min(max(u, 0), maxU)
        let lower = counts[0...clamped].reduce(0, +) / total
        let upper = counts[clamped...].reduce(0, +) / total
        return min(1, 2 * min(lower, upper))
    }
}
