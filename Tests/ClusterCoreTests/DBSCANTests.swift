import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// DBSCAN written out the way scikit-learn runs it: all neighbourhoods by brute force (the
/// squared test of its KD-tree leaves), then `dbscan_inner`'s stack expansion in row order.
/// O(n²) time and memory; the reference the grid implementation must equal exactly.
enum BruteDBSCAN {
    /// With `weight`, a point is core when its neighbourhood's weights reach minSamples
    /// (scikit-learn's sample_weight).
    static func fit(_ p: PointSet, eps: Double, minSamples: Int, weight: [Double]? = nil) -> (labels: [Int32], isCore: [Bool]) {
        let eps2 = eps * eps
        return fit(count: p.count, minSamples: minSamples, weight: weight) { i, j in
            let dx = p.xs[j] - p.xs[i], dy = p.ys[j] - p.ys[i]
            return dx * dx + dy * dy <= eps2
        }
    }

    /// On the sphere: neighbours by scikit-learn's reduced haversine test (eps in metres).
    static func fit(_ p: SpherePoints, eps: Double, minSamples: Int, weight: [Double]? = nil) -> (labels: [Int32], isCore: [Bool]) {
        let s = ElementaryMath.sin(min(Double.pi, eps / SpherePoints.earthRadius) / 2), limit = s * s
        let d = Double.pi / 180
        let at = (0..<p.count).map { SphereAngles.Point(lat: p.latitudes[$0] * d, lon: p.longitudes[$0] * d) }
        return fit(count: p.count, minSamples: minSamples, weight: weight) { i, j in
            SpherePoints.halfChord2(at[i], at[j]) <= limit
        }
    }

    /// The reference on any neighbour relation.
    static func fit(count n: Int, minSamples: Int, weight: [Double]?,
                    isNeighbour: (Int, Int) -> Bool) -> (labels: [Int32], isCore: [Bool]) {
        var hoods = [[Int]](repeating: [], count: n)
        for i in 0..<n {
            for j in 0..<n where isNeighbour(i, j) { hoods[i].append(j) }
        }
        let isCore = hoods.map { hood in
            weight.map { w in hood.reduce(0.0) { $0 + w[$1] } >= Double(minSamples) } ?? (hood.count >= minSamples)
        }
        var labels = [Int32](repeating: -1, count: n)
        var next: Int32 = 0
        for i in 0..<n where labels[i] == -1 && isCore[i] {
            var stack = [i]
            while let v = stack.popLast() {
                if labels[v] != -1 { continue }
                labels[v] = next
                if isCore[v] { stack.append(contentsOf: hoods[v].filter { labels[$0] == -1 }) }
            }
            next += 1
        }
        return (labels, isCore)
    }
}

/// One file written by scripts/reference/make_dbscan_metrics_fixtures.py.
struct DBSCANFixture: Decodable, CustomStringConvertible, Sendable {
    struct Run: Decodable, Sendable {
        let eps: Double
        let min_samples: Int
        let labels: [Int32]
        let core: [Int]
        let n_clusters: Int
        let n_contested_border: Int
    }
    let name: String
    let points: [[Double]]
    let runs: [Run]

    var description: String { name }
    var pointSet: PointSet { try! PointSet(xs: points.map { $0[0] }, ys: points.map { $0[1] }) }

    static func all() -> [DBSCANFixture] { TestPaths.decodeJSONFixtures(DBSCANFixture.self, in: "dbscan") }
}

@Suite("DBSCAN")
struct DBSCANTests {
    static let fixtures = DBSCANFixture.all()

    @Test("the fixtures cover the required situations")
    func coverage() {
        let names = Set(Self.fixtures.map(\.name))
        for required in ["blobs_noise", "heavy_duplicates", "lattice_exact_eps", "border_contention",
                         "eps_below_every_gap", "eps_above_extent", "strips", "estate_like"] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
        let runs = Self.fixtures.flatMap(\.runs)
        #expect(runs.count >= 30)
        #expect(runs.contains { $0.min_samples == 1 })
        #expect(runs.contains { $0.n_contested_border > 0 }, "no border point reachable from two clusters")
    }

