import Foundation
@testable import ClusterMetrics
import TestSupport

// Fixtures written by scripts/reference/make_dbscan_metrics_fixtures.py into Tests/Fixtures/metrics.

/// A pair of labelings with scikit-learn's scores under each noise mode.
struct ScoreFixture: Decodable, CustomStringConvertible, Sendable {
    struct Scores: Decodable, Sendable {
        let adjusted_rand: Double
        let adjusted_mutual_info: Double
        let normalized_mutual_info: Double
        let homogeneity: Double
        let completeness: Double
        let v_measure: Double
        let fowlkes_mallows: Double
        /// nil where scikit-learn raises (no points).
        let mutual_info: Double?
        let expected_mutual_info: Double
        let entropy_truth: Double
        let entropy_predicted: Double
        let n: Int
        let truth_labels: Int
        let predicted_labels: Int
    }
    let name: String
    let truth: [Int32]
    let predicted: [Int32]
    let scores: [String: Scores]

    var description: String { name }
    static let all = TestPaths.decodeJSONFixtures(ScoreFixture.self, in: "metrics") { !$0.hasPrefix("validity_") }
}

/// Points and labels with the hdbscan library's DBCV and relative validity.
struct ValidityFixture: Decodable, CustomStringConvertible, Sendable {
    let name: String
    let points: [[Double]]
    let labels: [Int32]
    /// nil where the library returns NaN.
    let dbcv: Double?
    let hdbscan_labels: [Int32]
    let mst_from: [Int32]
    let mst_to: [Int32]
    let mst_weight: [Double]
    let relative_validity: Double

    var description: String { name }
    var xs: [Double] { points.map { $0[0] } }
    var ys: [Double] { points.map { $0[1] } }
    static let all = TestPaths.decodeJSONFixtures(ValidityFixture.self, in: "metrics") { $0.hasPrefix("validity_") }
}

/// |a − b| within `tolerance`, NaN only equal to NaN.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
    return abs(a - b) <= tolerance
}
