import Testing
@testable import ClusterCore
import TestSupport

/// The widest gap by a plain scan of the distinct values in order: the gap across `from`
/// first, then in ascending order, a wider one replacing the best.
private func oracle(_ values: [Double], from: Double, period: Double) -> (across: Bool, lower: Double, upper: Double, width: Double) {
    let distinct = Array(Set(values)).sorted()
    guard let lo = distinct.first, let hi = distinct.last else { return (true, from, from, period) }
    var best = (across: true, lower: hi, upper: lo, width: period - (hi - lo))
    for (a, b) in zip(distinct, distinct.dropFirst()) where b - a > best.width { best = (false, a, b, b - a) }
    return best
}

@Suite("The widest empty stretch on a circle")
struct CircularGapTests {
    private func expectOracle(_ values: [Double], from: Double = -180, period: Double = 360, _ note: String) {
        let gap = CircularGap(of: values, from: from, period: period), o = oracle(values, from: from, period: period)
        #expect(gap.isAcross == o.across && gap.lower == o.lower && gap.upper == o.upper && gap.width == o.width,
                "\(note): \(gap) vs \(o)")
    }

    @Test("equals a scan of the sorted values: clusters, scatter, ties, data at ±180°, data all round the circle", arguments: [1, 2, 3])
    func matchesBruteForce(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        // Clusters anywhere, some across ±180°: the bins decide.
        for trial in 0..<6 {
            var v: [Double] = []
            for _ in 0..<(1 + trial) {
                let centre = rng.uniform() * 360 - 180, spread = 0.01 + 20 * rng.uniform()
                for _ in 0..<300 {
                    var x = centre + spread * rng.normal()
                    x = x >= 180 ? x - 360 : (x < -180 ? x + 360 : x)
                    v.append(x)
                }
            }
            expectOracle(v, "clusters, trial \(trial)")
        }
        // Scatter over the whole circle, repeated values and ±180 themselves.
        var scatter = (0..<2_000).map { _ in (rng.uniform() * 360 - 180) }
        scatter += scatter.prefix(200) + [-180, 180]
        expectOracle(scatter, "scatter")
        // So even that no gap is two bins wide: the sort decides.
        let n = CircularGap.binCount * 2
        expectOracle((0..<n).map { -180 + 360 * (Double($0) + rng.uniform()) / Double(n) }, "even")
        // Mercator x in turns.
        expectOracle((0..<500).map { _ in rng.uniform() < 0.5 ? 0.999 + 0.001 * rng.uniform() : 0.001 * rng.uniform() },
                     from: 0, period: 1, "Mercator x across the seam")
    }

    @Test("ties: the gap across the cut first, then the first in ascending order; degenerate inputs")
    func ties() {
        // Gaps of 1 inside, 7 across: across.
        #expect(CircularGap(of: [0, 1, 2, 3], from: 0, period: 10).isAcross)
        // Two inner gaps of 4 and one across of 4: across wins the tie.
        #expect(CircularGap(of: [0, 4, 8], from: 0, period: 12).isAcross)
        // Two equal inner gaps wider than the one across: the first.
        let g = CircularGap(of: [0, 5, 10, 11], from: 0, period: 12)
        #expect(!g.isAcross && g.lower == 0 && g.upper == 5 && g.width == 5)
        #expect(g.middle(from: 0, period: 12) == 2.5)
        // Across ±180: the middle of the gap from 179.5 round to -179.5 is 180 → -180.
        #expect(CircularGap(of: [-170, 170], from: -180, period: 360).middle(from: -180, period: 360) == 0)
        #expect(CircularGap(of: [-10, 10], from: -180, period: 360).middle(from: -180, period: 360) == -180)
        let none = CircularGap(of: [], from: -180, period: 360)
        #expect(none.isAcross && none.width == 360)
        let one = CircularGap(of: [42, 42, 42], from: -180, period: 360)
        #expect(one.isAcross && one.width == 360 && one.middle(from: -180, period: 360) == -138)
    }
}
