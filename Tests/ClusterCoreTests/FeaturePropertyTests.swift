import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// Points in d dimensions for the property tests: blobs of different spread, uniform noise, a
/// share of exact duplicates, and (with `grid`) integer coordinates, so that distances tie.
func featureSample(_ n: Int, dimensions d: Int, seed: UInt64, grid: Bool = false) -> FeaturePoints {
    var g = SplitMix64(seed: seed)
    let centres = (0..<4).map { c in (0..<d).map { _ in 100 * g.uniform() + Double(c) * 10 } }
    let spreads = [1.0, 4.0, 0.5, 8.0]
    var values: [Double] = []
    for i in 0..<n {
        let u = g.uniform()
        if u < 0.1 && i > 0 {
            let j = Int(g.next() % UInt64(i))
            values += values[j * d ..< (j + 1) * d]
        } else if u < 0.3 {
            values += (0..<d).map { _ in 140 * g.uniform() - 20 }
        } else {
            let c = Int(g.next() % 4)
            values += (0..<d).map { centres[c][$0] + spreads[c] * g.normal() }
        }
        if grid { for a in 0..<d { values[i * d + a] = (values[i * d + a] / 3).rounded() } }
    }
    return try! FeaturePoints(values: values, dimensions: d)
}

/// The same points with their rows in another order (new row i = old row perm[i]).
func permuted(_ p: FeaturePoints, seed: UInt64) -> (FeaturePoints, [Int]) {
    var g = SplitMix64(seed: seed)
    let perm = Array(0..<p.count).shuffled(using: &g)
    let d = p.dimensions
    return (try! FeaturePoints(values: perm.flatMap { p.values[$0 * d ..< ($0 + 1) * d] }, dimensions: d), perm)
}

/// Brute-force oracles in d dimensions: every pair's distance, core distances by sorting,
/// the mutual-reachability MST by Prim's algorithm, DBSCAN by its definition.
enum FeatureOracle {
    static func distances(_ p: FeaturePoints) -> [[Double]] {
        (0..<p.count).map { i in (0..<p.count).map { j in
            (0..<p.dimensions).reduce(0.0) { s, a in s + (p[i, a] - p[j, a]) * (p[i, a] - p[j, a]) }.squareRoot()
        } }
    }

    static func mst(_ p: FeaturePoints, minSamples: Int) -> (weights: [Double], core: [Double]) {
        Oracle.mst(distances: distances(p), minSamples: minSamples)
    }

    /// Core flags and the partition of core points (components of core neighbours), and each
    /// border point's lowest-numbered cluster, clusters numbered by their lowest row.
    static func dbscan(_ p: FeaturePoints, eps: Double, minSamples: Int) -> [Int32] {
        let n = p.count, d = distances(p)
        let core = (0..<n).map { i in (0..<n).filter { d[i][$0] <= eps }.count >= minSamples }
        var label = [Int32](repeating: -1, count: n), next: Int32 = 0
        for i in 0..<n where core[i] && label[i] < 0 {
            var stack = [i]
            label[i] = next
            while let u = stack.popLast() {
                for v in 0..<n where core[v] && label[v] < 0 && d[u][v] <= eps { label[v] = next; stack.append(v) }
            }
            next += 1
        }
        for i in 0..<n where !core[i] {
            label[i] = (0..<n).filter { core[$0] && d[i][$0] <= eps }.map { label[$0] }.min() ?? -1
        }
        return label
    }
}

