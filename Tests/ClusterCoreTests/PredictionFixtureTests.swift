import Foundation
import Testing
@testable import ClusterCore
import TestSupport

/// One case written by scripts/reference/make_prediction_fixtures.py: the hdbscan library's
/// prediction and soft clustering on a fitted reference case.
struct PredictionCase: Decodable, CustomStringConvertible, Sendable {
    struct Params: Decodable, Sendable {
        let min_cluster_size: Int
        let cluster_selection_method: String
        let cluster_selection_epsilon: Double
        let allow_single_cluster: Bool
        let max_cluster_size: Int?
    }
    let name: String
    /// "haversine" for the great-circle cases (points are longitude, latitude in degrees and
    /// `cluster_selection_epsilon` metres then), nil for planar ones.
    let metric: String?
    let params: Params
    let hdbscan_min_samples: Int
    let points: [[Double]]
    let fit_labels: [Int32]
    let new_points: [[Double]]
    let predict_labels: [Int32]
    let predict_probabilities: [Double?]
    let predict_connecting: [Int32]
    let predict_outlier_scores: [Double?]
    let tie_points: [Int]
    /// New points and fitted rows whose hdbscan answers change when its input rows are
    /// shuffled: ties decide them, and geocluster decides ties its own way.
    let unstable_new_points: [Int]
    let unstable_fitted_rows: [Int]
    let membership_vectors: [[Double?]]?
    let all_points_membership_vectors: [[Double?]]?

    var description: String { name }

    /// The new points whose answers no tie decides.
    var settledNewPoints: [Int] {
        let skip = Set(tie_points).union(unstable_new_points)
        return new_points.indices.filter { !skip.contains($0) }
    }

    /// The fitted rows whose answers no tie decides.
    var settledFittedRows: [Int] {
        let skip = Set(unstable_fitted_rows)
        return points.indices.filter { !skip.contains($0) }
    }

    static func all() -> [PredictionCase] { planar() + sphere() }
    static func planar() -> [PredictionCase] { TestPaths.decodeJSONFixtures(PredictionCase.self, in: "prediction") }
    static func sphere() -> [PredictionCase] {
        TestPaths.decodeJSONFixtures(PredictionCase.self, in: "prediction_sphere")
    }

    var onSphere: Bool { metric == "haversine" }

    /// The hdbscan library's parameters in its own count, or the same fit in scikit-learn's
    /// (one more: the point itself).
    func parameters(_ convention: MinSamplesConvention) -> HDBSCANParameters {
        HDBSCANParameters(
            minClusterSize: params.min_cluster_size,
            minSamples: convention == .hdbscan ? hdbscan_min_samples : hdbscan_min_samples + 1,
            minSamplesConvention: convention,
            selection: SelectionOptions(
                method: params.cluster_selection_method == "leaf" ? .leaf : .excessOfMass,
                epsilon: params.cluster_selection_epsilon, allowSingleCluster: params.allow_single_cluster,
                maxClusterSize: params.max_cluster_size),
            ties: .allAtOnce)
    }

    static func pointSet(_ rows: [[Double]]) -> PointSet { try! PointSet(xs: rows.map { $0[0] }, ys: rows.map { $0[1] }) }
    static func spherePoints(_ rows: [[Double]]) -> SpherePoints {
        try! SpherePoints(longitudes: rows.map { $0[0] }, latitudes: rows.map { $0[1] })
    }
}

/// A fit of a prediction case, with the map from its labels to hdbscan's.
struct FittedPredictionCase {
    let model: PredictionModel
    let labels: [Int32]
    /// hdbscan's label for each of ours.
    let theirs: [Int32]

    init(_ c: PredictionCase, _ convention: MinSamplesConvention = .hdbscan) throws {
        // The model as the fit keeps it (its own index and neighbour lists); the model built
        // from a result alone is checked against it in PredictionModelTests.
        let keeping: HDBSCANOutputs = [.prediction, .clusterTree]
        let result = c.onSphere
            ? try HDBSCAN.fit(PredictionCase.spherePoints(c.points), parameters: c.parameters(convention), threads: 2,
                              keeping: keeping)
            : try HDBSCAN.fit(PredictionCase.pointSet(c.points), parameters: c.parameters(convention), threads: 2,
                              keeping: keeping)
        labels = result.labeling.labels
        var map = [Int32](repeating: -1, count: result.selectedClusters.count)
        for (ours, theirs) in zip(labels, c.fit_labels) where ours >= 0 { map[Int(ours)] = theirs }
        theirs = map
        model = try #require(result.prediction)
    }

    func hdbscanLabel(_ ours: Int32) -> Int32 { ours < 0 ? -1 : theirs[Int(ours)] }

    /// The model's predictions of `rows` (x, y or longitude, latitude).
    func predict(_ rows: [[Double]]) -> [Prediction] {
        model.isOnSphere ? model.predict(PredictionCase.spherePoints(rows), threads: 2)
            : model.predict(PredictionCase.pointSet(rows), threads: 2)
    }

    /// The model's membership vectors of `rows`.
    func membershipVectors(_ rows: [[Double]]) -> [Double] {
        model.isOnSphere ? model.membershipVectors(PredictionCase.spherePoints(rows), threads: 2)
            : model.membershipVectors(PredictionCase.pointSet(rows), threads: 2)
    }

