import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// One case written by scripts/reference/make_features_fixtures.py: points in d = 1, 3, 5, 8 or
/// 16 dimensions (blobs, an embedded manifold, duplicates, integer coordinates) with
/// scikit-learn 1.9.1's HDBSCAN and DBSCAN on them, and HDBSCAN* with ties taken all at once
/// (geocluster's `TieRule.allAtOnce`) computed by the script from the same spanning tree.
struct FeatureCase: Decodable, CustomStringConvertible, Sendable {
    /// Core distances and the sorted MST weights for one `minSamples`.
    struct Spanning: Decodable, Sendable {
        let min_samples: Int
        let core_distances: [Double]
        let mst_weights_sorted: [Double]
        let mst_weight_total: Double
    }
    struct HDBSCANRun: Decodable, Sendable {
        struct Params: Decodable, Sendable {
            let min_cluster_size: Int
            let min_samples: Int?
            let cluster_selection_method: String
        }
        struct AllAtOnce: Decodable, Sendable {
            let labels: [Int32]
            let probabilities: [Double]
        }
        let params: Params
        let labels: [Int32]
        let probabilities: [Double]
        /// Whether the order of equal-weight merges can change scikit-learn's result, and the
        /// rows whose label it can change.
        let ties_decide: Bool
        let tie_points: [Int]
        let shuffle_stable: Bool
        let unstable_points: [Int]
        let all_at_once: AllAtOnce

        var parameters: HDBSCANParameters {
            HDBSCANParameters(minClusterSize: params.min_cluster_size, minSamples: params.min_samples,
                              selection: SelectionOptions(method: params.cluster_selection_method == "leaf" ? .leaf : .excessOfMass))
        }
    }
    struct DBSCANRun: Decodable, Sendable {
        let eps: Double
        let min_samples: Int
        let sample_weight: [Double]?
        let labels: [Int32]
        let core: [Int]
        let n_clusters: Int
        /// Border rows within eps of core points of two or more clusters.
        let contested_border: [Int]
    }
    let name: String
    let dimensions: Int
    let points: [[Double]]
    let spanning: [Spanning]
    let hdbscan: [HDBSCANRun]
    let dbscan: [DBSCANRun]

    var description: String { name }
    var count: Int { points.count }

    static let all: [FeatureCase] = TestPaths.decodeJSONFixtures(FeatureCase.self, in: "features")

    /// The points, rows in the order given (new row i = old row `order[i]`).
    func featurePoints(order: [Int]? = nil) -> Points {
        let rows = order ?? Array(0..<count)
        return Points.features(try! FeaturePoints(values: rows.flatMap { points[$0] }, dimensions: dimensions))
    }

    func spanning(for run: HDBSCANRun) -> Spanning {
        let k = run.params.min_samples ?? run.params.min_cluster_size
        return spanning.first { $0.min_samples == k }!
    }

    /// A seeded row permutation: new row i is old row `perm[i]`.
    var permutation: [Int] {
        var g = SplitMix64(seed: 4400 &+ UInt64(count))
        return Array(0..<count).shuffled(using: &g)
    }
}

/// Values of a run on permuted rows, put back in the original rows' order.
private func unpermuted<T>(_ values: [T], _ perm: [Int]) -> [T] {
    var out = values
    for (i, row) in perm.enumerated() { out[row] = values[i] }
    return out
}

/// Whether `a` and `b` agree within `tolerance` relative (absolute below 1).
private func agree(_ a: [Double], _ b: [Double], _ tolerance: Double = 1e-9) -> Bool {
    a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) <= tolerance * max(1, abs($1)) }
}

/// The labels of `rows` only.
private func restricted(_ labels: [Int32], to rows: [Int]) -> [Int32] { rows.map { labels[$0] } }

@Suite("HDBSCAN and DBSCAN in d dimensions against scikit-learn (committed fixtures)")
struct FeaturesReferenceTests {
    @Test("there are fixtures for every dimension and kind of data")
    func coverage() {
        let names = Set(FeatureCase.all.map(\.name))
        for d in [3, 5, 8, 16] {
            for kind in ["blobs", "manifold", "duplicates", "ties"] {
                let name = (d < 10 ? "d0\(d)" : "d\(d)") + "_\(kind)"
                #expect(names.contains(name), "missing fixture \(name)")
            }
        }
        for kind in ["blobs", "duplicates", "ties"] { #expect(names.contains("d01_\(kind)"), "missing d01_\(kind)") }
        for c in FeatureCase.all {
            #expect(c.points.allSatisfy { $0.count == c.dimensions }, "\(c.name): ragged rows")
        }
        let runs = FeatureCase.all.flatMap(\.hdbscan)
        #expect(runs.contains { $0.params.cluster_selection_method == "leaf" })
        #expect(runs.contains { !$0.ties_decide }, "no run where ties decide nothing")
        #expect(FeatureCase.all.flatMap(\.dbscan).contains { $0.sample_weight != nil })
    }

    @Test("core distances and sorted MST weights equal scikit-learn's within 1e-9, for 1 and 2 threads and any row order",
          arguments: FeatureCase.all)
    func spanningTrees(_ c: FeatureCase) throws {
        let perm = c.permutation
        for s in c.spanning {
            for threads in [1, 2] {
                let (mst, core) = try HDBSCAN.minimumSpanningTree(c.featurePoints(), minSamples: s.min_samples,
                                                                  threads: threads)
                #expect(agree(core, s.core_distances), "\(c.name) minSamples \(s.min_samples): core distances")
                #expect(agree(mst.weight.sorted(), s.mst_weights_sorted),
                        "\(c.name) minSamples \(s.min_samples) threads \(threads): MST weights")
            }
            let (mst, core) = try HDBSCAN.minimumSpanningTree(c.featurePoints(order: perm), minSamples: s.min_samples)
            #expect(agree(unpermuted(core, perm), s.core_distances), "\(c.name) permuted: core distances")
            #expect(agree(mst.weight.sorted(), s.mst_weights_sorted), "\(c.name) permuted: MST weights")
        }
    }

