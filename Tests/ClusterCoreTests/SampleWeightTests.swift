import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// Sample weights against their definitions: for HDBSCAN a row of weight w is w identical
/// rows (so the weighted fit must equal the unweighted fit of the rows repeated, and its core
/// distances and MST a brute-force oracle's); for DBSCAN a point is core when the weights
/// within eps add up to minSamples (a brute-force oracle with scikit-learn's expansion).
@Suite("Sample weights")
struct SampleWeightTests {
    /// The rows repeated by their weights, and the row each repeated row came from.
    static func expanded(_ p: PointSet, _ w: [Double]) -> (PointSet, [Int]) {
        var xs = [Double](), ys = [Double](), from = [Int]()
        for i in 0..<p.count {
            for _ in 0..<Int(w[i]) { xs.append(p.xs[i]); ys.append(p.ys[i]); from.append(i) }
        }
        return (try! PointSet(xs: xs, ys: ys), from)
    }

    /// Whole weights from 1 to 4, and a few rows heavier than `heavy`.
    static func weights(_ n: Int, heavy: Int, seed: UInt64) -> [Double] {
        var g = SplitMix64(seed: seed)
        return (0..<n).map { _ in
            g.uniform() < 0.02 ? Double(heavy + Int(g.uniform() * 10)) : Double(1 + Int(g.uniform() * 4))
        }
    }

    /// The weighted core distance by brute force: the smallest distance at which the weights of
    /// the points that near, the point's own included, add up to k.
    static func weightedCore(_ p: PointSet, _ w: [Double], k: Int) -> [Double] {
        (0..<p.count).map { i in
            let near = (0..<p.count).map { (Oracle.distance(p, i, $0), w[$0]) }.sorted { $0.0 < $1.0 }
            var total = 0.0
            for (d, weight) in near {
                total += weight
                if total >= Double(k) { return d }
            }
            return .infinity
        }
    }

    static let sets: [(String, PointSet)] = [
        ("blobs", Shapes.blobs(400, seed: 31)),
        ("grid duplicates", Shapes.gridWithDuplicates(300, seed: 32)),
        ("uniform", Shapes.uniform(250, seed: 33)),
    ]

    @Test("HDBSCAN: core distances and MST weights equal the brute-force weighted oracle's")
    func coreAndMSTOracle() throws {
        for (name, points) in Self.sets {
            let w = Self.weights(points.count, heavy: 12, seed: 7)
            for minSamples in [1, 4, 9] {
                let result = try HDBSCAN.fit(points, parameters: HDBSCANParameters(minClusterSize: 10, minSamples: minSamples),
                                             sampleWeight: w, threads: 2)
                let core = Self.weightedCore(points, w, k: minSamples)
                #expect(result.coreDistances == core, "\(name) minSamples \(minSamples)")
                let mst = try #require(result.mst)
                #expect(mst.weight.sorted() == Oracle.primWeights(points, core: core), "\(name) minSamples \(minSamples)")
            }
        }
    }

