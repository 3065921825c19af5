import Foundation
@testable import ClusterCore
import TestSupport

/// Point sets that stress the algorithms in different ways.
enum Shapes {
    /// Gaussian blobs of very different spread plus uniform noise (metres).
    static func blobs(_ n: Int, seed: UInt64) -> PointSet {
        var g = SplitMix64(seed: seed)
        var xs = [Double](), ys = [Double]()
        let centres: [(Double, Double, Double)] = [(0, 0, 20), (800, 100, 150), (-500, 900, 60), (1500, 1500, 400)]
        for i in 0..<n {
            if i % 4 == 3 {
                xs.append(-1000 + 4000 * g.uniform()); ys.append(-1000 + 4000 * g.uniform())
            } else {
                let c = centres[i % centres.count]
                xs.append(c.0 + c.2 * g.normal()); ys.append(c.1 + c.2 * g.normal())
            }
        }
        return try! PointSet(xs: xs, ys: ys)
    }

    /// Points on a 10 m integer grid with many exact duplicates: ties everywhere.
    static func gridWithDuplicates(_ n: Int, seed: UInt64) -> PointSet {
        var g = SplitMix64(seed: seed)
        var xs = [Double](), ys = [Double]()
        for _ in 0..<n {
            xs.append(10 * Double(Int(g.uniform() * 30))); ys.append(10 * Double(Int(g.uniform() * 30)))
        }
        return try! PointSet(xs: xs, ys: ys)
    }

    /// Uniform points in a square.
    static func uniform(_ n: Int, side: Double = 1000, seed: UInt64) -> PointSet {
        var g = SplitMix64(seed: seed)
        var xs = [Double](), ys = [Double]()
        for _ in 0..<n { xs.append(side * g.uniform()); ys.append(side * g.uniform()) }
        return try! PointSet(xs: xs, ys: ys)
    }

    /// Collinear points (degenerate boxes in one axis).
    static func line(_ n: Int, seed: UInt64) -> PointSet {
        var g = SplitMix64(seed: seed)
        var xs = [Double](), ys = [Double]()
        for _ in 0..<n { xs.append(1000 * g.uniform()); ys.append(5) }
        return try! PointSet(xs: xs, ys: ys)
    }

    /// The same points in a shuffled order, with the permutation (new row i = old row perm[i]).
    static func shuffled(_ p: PointSet, seed: UInt64) -> (PointSet, [Int]) {
        var g = SplitMix64(seed: seed)
        let perm = Array(0..<p.count).shuffled(using: &g)
        return (try! PointSet(xs: perm.map { p.xs[$0] }, ys: perm.map { p.ys[$0] }), perm)
    }
}

/// Brute-force oracles.
enum Oracle {
    static func distance(_ p: PointSet, _ i: Int, _ j: Int) -> Double {
        let dx = p.xs[i] - p.xs[j], dy = p.ys[i] - p.ys[j]
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Core distances by sorting all distances (the point itself included, scikit-learn's).
    static func coreDistances(_ p: PointSet, k: Int) -> [Double] {
        (0..<p.count).map { i in
            (0..<p.count).map { distance(p, i, $0) }.sorted()[k - 1]
        }
    }

    /// O(n²) Prim on the full mutual-reachability graph; returns sorted weights.
    static func primWeights(_ p: PointSet, core: [Double]) -> [Double] {
        primWeights(count: p.count, core: core) { distance(p, $0, $1) }
    }

    /// O(n²) Prim on the full mutual-reachability graph of `count` points under `distance`;
    /// returns sorted weights.
    static func primWeights(count n: Int, core: [Double], distance: (Int, Int) -> Double) -> [Double] {
        if n < 2 { return [] }
        var inTree = [Bool](repeating: false, count: n)
        var best = [Double](repeating: .infinity, count: n)
        var weights: [Double] = []
        var current = 0
        inTree[0] = true
        for _ in 1..<n {
            var next = -1
            for j in 0..<n where !inTree[j] {
                let w = max(core[current], core[j], distance(current, j))
                if w < best[j] { best[j] = w }
                if next < 0 || best[j] < best[next] { next = j }
            }
            weights.append(best[next])
            inTree[next] = true
            current = next
        }
        return weights.sorted()
    }

    /// The mutual-reachability MST's weights (sorted) and core distances from a full distance
    /// matrix: core distances by sorting each row (the point itself included).
    static func mst(distances d: [[Double]], minSamples: Int) -> (weights: [Double], core: [Double]) {
        let core = d.indices.map { d[$0].sorted()[minSamples - 1] }
        return (primWeights(count: d.count, core: core) { d[$0][$1] }, core)
    }
}

/// Adjusted Rand index (noise -1 as one more label, like scikit-learn's adjusted_rand_score).
func adjustedRandIndex(_ a: [Int32], _ b: [Int32]) -> Double {
    precondition(a.count == b.count)
    var table: [Int64: Int] = [:], ra: [Int32: Int] = [:], rb: [Int32: Int] = [:]
    for i in 0..<a.count {
        table[Int64(a[i]) << 32 | Int64(UInt32(bitPattern: b[i])), default: 0] += 1
        ra[a[i], default: 0] += 1
        rb[b[i], default: 0] += 1
    }
    func c2(_ x: Int) -> Double { Double(x) * Double(x - 1) / 2 }
    let index = table.values.reduce(0) { $0 + c2($1) }
    let sa = ra.values.reduce(0) { $0 + c2($1) }, sb = rb.values.reduce(0) { $0 + c2($1) }
    let total = c2(a.count)
    let expected = total == 0 ? 0 : sa * sb / total
    let maxIndex = (sa + sb) / 2
    if maxIndex == expected { return 1 }  // scikit-learn's convention for trivial labelings
    return (index - expected) / (maxIndex - expected)
}

/// Whether two labelings are the same partition (same noise set, clusters equal up to names).
func samePartition(_ a: [Int32], _ b: [Int32]) -> Bool {
    guard a.count == b.count else { return false }
    var ab: [Int32: Int32] = [:], ba: [Int32: Int32] = [:]
    for i in 0..<a.count {
        if (a[i] < 0) != (b[i] < 0) { return false }
        if a[i] < 0 { continue }
        if let m = ab[a[i]], m != b[i] { return false }
        if let m = ba[b[i]], m != a[i] { return false }
        ab[a[i]] = b[i]; ba[b[i]] = a[i]
    }
    return true
}

/// Records the stages an algorithm reports, in order, and passes each stage's error through.
final class StageRecorder: StageObserver {
    var names: [String] = []
    func run<S: ClusteringStage, T, E: Error>(_ stage: S, _ body: () throws(E) -> T) throws(E) -> T {
        names.append(stage.rawValue)
        return try body()
    }
}
