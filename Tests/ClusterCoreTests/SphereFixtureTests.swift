import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// One case written by scripts/reference/make_haversine_fixtures.py: scikit-learn's
/// `HDBSCAN(metric="haversine")` and `DBSCAN(metric="haversine")` on points across ±180°,
/// near the poles, antipodal pairs, duplicates and metropolitan areas.
struct SphereCase: Decodable, CustomStringConvertible, Sendable {
    struct HDBSCANRun: Decodable, Sendable {
        struct Params: Decodable, Sendable {
            let min_cluster_size: Int
            let min_samples: Int?
            let cluster_selection_method: String
            let cluster_selection_epsilon: Double
            let allow_single_cluster: Bool
            let max_cluster_size: Int?
        }
        let params: Params
        let labels: [Int32]
        let probabilities: [Double]
        let mst_weights_m: [Double]
        let shuffle_stable: Bool
        let unstable_points: [Int]
    }
    struct DBSCANRun: Decodable, Sendable {
        struct Params: Decodable, Sendable { let eps: Double; let min_samples: Int }
        let params: Params
        let labels: [Int32]
        let core_sample_indices: [Int]
    }
    let name: String
    let radius_m: Double
    let points: [[Double]]
    let hdbscan: HDBSCANRun
    let dbscan: DBSCANRun

    var description: String { name }
    static let all: [SphereCase] = TestPaths.decodeJSONFixtures(SphereCase.self, in: "haversine")

    var spherePoints: SpherePoints {
        try! SpherePoints(longitudes: points.map { $0[0] }, latitudes: points.map { $0[1] })
    }

    var hdbscanParameters: HDBSCANParameters {
        let p = hdbscan.params
        return HDBSCANParameters(
            minClusterSize: p.min_cluster_size, minSamples: p.min_samples,
            selection: SelectionOptions(method: p.cluster_selection_method == "leaf" ? .leaf : .excessOfMass,
                                        epsilon: p.cluster_selection_epsilon, allowSingleCluster: p.allow_single_cluster,
                                        maxClusterSize: p.max_cluster_size))
    }

    /// The rows whose scikit-learn label does not depend on the row order.
    var stableRows: [Int] {
        let unstable = Set(hdbscan.unstable_points)
        return (0..<points.count).filter { !unstable.contains($0) }
    }
}

@Suite("HDBSCAN and DBSCAN on the sphere against scikit-learn's haversine runs")
struct SphereFixtureTests {
    @Test("the fixtures are there and use the mean Earth radius")
    func fixturesPresent() {
        #expect(SphereCase.all.count >= 6)
        for c in SphereCase.all { #expect(c.radius_m == SpherePoints.earthRadius) }
    }

    @Test("HDBSCAN: scikit-learn's partition (on its order-stable rows), MST weights to 1e-9", arguments: SphereCase.all)
    func hdbscan(_ c: SphereCase) throws {
        for threads in [1, 2] {
            let r = try HDBSCAN.fit(c.spherePoints, parameters: c.hdbscanParameters, threads: threads)
            let rows = c.stableRows
            #expect(samePartition(rows.map { r.labeling.labels[$0] }, rows.map { c.hdbscan.labels[$0] }),
                    "\(c.name), \(threads) thread(s)")
            let weights = try #require(r.mst).weight
            #expect(weights.count == c.hdbscan.mst_weights_m.count)
            for (w, s) in zip(weights, c.hdbscan.mst_weights_m) {
                #expect(abs(w - s) <= 1e-9 * max(1, s), "\(c.name): MST weight \(w) vs \(s)")
            }
            if c.hdbscan.shuffle_stable {
                for (p, s) in zip(r.labeling.probabilities, c.hdbscan.probabilities) {
                    #expect(abs(p - s) <= 1e-9, "\(c.name): probability \(p) vs \(s)")
                }
            }
        }
    }
}

extension SphereFixtureTests {
    @Test("DBSCAN: scikit-learn's labels and core points exactly", arguments: SphereCase.all)
    func dbscan(_ c: SphereCase) throws {
        for threads in [1, 2] {
            let r = try DBSCAN.fit(c.spherePoints, parameters: DBSCANParameters(eps: c.dbscan.params.eps,
                                                                                 minSamples: c.dbscan.params.min_samples),
                                   threads: threads)
            #expect(r.labels == c.dbscan.labels, "\(c.name), \(threads) thread(s)")
            #expect(r.isCore.indices.filter { r.isCore[$0] } == c.dbscan.core_sample_indices, "\(c.name)")
            #expect(r.clusterCount == Int((c.dbscan.labels.max() ?? -1) + 1))
        }
    }
}