    @Test("HDBSCAN: the all-at-once result everywhere, scikit-learn's wherever no tie decides, the same for 1 and 2 threads",
          arguments: FeatureCase.all)
    func hdbscan(_ c: FeatureCase) throws {
        for run in c.hdbscan {
            let s = c.spanning(for: run)
            let what = "\(c.name) mcs \(run.params.min_cluster_size) ms \(run.params.min_samples.map { "\($0)" } ?? "unset") \(run.params.cluster_selection_method)"
            // Rows no order of equal-weight merges can move: scikit-learn's answer is defined there.
            let tied = Set(run.tie_points)
            let free = (0..<c.count).filter { !tied.contains($0) }
            var first: HDBSCANResult? = nil
            for threads in [1, 2] {
                let r = try HDBSCAN.fit(c.featurePoints(), parameters: run.parameters, threads: threads)
                let labels = r.labeling.labels, probabilities = r.labeling.probabilities
                #expect(agree(r.coreDistances, s.core_distances), "\(what): core distances")
                let mst = try #require(r.mst)
                #expect(agree(mst.weight.sorted(), s.mst_weights_sorted), "\(what): MST weights")
                #expect(abs(r.mstWeight - s.mst_weight_total) <= 1e-9 * max(1, s.mst_weight_total), "\(what): MST total")
                #expect(samePartition(labels, run.all_at_once.labels), "\(what) threads \(threads): all-at-once partition")
                #expect(agree(probabilities, run.all_at_once.probabilities), "\(what): all-at-once probabilities")
                #expect(samePartition(restricted(labels, to: free), restricted(run.labels, to: free)),
                        "\(what): scikit-learn's partition on the \(free.count) rows no tie touches")
                #expect(agree(free.map { probabilities[$0] }, free.map { run.probabilities[$0] }),
                        "\(what): scikit-learn's probabilities on the rows no tie touches")
                if !run.ties_decide || run.shuffle_stable {
                    // As the planar fixtures: where scikit-learn does not depend on row order,
                    // its whole partition (the script checks it is the all-at-once one).
                    #expect(samePartition(labels, run.labels), "\(what): scikit-learn's partition")
                }
                if let first {
                    #expect(labels == first.labeling.labels && probabilities == first.labeling.probabilities,
                            "\(what): 2 threads differ from 1")
                } else {
                    first = r
                }
            }
            // The same rows in another order: the same partition and weights.
            let perm = c.permutation
            let p = try HDBSCAN.fit(c.featurePoints(order: perm), parameters: run.parameters, threads: 2)
            let labels = unpermuted(p.labeling.labels, perm)
            let mst = try #require(p.mst)
            #expect(agree(mst.weight.sorted(), s.mst_weights_sorted), "\(what) permuted: MST weights")
            #expect(samePartition(restricted(labels, to: free), restricted(run.labels, to: free)),
                    "\(what) permuted: scikit-learn's partition on the rows no tie touches")
            #expect(samePartition(labels, run.all_at_once.labels), "\(what) permuted: all-at-once partition")
            #expect(agree(unpermuted(p.labeling.probabilities, perm), run.all_at_once.probabilities),
                    "\(what) permuted: probabilities")
        }
    }

    @Test("DBSCAN: scikit-learn's labels and core flags exactly (also weighted), for 1 and 2 threads and any row order",
          arguments: FeatureCase.all)
    func dbscan(_ c: FeatureCase) throws {
        let perm = c.permutation
        for run in c.dbscan {
            let what = "\(c.name) eps \(run.eps) minSamples \(run.min_samples)\(run.sample_weight == nil ? "" : " weighted")"
            let parameters = DBSCANParameters(eps: run.eps, minSamples: run.min_samples)
            for threads in [1, 2] {
                let r = try DBSCAN.fit(c.featurePoints(), parameters: parameters, sampleWeight: run.sample_weight,
                                       threads: threads)
                #expect(r.labels == run.labels, "\(what) threads \(threads): labels")
                #expect(r.isCore == run.core.map { $0 == 1 }, "\(what) threads \(threads): core flags")
                #expect(r.clusterCount == run.n_clusters, "\(what): cluster count")
            }
            // Permuted rows: the same core points and noise; the same partition except for the
            // border points two clusters reach (a border point takes the lowest-numbered one,
            // and the numbering follows the row order).
            let r = try DBSCAN.fit(c.featurePoints(order: perm), parameters: parameters,
                                   sampleWeight: run.sample_weight.map { w in perm.map { w[$0] } }, threads: 2)
            #expect(unpermuted(r.isCore, perm) == run.core.map { $0 == 1 }, "\(what) permuted: core flags")
            let labels = unpermuted(r.labels, perm)
            let contested = Set(run.contested_border)
            let rows = (0..<c.count).filter { !contested.contains($0) }
            #expect(samePartition(restricted(labels, to: rows), restricted(run.labels, to: rows)), "\(what) permuted: partition")
            #expect(labels.map { $0 < 0 } == run.labels.map { $0 < 0 }, "\(what) permuted: noise")
        }
    }
}