    @Test("labels and core flags equal scikit-learn's exactly", arguments: fixtures)
    func matchesScikitLearn(_ f: DBSCANFixture) throws {
        let points = f.pointSet
        for run in f.runs {
            for threads in [1, 2] {
                let r = try DBSCAN.fit(points, parameters: DBSCANParameters(eps: run.eps, minSamples: run.min_samples),
                                       threads: threads)
                #expect(r.labels == run.labels, "eps \(run.eps) minSamples \(run.min_samples) threads \(threads)")
                #expect(r.isCore == run.core.map { $0 == 1 }, "eps \(run.eps) minSamples \(run.min_samples)")
                #expect(r.clusterCount == run.n_clusters)
            }
        }
    }

    @Test("equals the O(n²) reference on varied data, row orders and cell sizes",
          arguments: [0.75, 1 - 1e-9, 1.3, 2.0])
    func matchesBruteForce(cellScale: Double) throws {
        let sets: [(String, PointSet, [(Double, Int)])] = [
            ("blobs", Shapes.blobs(700, seed: 11), [(15, 5), (40, 8), (120, 20), (25, 1)]),
            ("grid duplicates", Shapes.gridWithDuplicates(600, seed: 12), [(10, 4), (10, 12), (14.2, 9), (5, 3)]),
            ("uniform", Shapes.uniform(500, seed: 13), [(30, 3), (60, 6), (2000, 500)]),
            ("line", Shapes.line(300, seed: 14), [(3, 3), (10, 5)]),
        ]
        for (name, base, params) in sets {
            for variant in 0..<2 {
                let points = variant == 0 ? base : Shapes.shuffled(base, seed: 99).0
                for (eps, ms) in params {
                    let want = BruteDBSCAN.fit(points, eps: eps, minSamples: ms)
                    let got = try DBSCAN.fit(points, parameters: DBSCANParameters(eps: eps, minSamples: ms),
                                             threads: 2, observer: NoStageObserver(), cellScale: cellScale)
                    #expect(got.labels == want.labels, "\(name) eps \(eps) ms \(ms) shuffled \(variant == 1)")
                    #expect(got.isCore == want.isCore, "\(name) eps \(eps) ms \(ms) shuffled \(variant == 1)")
                }
            }
        }
    }

    @Test("a border point reachable from two clusters takes the lower-numbered one, whatever the row order")
    func contestedBorder() throws {
        // Two rows of 5 points 1 m apart, 10 m between their ends, a border point in the middle.
        let left = (0..<5).map { (Double($0), 0.0) }, right = (0..<5).map { (Double(14 + $0), 0.0) }
        let border = (9.0, 0.0)
        let parameters = DBSCANParameters(eps: 5, minSamples: 4)
        // Right row first: it is cluster 0, so the border point joins it although the left
        // row's points come first in space.
        let a = try DBSCAN.fit(try PointSet(right + [border] + left), parameters: parameters)
        #expect(a.labels == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
        #expect(a.isCore[5] == false)
        let b = try DBSCAN.fit(try PointSet([border] + left + right), parameters: parameters)
        #expect(b.labels == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
        #expect(b.isCore[0] == false)
    }

    @Test("eps is inclusive: points exactly eps apart are neighbours")
    func inclusiveRadius() throws {
        // A 10 m lattice: every inner point has 4 neighbours at exactly 10 m (5 with itself).
        var pts: [(Double, Double)] = []
        for i in 0..<6 { for j in 0..<6 { pts.append((10 * Double(i), 10 * Double(j))) } }
        let at = try DBSCAN.fit(try PointSet(pts), parameters: DBSCANParameters(eps: 10, minSamples: 5))
        #expect(at.isCore.filter { $0 }.count == 16)
        #expect(at.clusterCount == 1)
        #expect(at.labels.filter { $0 == -1 }.count == 4)  // the corners: no core neighbour
        let below = try DBSCAN.fit(try PointSet(pts), parameters: DBSCANParameters(eps: 10.0.nextDown, minSamples: 2))
        #expect(below.clusterCount == 0)
        // 3-4-5: off-axis pairs at exactly 5 m.
        let tri = try DBSCAN.fit(try PointSet([(0, 0), (3, 4), (-4, 3), (6, 8)]), parameters: DBSCANParameters(eps: 5, minSamples: 3))
        #expect(tri.isCore == [true, true, false, false])
        #expect(tri.labels == [0, 0, 0, 0])
    }

