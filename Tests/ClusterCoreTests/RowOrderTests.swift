import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// Same input, same output, whatever the order of the rows: on real places (GeoNames' German
/// places with more than 1,000 people), the same snapped to a 1/60° grid as older GeoNames
/// extracts are (distances then tie by the thousand), and a synthetic world sample snapped to
/// the same grid with repeated coordinates. Each is fitted as given and in shuffled orders, on
/// 1 and 2 threads; what is compared row by row (through the permutation) must be equal bit
/// for bit.
@Suite("Row order changes nothing: HDBSCAN and DBSCAN, sphere and plane, real and grid-snapped data")
struct RowOrderTests {
    struct Sample: CustomStringConvertible, Sendable {
        let name: String
        let lon: [Double]
        let lat: [Double]
        var description: String { name }
    }

    static let samples: [Sample] = {
        let de = germanPlaces()
        return [de, snapped(de, name: "German places on a 1/60° grid"), snapped(worldSample(), name: "world sample on a 1/60° grid")]
    }()

    /// GeoNames' German places (Tests/Fixtures/geonames).
    static func germanPlaces() -> Sample {
        let url = TestPaths.fixtures("geonames").appendingPathComponent("de-cities1000.csv")
        let lines = try! String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
        let fields = lines.map { $0.split(separator: ",") }
        return Sample(name: "German places", lon: fields.map { Double($0[1])! }, lat: fields.map { Double($0[2])! })
    }

    static func snapped(_ s: Sample, name: String) -> Sample {
        Sample(name: name, lon: s.lon.map { ($0 * 60).rounded() / 60 }, lat: s.lat.map { ($0 * 60).rounded() / 60 })
    }

    /// Towns around a few centres (one across ±180°, one at 78°N), scatter, and every tenth
    /// row a copy of an earlier one.
    static func worldSample() -> Sample {
        var rng = SplitMix64(seed: 60)
        let centres: [(Double, Double, Double)] = [(179.95, -17.5, 0.6), (8.7, 50.1, 1.5), (15.6, 78.2, 0.8),
                                                   (126.98, 37.56, 0.4), (-70.6, -33.4, 1.0)]
        var lon: [Double] = [], lat: [Double] = []
        for i in 0..<6000 {
            if i % 10 == 9 { let j = Int(rng.next() % UInt64(i)); lon.append(lon[j]); lat.append(lat[j]); continue }
            if rng.uniform() < 0.1 {
                lon.append(rng.uniform() * 360 - 180); lat.append(rng.uniform() * 140 - 70); continue
            }
            let c = centres[Int(rng.next() % UInt64(centres.count))]
            var lo = c.0 + rng.normal() * c.2
            lo = lo >= 180 ? lo - 360 : lo
            lon.append(lo); lat.append(c.1 + rng.normal() * c.2 / 2)
        }
        return Sample(name: "world sample", lon: lon, lat: lat)
    }

    /// Row permutations: new row i is old row perm[i].
    static func permutations(_ n: Int) -> [[Int]] {
        var rng = SplitMix64(seed: 39)
        return [Array((0..<n).reversed()), Array(0..<n).shuffled(using: &rng), Array(0..<n).shuffled(using: &rng)]
    }

    /// A metre-scale plane for the planar runs: longitude and latitude times the metres of a
    /// degree at 51°N (keeps the grid's ties).
    static func plane(_ lon: [Double], _ lat: [Double]) throws -> PointSet {
        try PointSet(xs: lon.map { $0 * 70_197 }, ys: lat.map { $0 * 111_257 })
    }

    /// `values` of a run on permuted rows, put back in the original rows' order.
    static func unpermuted<T>(_ values: [T], _ perm: [Int]) -> [T] {
        var out = values
        for (i, row) in perm.enumerated() { out[row] = values[i] }
        return out
    }

    /// The parts of an HDBSCAN result that must not depend on row order, by original row.
    struct HDBSCANView: Equatable {
        let labels: [Int32]
        let probabilities: [Double]
        let outlierScores: [Double]
        let coreDistances: [Double]
        let sortedWeights: [Double]

        init(_ r: HDBSCANResult, perm: [Int]) {
            labels = unpermuted(r.labeling.labels, perm)
            probabilities = unpermuted(r.labeling.probabilities, perm)
            outlierScores = unpermuted(r.labeling.outlierScores, perm)
            coreDistances = unpermuted(r.coreDistances, perm)
            sortedWeights = r.mst!.weight.sorted()
        }

        /// Everything bit for bit, the labels up to the clusters' numbering (which follows
        /// scikit-learn's condensed tree, whose numbering follows the rows).
        func same(as other: HDBSCANView) -> Bool {
            samePartition(labels, other.labels) && probabilities == other.probabilities
                && outlierScores == other.outlierScores && coreDistances == other.coreDistances
                && sortedWeights == other.sortedWeights
        }
    }