@Suite("d-dimensional clustering: oracles and properties")
struct FeaturePropertyTests {
    @Test("core distances and MST weights equal the brute-force oracle's", arguments: [1, 3, 5, 8, 16])
    func oracle(dimensions: Int) throws {
        for grid in [false, true] {
            let points = featureSample(300, dimensions: dimensions, seed: UInt64(dimensions), grid: grid)
            for minSamples in [1, 5] {
                let oracle = FeatureOracle.mst(points, minSamples: minSamples)
                for threads in [1, 2] {
                    let (mst, core) = try HDBSCAN.minimumSpanningTree(.features(points), minSamples: minSamples,
                                                                      threads: threads)
                    #expect(mst.count == points.count - 1)
                    #expect(core == oracle.core, "d=\(dimensions) grid=\(grid) k=\(minSamples)")
                    let sorted = mst.weight.sorted()
                    let worst = zip(sorted, oracle.weights).map { abs($0 - $1) / max(1e-300, $1) }.max() ?? 0
                    #expect(worst < 1e-12, "d=\(dimensions) grid=\(grid) k=\(minSamples) threads=\(threads)")
                }
            }
        }
    }

    /// Enough points, spread thin enough in five and eight dimensions, that late Borůvka
    /// rounds meet leaves with more leaves in reach than a list holds: their points share one
    /// search from the leaf, and the tree must still be the oracle's (and a function of the
    /// points alone).
    @Test("MST weights equal the oracle's where leaves search together", arguments: [5, 8])
    func leavesSearchingTogether(dimensions: Int) throws {
        for grid in [false, true] {
            let points = featureSample(2500, dimensions: dimensions, seed: 40 + UInt64(dimensions), grid: grid)
            let oracle = FeatureOracle.mst(points, minSamples: 10)
            let (shuffled, _) = permuted(points, seed: 3)
            for (input, threads) in [(points, 1), (shuffled, 2)] {
                let (mst, _) = try HDBSCAN.minimumSpanningTree(.features(input), minSamples: 10, threads: threads)
                let sorted = mst.weight.sorted()
                let worst = zip(sorted, oracle.weights).map { abs($0 - $1) / max(1e-300, $1) }.max() ?? 0
                #expect(mst.count == points.count - 1)
                #expect(worst < 1e-12, "d=\(dimensions) grid=\(grid) threads=\(threads)")
            }
        }
    }