    /// Our matrix with its columns in hdbscan's order.
    func inTheirOrder(_ flat: [Double]) -> [[Double]] {
        let c = model.clusterCount
        return stride(from: 0, to: flat.count, by: c).map { start in
            var row = [Double](repeating: 0, count: c)
            for j in 0..<c { row[Int(theirs[j])] = flat[start + j] }
            return row
        }
    }
}

@Suite("Prediction against the hdbscan library's fixtures")
struct PredictionFixtureTests {
    @Test("the fits are hdbscan's partitions", arguments: PredictionCase.all())
    func fitsMatch(_ c: PredictionCase) throws {
        let fit = try FittedPredictionCase(c)
        let rows = c.settledFittedRows
        #expect(rows.map { fit.hdbscanLabel(fit.labels[$0]) } == rows.map { c.fit_labels[$0] })
    }

    @Test("approximate_predict: labels, probabilities, connecting points, outlier scores",
          arguments: PredictionCase.all(), MinSamplesConvention.allCases)
    func predictMatches(_ c: PredictionCase, _ convention: MinSamplesConvention) throws {
        let fit = try FittedPredictionCase(c, convention)
        let answers = fit.predict(c.new_points)
        for i in c.settledNewPoints {
            let a = answers[i]
            #expect(fit.hdbscanLabel(a.label) == c.predict_labels[i], "new point \(i)")
            // The same fitted point, or a copy of it at the same coordinates.
            #expect(c.points[Int(a.connectingRow)] == c.points[Int(c.predict_connecting[i])], "new point \(i)")
            if let p = c.predict_probabilities[i] { #expect(abs(a.probability - p) <= 1e-12, "new point \(i)") }
            if let s = c.predict_outlier_scores[i] {
                #expect(abs(a.outlierScore - s) <= 1e-9 * max(1, abs(s)), "new point \(i)")
            } else {
                #expect(a.outlierScore == 0 || a.outlierScore == 1, "new point \(i): hdbscan's NaN")
            }
        }
    }

    @Test("membership_vector for new points", arguments: PredictionCase.all().filter { $0.membership_vectors != nil })
    func membershipMatches(_ c: PredictionCase) throws {
        let fit = try FittedPredictionCase(c)
        let ours = fit.inTheirOrder(fit.membershipVectors(c.new_points))
        let predictions = fit.predict(c.new_points)
        for i in c.settledNewPoints {
            Self.expectRow(ours[i], c.membership_vectors![i], label: fit.hdbscanLabel(predictions[i].label), "new point \(i)")
        }
    }

    @Test("all_points_membership_vectors", arguments: PredictionCase.all().filter { $0.membership_vectors != nil })
    func allPointsMatch(_ c: PredictionCase) throws {
        let fit = try FittedPredictionCase(c)
        let ours = fit.inTheirOrder(fit.model.allPointsMembershipVectors(labels: fit.labels, threads: 2))
        for i in c.settledFittedRows {
            Self.expectRow(ours[i], c.all_points_membership_vectors![i], label: c.fit_labels[i], "row \(i)")
        }
    }

    /// hdbscan's row within 1e-9, or, where hdbscan has NaN, the one-hot of the label.
    static func expectRow(_ ours: [Double], _ expected: [Double?], label: Int32, _ what: String) {
        if expected.contains(where: { $0 == nil }) {
            let oneHot = (0..<ours.count).map { $0 == Int(label) ? 1.0 : 0.0 }
            #expect(ours == oneHot, "\(what): hdbscan's NaN")
            return
        }
        for (a, b) in zip(ours, expected) where abs(a - b!) > 1e-9 {
            Issue.record("\(what): \(ours) vs hdbscan's \(expected.map { $0! })")
            return
        }
    }
}

@Suite("Prediction: the same answers for any thread count")
struct PredictionThreadTests {
    @Test func oneAndTwoThreadsAgree() throws {
        var random = SplitMix64(seed: 42)
        func uniform() -> Double { Double(random.next() >> 11) / Double(1 << 53) * 1000 }
        // Three dense patches and a thin background, on a 1 cm grid so that ties occur.
        let centres = [(200.0, 200.0), (700.0, 300.0), (450.0, 800.0)]
        var xs = [Double](), ys = [Double]()
        for i in 0..<3000 {
            let (cx, cy) = i < 300 ? (0, 0) : centres[i % 3]
            let spread = i < 300 ? 1.0 : 0.08
            xs.append(((cx + (uniform() - 500) * spread) * 100).rounded() / 100)
            ys.append(((cy + (uniform() - 500) * spread) * 100).rounded() / 100)
        }
        let points = try PointSet(xs: xs, ys: ys)
        let parameters = HDBSCANParameters(minClusterSize: 25, minSamples: 10)
        let result = try HDBSCAN.fit(points, parameters: parameters, keeping: .clusterTree)
        let model = try PredictionModel(points: points, result: result, parameters: parameters)
        let newPoints = try PointSet(xs: (0..<2000).map { _ in uniform() }, ys: (0..<2000).map { _ in uniform() })
        #expect(model.clusterCount >= 3)
        #expect(model.predict(newPoints, threads: 1) == model.predict(newPoints, threads: 2))
        #expect(model.membershipVectors(newPoints, threads: 1) == model.membershipVectors(newPoints, threads: 2))
        let labels = result.labeling.labels
        #expect(model.allPointsMembershipVectors(labels: labels, threads: 1)
                == model.allPointsMembershipVectors(labels: labels, threads: 2))
    }
}