    @Test("minSamples 1: every point is core; clusters are the components of the eps-graph")
    func minSamplesOne() throws {
        let points = Shapes.blobs(400, seed: 21)
        let r = try DBSCAN.fit(points, parameters: DBSCANParameters(eps: 20, minSamples: 1))
        #expect(r.isCore.allSatisfy { $0 })
        #expect(!r.labels.contains(-1))
        #expect(r.labels == BruteDBSCAN.fit(points, eps: 20, minSamples: 1).labels)
        // Labels appear in increasing order of their first row.
        var seen: Int32 = -1
        for l in r.labels where l > seen { #expect(l == seen + 1); seen = l }
    }

    @Test("heavy duplicates, eps below every gap, eps above the extent")
    func extremes() throws {
        let dup = try PointSet(Array(repeating: (5.0, 5.0), count: 50) + [(100, 100)])
        let d = try DBSCAN.fit(dup, parameters: DBSCANParameters(eps: 1e-6, minSamples: 50))
        #expect(d.labels == Array(repeating: 0, count: 50) + [-1])
        let spread = Shapes.uniform(300, seed: 22)
        let tiny = try DBSCAN.fit(spread, parameters: DBSCANParameters(eps: 1e-3, minSamples: 2))
        #expect(tiny.clusterCount == 0 && tiny.labels.allSatisfy { $0 == -1 })
        let single = try DBSCAN.fit(spread, parameters: DBSCANParameters(eps: 1e-3, minSamples: 1))
        #expect(single.labels == (0..<300).map(Int32.init))
        let huge = try DBSCAN.fit(spread, parameters: DBSCANParameters(eps: 1e6, minSamples: 300))
        #expect(huge.labels.allSatisfy { $0 == 0 } && huge.isCore.allSatisfy { $0 })
        let tooMany = try DBSCAN.fit(spread, parameters: DBSCANParameters(eps: 1e6, minSamples: 301))
        #expect(tooMany.clusterCount == 0)
    }

    @Test("identical output for 1, 2 and 3 threads on 30,000 points")
    func threadsAgree() throws {
        let points = Shapes.blobs(30_000, seed: 23)
        let parameters = DBSCANParameters(eps: 12, minSamples: 6)
        let one = try DBSCAN.fit(points, parameters: parameters, threads: 1)
        #expect(one.clusterCount > 3)
        for t in [2, 3] { #expect(try DBSCAN.fit(points, parameters: parameters, threads: t) == one) }
    }

    @Test("parameters are checked; empty and tiny inputs work")
    func parametersAndEdges() throws {
        let p = try PointSet([(0, 0), (1, 0)])
        for bad in [DBSCANParameters(eps: 0), DBSCANParameters(eps: -1), DBSCANParameters(eps: .infinity),
                    DBSCANParameters(eps: .nan), DBSCANParameters(eps: 1, minSamples: 0)] {
            #expect(throws: ClusterCoreError.self) { try DBSCAN.fit(p, parameters: bad) }
        }
        let empty = try DBSCAN.fit(try PointSet(xs: [], ys: []), parameters: DBSCANParameters(eps: 1))
        #expect(empty.labels.isEmpty && empty.clusterCount == 0)
        let one = try DBSCAN.fit(try PointSet([(3, 4)]), parameters: DBSCANParameters(eps: 1, minSamples: 1))
        #expect(one.labels == [0] && one.isCore == [true])
        // A grid of more than 2^31 cells along an axis is refused with a message naming eps.
        let far = try PointSet([(0, 0), (1e7, 0)])
        #expect(throws: ClusterCoreError.self) { try DBSCAN.fit(far, parameters: DBSCANParameters(eps: 1e-6)) }
        do {
            _ = try DBSCAN.fit(far, parameters: DBSCANParameters(eps: 1e-6))
        } catch {
            #expect(error.description.contains("eps"))
        }
    }

    @Test("a StageObserver sees the stages in order")
    func stages() throws {
        let r = StageRecorder()
        _ = try DBSCAN.fit(Shapes.uniform(50, seed: 1), parameters: DBSCANParameters(eps: 50), observer: r)
        #expect(r.names == DBSCANStage.allCases.map(\.rawValue))
    }
}