    @Test("HDBSCAN: labels, probabilities, outlier scores and the tree's sizes equal the fit of the rows repeated",
          arguments: TieRule.allCases)
    func equalsRepeatedRows(ties: TieRule) throws {
        for (name, points) in Self.sets {
            let w = Self.weights(points.count, heavy: 15, seed: 8)
            let (repeated, from) = Self.expanded(points, w)
            for (mcs, ms, method) in [(15, 5, SelectionMethod.excessOfMass), (25, 10, .leaf), (8, 2, .excessOfMass)] {
                for convention in MinSamplesConvention.allCases {
                    var parameters = HDBSCANParameters(minClusterSize: mcs, minSamples: ms, minSamplesConvention: convention,
                                                       ties: ties)
                    parameters.selection.method = method
                    let weighted = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: w, threads: 2)
                    let plain = try HDBSCAN.fit(repeated, parameters: parameters, threads: 2)
                    let label = "\(name) mcs \(mcs) ms \(ms) \(method) \(convention) \(ties)"
                    #expect(from.map { weighted.labeling.labels[$0] } == plain.labeling.labels, "\(label)")
                    #expect(from.map { weighted.labeling.probabilities[$0] } == plain.labeling.probabilities, "\(label)")
                    #expect(from.map { weighted.labeling.outlierScores[$0] } == plain.labeling.outlierScores, "\(label)")
                    let a = try #require(weighted.condensedTree), b = try #require(plain.condensedTree)
                    #expect(a.clusterSize == b.clusterSize, "\(label)")
                    // (Equal infinities where points coincide; else equal but for the order of summing.)
                    #expect(zip(a.stability, b.stability).allSatisfy { $0 == $1 || abs($0 - $1) <= 1e-9 * max(1, abs($1)) },
                            "\(label): \(a.stability) \(b.stability)")
                    // A point's row carries its weight.
                    for r in 0..<a.parent.count where Int(a.child[r]) < points.count {
                        #expect(Double(a.childSize[r]) == w[Int(a.child[r])])
                    }
                }
            }
        }
    }

    @Test("HDBSCAN: a row heavier than minClusterSize can be a cluster by itself, as its copies would be")
    func heavyRowIsItsOwnCluster() throws {
        var xs = Shapes.uniform(200, side: 2000, seed: 40).xs, ys = Shapes.uniform(200, side: 2000, seed: 41).ys
        xs.append(5000); ys.append(5000)
        let points = try PointSet(xs: xs, ys: ys)
        var w = [Double](repeating: 1, count: points.count)
        w[points.count - 1] = 50
        let parameters = HDBSCANParameters(minClusterSize: 20, minSamples: 5)
        let weighted = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: w)
        let (repeated, from) = Self.expanded(points, w)
        let plain = try HDBSCAN.fit(repeated, parameters: parameters)
        #expect(weighted.labeling.labels[points.count - 1] >= 0)
        #expect(from.map { weighted.labeling.labels[$0] } == plain.labeling.labels)
    }

    @Test("HDBSCAN: weights of 1 change nothing; the weighted fit is the same for any thread count and row order")
    func onesThreadsAndOrder() throws {
        let points = Shapes.blobs(600, seed: 50)
        let parameters = HDBSCANParameters(minClusterSize: 12, minSamples: 6)
        let plain = try HDBSCAN.fit(points, parameters: parameters)
        let ones = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: [Double](repeating: 1, count: points.count))
        #expect(ones.labeling == plain.labeling)
        #expect(ones.coreDistances == plain.coreDistances)
        let w = Self.weights(points.count, heavy: 20, seed: 51)
        let one = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: w, threads: 1)
        let two = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: w, threads: 2)
        #expect(one.labeling == two.labeling)
        let (shuffled, perm) = Shapes.shuffled(points, seed: 52)
        let again = try HDBSCAN.fit(shuffled, parameters: parameters, sampleWeight: perm.map { w[$0] })
        #expect(samePartition(perm.map { one.labeling.labels[$0] }, again.labeling.labels))
        #expect(perm.map { one.labeling.probabilities[$0] } == again.labeling.probabilities)
    }

    @Test("HDBSCAN: every row at one place, and weights that alone reach minSamples")
    func onePlace() throws {
        let points = try PointSet(xs: [3, 3, 3], ys: [4, 4, 4])
        let w: [Double] = [2, 3, 4]
        for allowSingle in [false, true] {
            var parameters = HDBSCANParameters(minClusterSize: 5, minSamples: 7)
            parameters.selection.allowSingleCluster = allowSingle
            let weighted = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: w)
            let (repeated, from) = Self.expanded(points, w)
            let plain = try HDBSCAN.fit(repeated, parameters: parameters)
            #expect(from.map { weighted.labeling.labels[$0] } == plain.labeling.labels, "allowSingleCluster \(allowSingle)")
            #expect(weighted.coreDistances == [0, 0, 0])
        }
        // Two rows whose weights reach the neighbour count that two rows alone could not.
        let two = try HDBSCAN.fit(try PointSet(xs: [0, 1], ys: [0, 0]), parameters: HDBSCANParameters(minClusterSize: 2, minSamples: 5),
                                  sampleWeight: [4, 3])
        #expect(two.coreDistances == [1, 1])
    }

    @Test("HDBSCAN: weights that are not whole numbers of at least 1, of another count, or with prediction are refused")
    func refused() throws {
        let points = Shapes.uniform(20, seed: 60)
        let parameters = HDBSCANParameters(minClusterSize: 5)
        for bad: [Double] in [[0.5], [0], [-1], [.nan], [.infinity]] {
            let w = [Double](repeating: 1, count: 19) + bad
            #expect(throws: ClusterCoreError.self) { try HDBSCAN.fit(points, parameters: parameters, sampleWeight: w) }
        }
        #expect(throws: ClusterCoreError.self) { try HDBSCAN.fit(points, parameters: parameters, sampleWeight: [1, 2]) }
        #expect(throws: ClusterCoreError.self) {
            try HDBSCAN.fit(points, parameters: parameters, sampleWeight: [Double](repeating: 2, count: 20), keeping: .prediction)
        }
        do {
            _ = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: [Double](repeating: 1, count: 19) + [0.5])
        } catch {
            #expect(error.description.contains("row 19"))
            #expect(error.description.contains("whole numbers"))
        }
        // Too little weight for the neighbour count.
        #expect(throws: ClusterCoreError.self) {
            try HDBSCAN.fit(try PointSet(xs: [0, 1], ys: [0, 0]), parameters: HDBSCANParameters(minClusterSize: 2, minSamples: 5),
                            sampleWeight: [2, 2])
        }
    }

    @Test("HDBSCAN on the sphere: the weighted fit equals the fit of the rows repeated")
    func sphere() throws {
        var g = SplitMix64(seed: 70)
        var lon = [Double](), lat = [Double]()
        for i in 0..<300 {
            let c = [(126.97, 37.56), (127.05, 37.50), (179.99, 10.0)][i % 3]
            lon.append(c.0 + 0.01 * g.normal()); lat.append(c.1 + 0.01 * g.normal())
        }
        lon = lon.map { $0 > 180 ? $0 - 360 : $0 }
        let points = try SpherePoints(longitudes: lon, latitudes: lat)
        let w = Self.weights(points.count, heavy: 12, seed: 71)
        var rl = [Double](), rt = [Double](), from = [Int]()
        for i in 0..<points.count { for _ in 0..<Int(w[i]) { rl.append(lon[i]); rt.append(lat[i]); from.append(i) } }
        let parameters = HDBSCANParameters(minClusterSize: 15, minSamples: 6)
        let weighted = try HDBSCAN.fit(points, parameters: parameters, sampleWeight: w, threads: 2)
        let plain = try HDBSCAN.fit(try SpherePoints(longitudes: rl, latitudes: rt), parameters: parameters, threads: 2)
        #expect(from.map { weighted.labeling.labels[$0] } == plain.labeling.labels)
        #expect(from.map { weighted.labeling.probabilities[$0] } == plain.labeling.probabilities)
        #expect(weighted.labeling.clusterCount >= 2)
    }
}