    @Test("two dimensions given as features cluster as the plane does")
    func twoDimensionsAsThePlane() throws {
        for seed: UInt64 in [1, 2, 3] {
            let features = featureSample(2000, dimensions: 2, seed: seed)
            let plane = try PointSet(xs: (0..<features.count).map { features[$0, 0] },
                                     ys: (0..<features.count).map { features[$0, 1] })
            let parameters = HDBSCANParameters(minClusterSize: 10, minSamples: 5)
            let a = try HDBSCAN.fit(.features(features), parameters: parameters)
            let b = try HDBSCAN.fit(.plane(plane), parameters: parameters)
            #expect(a.mstWeight == b.mstWeight || abs(a.mstWeight - b.mstWeight) < 1e-9 * b.mstWeight)
            #expect(a.coreDistances == b.coreDistances)
            #expect(a.labeling.labels == b.labeling.labels)
            #expect(a.labeling.probabilities == b.labeling.probabilities)
            let dbscan = DBSCANParameters(eps: 2, minSamples: 5)
            #expect(try DBSCAN.fit(.features(features), parameters: dbscan).labels
                    == DBSCAN.fit(.plane(plane), parameters: dbscan).labels)
        }
    }

    @Test("the same labels for any row order and thread count", arguments: [3, 8])
    func rowOrderAndThreads(dimensions: Int) throws {
        for grid in [false, true] {
            let points = featureSample(3000, dimensions: dimensions, seed: 7, grid: grid)
            let (shuffled, perm) = permuted(points, seed: 11)
            let parameters = HDBSCANParameters(minClusterSize: 15, minSamples: 5)
            let base = try HDBSCAN.fit(.features(points), parameters: parameters)
            #expect(base.labeling.clusterCount > 1)
            for threads in [1, 2] {
                let again = try HDBSCAN.fit(.features(shuffled), parameters: parameters, threads: threads)
                // Labels are numbered by the condensed tree, whose leaves are tree positions:
                // the partition is a function of the points, the numbering may differ.
                #expect(samePartition(perm.map { base.labeling.labels[$0] }, again.labeling.labels),
                        "d=\(dimensions) grid=\(grid) threads=\(threads)")
                #expect(perm.indices.allSatisfy { again.labeling.probabilities[$0] == base.labeling.probabilities[perm[$0]] })
                #expect(again.mstWeight == base.mstWeight)
            }
            let dbscan = DBSCANParameters(eps: grid ? 1 : 2, minSamples: 5)
            // Core points and their clusters are the points'; a border point near two clusters
            // takes the one numbered lower, and clusters are numbered by their lowest row.
            let a = try DBSCAN.fit(.features(points), parameters: dbscan)
            let b = try DBSCAN.fit(.features(shuffled), parameters: dbscan, threads: 2)
            #expect(perm.map { a.isCore[$0] } == b.isCore)
            #expect(perm.map { a.labels[$0] < 0 } == b.labels.map { $0 < 0 })
            let core = perm.indices.filter { b.isCore[$0] }
            #expect(samePartition(core.map { a.labels[perm[$0]] }, core.map { b.labels[$0] }))
        }
    }

    @Test("DBSCAN equals its definition, with and without ties", arguments: [1, 3, 5, 16])
    func dbscanOracle(dimensions: Int) throws {
        for grid in [false, true] {
            let points = featureSample(400, dimensions: dimensions, seed: 3, grid: grid)
            for (eps, minSamples) in [(1.0, 3), (4.0, 8)] {
                let found = try DBSCAN.fit(.features(points), parameters: DBSCANParameters(eps: eps, minSamples: minSamples))
                #expect(found.labels == FeatureOracle.dbscan(points, eps: eps, minSamples: minSamples),
                        "d=\(dimensions) grid=\(grid) eps=\(eps)")
            }
        }
    }

    @Test("a row of weight w is w identical rows")
    func sampleWeights() throws {
        let points = featureSample(500, dimensions: 4, seed: 5)
        var g = SplitMix64(seed: 9)
        let weights = (0..<points.count).map { _ in Double(1 + g.next() % 3) }
        let repeated = try FeaturePoints(values: (0..<points.count).flatMap { i in
            (0..<Int(weights[i])).flatMap { _ in points.values[i * 4 ..< (i + 1) * 4] }
        }, dimensions: 4)
        let rowOf = (0..<points.count).flatMap { i in [Int](repeating: i, count: Int(weights[i])) }
        let parameters = HDBSCANParameters(minClusterSize: 10, minSamples: 6)
        let weighted = try HDBSCAN.fit(.features(points), parameters: parameters, sampleWeight: weights)
        let plain = try HDBSCAN.fit(.features(repeated), parameters: parameters)
        #expect(weighted.labeling.clusterCount > 1)
        #expect(rowOf.indices.allSatisfy { weighted.labeling.labels[rowOf[$0]] == plain.labeling.labels[$0] })
    }

    @Test("bad input is refused with what to fix")
    func refusals() {
        #expect(throws: ClusterCoreError.self) { try FeaturePoints(values: [1, 2, 3], dimensions: 2) }
        #expect(throws: ClusterCoreError.self) { try FeaturePoints(values: [], dimensions: 65) }
        #expect(throws: ClusterCoreError.nonFiniteCoordinate(row: 1)) {
            try FeaturePoints(values: [1, 2, 3, .nan, 5, 6], dimensions: 3)
        }
        let points = featureSample(50, dimensions: 3, seed: 1)
        #expect(throws: ClusterCoreError.self) {
            try HDBSCAN.fit(.features(points), parameters: HDBSCANParameters(), keeping: .prediction)
        }
        #expect(throws: ClusterCoreError.self) {
            try GridClustering.fit(.features(points), parameters: GridParameters(cellSize: 1))
        }
    }
}
