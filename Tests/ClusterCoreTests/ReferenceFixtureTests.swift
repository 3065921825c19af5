import Foundation
import Testing
@testable import ClusterCore

/// One case written by scripts/reference/make_hdbscan_fixtures.py.
struct ReferenceCase: CustomStringConvertible, Sendable {
    let name: String
    let points: PointSet
    let parameters: HDBSCANParameters
    let sklearnLabels: [Int32]
    let sklearnProbabilities: [Double]
    let sklearnMSTWeights: [Double]
    let sklearnShuffleStable: Bool
    let sklearnProbabilitiesShuffleStable: Bool
    let sklearnMinShuffleARI: Double
    /// The hdbscan library's run (nil where it cannot express the case).
    let libLabels: [Int32]?
    let libOutlierScores: [Double]?
    let libShuffleStable: Bool
    let libScoresShuffleStable: Bool

    var description: String { name }

    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hdbscan")

    static func all() -> [ReferenceCase] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.sorted().map { load(folder.appendingPathComponent($0)) }
    }

    static func load(_ url: URL) -> ReferenceCase {
        let json = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        let params = json["params"] as! [String: Any]
        let pts = (json["points"] as! [[Double]])
        let sk = json["sklearn"] as! [String: Any]
        let lib = json["hdbscan_lib"] as? [String: Any]
        let method: SelectionMethod = (params["cluster_selection_method"] as! String) == "leaf" ? .leaf : .excessOfMass
        let p = HDBSCANParameters(
            minClusterSize: params["min_cluster_size"] as! Int,
            minSamples: params["min_samples"] as? Int,
            selection: SelectionOptions(
                method: method,
                epsilon: (params["cluster_selection_epsilon"] as! NSNumber).doubleValue,
                allowSingleCluster: params["allow_single_cluster"] as! Bool,
                maxClusterSize: params["max_cluster_size"] as? Int))
        return ReferenceCase(
            name: json["name"] as! String,
            points: try! PointSet(xs: pts.map { $0[0] }, ys: pts.map { $0[1] }),
            parameters: p,
            sklearnLabels: (sk["labels"] as! [Int]).map(Int32.init),
            sklearnProbabilities: (sk["probabilities"] as! [NSNumber]).map(\.doubleValue),
            sklearnMSTWeights: (sk["mst_weights_sorted"] as! [NSNumber]).map(\.doubleValue),
            sklearnShuffleStable: sk["shuffle_stable"] as! Bool,
            sklearnProbabilitiesShuffleStable: sk["probabilities_shuffle_stable"] as! Bool,
            sklearnMinShuffleARI: (sk["min_shuffle_ari"] as! NSNumber).doubleValue,
            libLabels: (lib?["labels"] as? [Int])?.map(Int32.init),
            libOutlierScores: (lib?["outlier_scores"] as? [NSNumber])?.map(\.doubleValue),
            libShuffleStable: lib?["shuffle_stable"] as? Bool ?? false,
            libScoresShuffleStable: lib?["outlier_scores_shuffle_stable"] as? Bool ?? false)
    }
}

@Suite("Exactness against scikit-learn and the hdbscan library (committed fixtures)")
struct ReferenceFixtureTests {
    static let cases = ReferenceCase.all()

    @Test("there are fixtures for every required situation")
    func coverage() {
        let names = Set(Self.cases.map(\.name))
        #expect(Self.cases.count >= 10)
        for required in ["blobs_varying_density", "strips", "uniform_noise", "duplicates", "n_below_mcs",
                         "n_equals_mcs", "leaf", "epsilon", "allow_single_cluster", "min_samples_unset",
                         "max_cluster_size", "min_samples_1"] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
    }

    @Test("sorted MST weights equal scikit-learn's within 1e-9", arguments: cases)
    func mstWeights(_ c: ReferenceCase) throws {
        let r = try HDBSCAN.fit(c.points, parameters: c.parameters)
        #expect(r.mst.weight.count == c.sklearnMSTWeights.count)
        for (a, b) in zip(r.mst.weight, c.sklearnMSTWeights) {
            #expect(abs(a - b) <= 1e-9 * max(1, abs(b)))
        }
    }

    @Test("labels: identical partition where scikit-learn is shuffle-stable, else as close as it is to itself",
          arguments: cases)
    func labels(_ c: ReferenceCase) throws {
        let r = try HDBSCAN.fit(c.points, parameters: c.parameters)
        let ari = adjustedRandIndex(r.labeling.labels, c.sklearnLabels)
        if c.sklearnShuffleStable {
            #expect(samePartition(r.labeling.labels, c.sklearnLabels), "ARI \(ari)")
            #expect(ari == 1.0)
        } else {
            #expect(ari >= c.sklearnMinShuffleARI, "ARI \(ari) below scikit-learn's own \(c.sklearnMinShuffleARI)")
        }
    }

    @Test("probabilities within 1e-9 where scikit-learn's are shuffle-stable", arguments: cases)
    func probabilities(_ c: ReferenceCase) throws {
        guard c.sklearnShuffleStable && c.sklearnProbabilitiesShuffleStable else { return }
        let r = try HDBSCAN.fit(c.points, parameters: c.parameters)
        for i in 0..<c.points.count {
            #expect(abs(r.labeling.probabilities[i] - c.sklearnProbabilities[i]) <= 1e-9, "point \(i)")
        }
    }

    @Test("GLOSH outlier scores within 1e-9 of the hdbscan library where its tree is stable", arguments: cases)
    func outlierScores(_ c: ReferenceCase) throws {
        guard let libLabels = c.libLabels, let scores = c.libOutlierScores,
              c.libShuffleStable, c.libScoresShuffleStable else { return }
        let r = try HDBSCAN.fit(c.points, parameters: c.parameters)
        #expect(samePartition(r.labeling.labels, libLabels))
        for i in 0..<c.points.count where scores[i].isFinite {
            #expect(abs(r.labeling.outlierScores[i] - scores[i]) <= 1e-9, "point \(i)")
        }
    }
}