@Suite("DBSCAN sample weights")
struct DBSCANSampleWeightTests {
    @Test("equals the brute-force weighted reference: fractional, zero and negative weights, row orders, cell sizes",
          arguments: [0.75, 1 - 1e-9, 1.3, 2.0])
    func matchesBruteForce(cellScale: Double) throws {
        // Weights exact in binary, so every sum is exact and no order of summing decides.
        let choices: [Double] = [1, 1, 1, 2, 0.5, 0, 3, -1, 1.25]
        let sets: [(String, PointSet, [(Double, Int)])] = [
            ("blobs", Shapes.blobs(500, seed: 81), [(15, 5), (40, 8), (25, 1)]),
            ("grid duplicates", Shapes.gridWithDuplicates(400, seed: 82), [(10, 4), (10, 12), (14.2, 9)]),
            ("uniform", Shapes.uniform(400, seed: 83), [(30, 3), (60, 6)]),
        ]
        for (name, base, params) in sets {
            var g = SplitMix64(seed: 84)
            let baseWeight = (0..<base.count).map { _ in choices[Int(g.uniform() * Double(choices.count))] }
            for variant in 0..<2 {
                let (points, w) = variant == 0 ? (base, baseWeight)
                    : { let (s, perm) = Shapes.shuffled(base, seed: 85); return (s, perm.map { baseWeight[$0] }) }()
                for (eps, ms) in params {
                    let want = BruteDBSCAN.fit(points, eps: eps, minSamples: ms, weight: w)
                    let got = try DBSCAN.fit(points, parameters: DBSCANParameters(eps: eps, minSamples: ms), sampleWeight: w,
                                             threads: 2, observer: NoStageObserver(), cellScale: cellScale)
                    #expect(got.labels == want.labels, "\(name) eps \(eps) ms \(ms) shuffled \(variant == 1)")
                    #expect(got.isCore == want.isCore, "\(name) eps \(eps) ms \(ms) shuffled \(variant == 1)")
                }
            }
        }
    }