    /// Fits the sample as given, then in every permuted order on 1 and 2 threads, and expects
    /// the five things of `HDBSCANView` unchanged.
    static func expectOrderFree(_ s: Sample, _ note: String,
                                fit: ([Double], [Double], Int) throws -> HDBSCANResult) throws {
        let base = HDBSCANView(try fit(s.lon, s.lat, 1), perm: Array(s.lon.indices))
        #expect(Set(base.labels).count > 5, "\(s): a sample with clusters to tell apart")
        for perm in permutations(s.lon.count) {
            for threads in [1, 2] {
                let run = HDBSCANView(try fit(perm.map { s.lon[$0] }, perm.map { s.lat[$0] }, threads), perm: perm)
                #expect(run.same(as: base), "\(s), \(note), \(threads) thread(s)")
            }
        }
    }

    @Test("HDBSCAN on the sphere: partition, probabilities, outlier scores, core distances and MST weights", arguments: samples)
    func hdbscanSphere(_ s: Sample) throws {
        for parameters in [HDBSCANParameters(minClusterSize: 5, minSamples: 5), HDBSCANParameters(minClusterSize: 15)] {
            try Self.expectOrderFree(s, "mcs \(parameters.minClusterSize)") {
                try HDBSCAN.fit(try SpherePoints(longitudes: $0, latitudes: $1), parameters: parameters, threads: $2)
            }
        }
    }

    @Test("HDBSCAN on the plane: the same five things", arguments: samples)
    func hdbscanPlane(_ s: Sample) throws {
        let parameters = HDBSCANParameters(minClusterSize: 5, minSamples: 5)
        try Self.expectOrderFree(s, "plane") { try HDBSCAN.fit(try Self.plane($0, $1), parameters: parameters, threads: $2) }
    }

    /// The one-at-a-time rule condenses tied merges in the spanning tree's order, which follows
    /// the points (their canonical order on the sphere, the k-d tree's on the plane), never the
    /// rows: on the grid-snapped samples, where distances tie by the thousand, too.
    @Test("HDBSCAN with ties one at a time: the same five things, sphere and plane", arguments: samples)
    func hdbscanOneAtATime(_ s: Sample) throws {
        let parameters = HDBSCANParameters(minClusterSize: 5, minSamples: 5, ties: .oneAtATime)
        try Self.expectOrderFree(s, "sphere, one at a time") {
            try HDBSCAN.fit(try SpherePoints(longitudes: $0, latitudes: $1), parameters: parameters, threads: $2)
        }
        try Self.expectOrderFree(s, "plane, one at a time") { try HDBSCAN.fit(try Self.plane($0, $1), parameters: parameters, threads: $2) }
    }

    /// DBSCAN's core points, their clusters and its noise are functions of the points; a
    /// border point within reach of two clusters takes the lowest-numbered, scikit-learn's
    /// rule, and the numbering follows the rows, so border points alone may take another
    /// cluster when the rows are shuffled.
    @Test("DBSCAN, sphere and plane: core points, their partition and the noise", arguments: samples)
    func dbscan(_ s: Sample) throws {
        let parameters = DBSCANParameters(eps: 8_000, minSamples: 5)
        typealias Fit = ([Double], [Double], Int) throws -> DBSCANResult
        let fits: [(String, Fit)] = [
            ("sphere", { try DBSCAN.fit(try SpherePoints(longitudes: $0, latitudes: $1), parameters: parameters, threads: $2) }),
            ("plane", { try DBSCAN.fit(try Self.plane($0, $1), parameters: parameters, threads: $2) }),
        ]
        for (space, fit) in fits {
            let base = try fit(s.lon, s.lat, 1)
            #expect(base.clusterCount > 10, "\(s) \(space)")
            let coreRows = base.isCore.indices.filter { base.isCore[$0] }
            for perm in Self.permutations(s.lon.count) {
                for threads in [1, 2] {
                    let r = try fit(perm.map { s.lon[$0] }, perm.map { s.lat[$0] }, threads)
                    let labels = Self.unpermuted(r.labels, perm), isCore = Self.unpermuted(r.isCore, perm)
                    #expect(isCore == base.isCore, "\(s) \(space), \(threads) thread(s)")
                    #expect(labels.map { $0 < 0 } == base.labels.map { $0 < 0 }, "\(s) \(space): noise")
                    #expect(samePartition(coreRows.map { labels[$0] }, coreRows.map { base.labels[$0] }), "\(s) \(space)")
                    #expect(r.clusterCount == base.clusterCount)
                }
            }
        }
    }
}
