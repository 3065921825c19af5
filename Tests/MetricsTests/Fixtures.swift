import Foundation
@testable import Metrics

/// Files written by scripts/reference/make_dbscan_metrics_fixtures.py into Tests/Fixtures/metrics.
enum MetricsFixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/metrics")

    static func load<T: Decodable>(_ type: T.Type, where keep: (String) -> Bool) -> [T] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(".json") && keep($0) }.sorted().map {
            // JSONDecoder reads the doubles bit-exactly (see scripts/reference/README.md).
            try! JSONDecoder().decode(T.self, from: Data(contentsOf: folder.appendingPathComponent($0)))
        }
    }
}

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
    static let all = MetricsFixtures.load(ScoreFixture.self) { !$0.hasPrefix("validity_") }
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
    static let all = MetricsFixtures.load(ValidityFixture.self) { $0.hasPrefix("validity_") }
}

/// SplitMix64 (Steele, Lea & Flood 2014): seeded test data, the same on every platform.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// |a − b| within `tolerance`, NaN only equal to NaN.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    if a.isNaN || b.isNaN { return a.isNaN && b.isNaN }
    return abs(a - b) <= tolerance
}