    @Test("on the sphere: equals the brute-force weighted reference; weights of 1 equal the unweighted grid run")
    func sphereMatchesBruteForce() throws {
        // Blobs across the antimeridian and at the north pole, repeated coordinates, noise.
        var g = SplitMix64(seed: 91)
        var lons = [Double](), lats = [Double]()
        for i in 0..<700 {
            let (lon, lat, spread) = [(179.95, -17.0, 0.05), (0.0, 89.97, 0.4), (127.0, 37.5, 0.03), (-40.0, 10.0, 30.0)][i % 4]
            var x = lon + spread * (g.uniform() - 0.5), y = min(90, lat + spread * 0.2 * (g.uniform() - 0.5))
            if x > 180 { x -= 360 }
            if i % 9 == 0 && i > 0 { (x, y) = (lons[i - 4], lats[i - 4]) }
            lons.append(x); lats.append(y)
        }
        let points = try SpherePoints(longitudes: lons, latitudes: lats)
        let choices: [Double] = [1, 1, 2, 0.5, 0, 3, -1, 1.25]
        let weight = (0..<points.count).map { _ in choices[Int(g.uniform() * Double(choices.count))] }
        for (eps, ms) in [(2_000.0, 4), (5_000.0, 9), (800.0, 2)] {
            let parameters = DBSCANParameters(eps: eps, minSamples: ms)
            let want = BruteDBSCAN.fit(points, eps: eps, minSamples: ms, weight: weight)
            let got = try DBSCAN.fit(points, parameters: parameters, sampleWeight: weight, threads: 2)
            #expect(got.labels == want.labels && got.isCore == want.isCore, "eps \(eps) ms \(ms)")
            let ones = try DBSCAN.fit(points, parameters: parameters, sampleWeight: [Double](repeating: 1, count: points.count))
            #expect(ones == (try DBSCAN.fit(points, parameters: parameters)), "eps \(eps) ms \(ms)")
        }
        #expect(throws: ClusterCoreError.self) {
            try DBSCAN.fit(points, parameters: DBSCANParameters(eps: 100, minSamples: 2), sampleWeight: [1, 2])
        }
    }

    @Test("a point of weight minSamples is core by itself; a negative weight keeps a neighbour from being core")
    func definitions() throws {
        let points = try PointSet(xs: [0, 100, 101, 102], ys: [0, 0, 0, 0])
        let parameters = DBSCANParameters(eps: 5, minSamples: 3)
        let alone = try DBSCAN.fit(points, parameters: parameters, sampleWeight: [3, 1, 1, 1])
        #expect(alone.isCore == [true, true, true, true])
        let inhibited = try DBSCAN.fit(points, parameters: parameters, sampleWeight: [3, 1, 1, -1])
        #expect(inhibited.isCore == [true, false, false, false])
        #expect(inhibited.labels == [0, -1, -1, -1])
        let plain = try DBSCAN.fit(points, parameters: parameters, sampleWeight: [1, 1, 1, 1])
        #expect(plain == (try DBSCAN.fit(points, parameters: parameters)))
        #expect(throws: ClusterCoreError.self) { try DBSCAN.fit(points, parameters: parameters, sampleWeight: [1, 1]) }
        #expect(throws: ClusterCoreError.self) { try DBSCAN.fit(points, parameters: parameters, sampleWeight: [1, 1, .nan, 1]) }
    }

    @Test("identical output for 1 and 2 threads with weights")
    func threads() throws {
        let points = Shapes.blobs(20_000, seed: 90)
        var g = SplitMix64(seed: 91)
        let w = (0..<points.count).map { _ in Double(Int(g.uniform() * 4)) }
        let parameters = DBSCANParameters(eps: 20, minSamples: 8)
        #expect(try DBSCAN.fit(points, parameters: parameters, sampleWeight: w, threads: 1)
                == DBSCAN.fit(points, parameters: parameters, sampleWeight: w, threads: 2))
    }
}
