// Prediction and soft clustering for C callers, from a fit made with GC_OUTPUT_PREDICTION:
// the hdbscan library's approximate_predict, approximate_predict_scores, membership_vector and
// all_points_membership_vectors. The declarations: GeoclusterCHeader's geocluster.h. New points
// have the fit's metric and 2 dimensions: x, y, or for a fit on the sphere latitude, longitude
// in radians.
import ClusterCore
import GeoclusterCHeader

/// The handle's prediction model, or the error a fit without one gets.
private func model(_ handle: OpaquePointer?) throws(CAPIError) -> PredictionModel {
    guard let held = fit(handle) else { throw CAPIError(.invalidArgument, "result must not be null") }
    guard let model = held.model else {
        throw CAPIError(.invalidArgument, "this fit has no prediction data: fit with GC_OUTPUT_PREDICTION (prediction_data=True)")
    }
    return model
}

/// New points, in the space the model was fitted in: its metric and its 2 dimensions (a fit
/// in other dimensions keeps no prediction data).
private func newPoints(_ points: UnsafePointer<gc_points>?, for model: PredictionModel) throws(CAPIError) -> Points {
    let fitted = model.isOnSphere ? GC_METRIC_HAVERSINE : GC_METRIC_EUCLIDEAN
    if let metric = points?.pointee.metric, metric != fitted {
        throw CAPIError(.invalidArgument, "points: the metric must be the fit's (\(model.isOnSphere ? "haversine" : "euclidean"))")
    }
    if let d = points?.pointee.dimensions, d != 2 {
        throw CAPIError(.invalidParameter, "points: dimensions = \(d), but the fit's points have 2; give new points of 2 coordinates")
    }
    return try Points(points)
}

@_cdecl("gc_hdbscan_predict")
public func gc_hdbscan_predict(
    _ handle: OpaquePointer?, _ points: UnsafePointer<gc_points>?, _ threads: Int64, _ labels: UnsafeMutablePointer<Int32>?,
    _ probabilities: UnsafeMutablePointer<Double>?, _ outlierScores: UnsafeMutablePointer<Double>?,
    _ connecting: UnsafeMutablePointer<Int64>?, _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let model = try model(handle)
        let workers = try checkedThreads(threads)
        let answers = model.predict(try newPoints(points, for: model), threads: workers)
        for (i, a) in answers.enumerated() {
            labels?[i] = a.label
            probabilities?[i] = a.probability
            outlierScores?[i] = a.outlierScore
            connecting?[i] = Int64(a.connectingRow)
        }
    }
}

@_cdecl("gc_hdbscan_membership_vectors")
public func gc_hdbscan_membership_vectors(
    _ handle: OpaquePointer?, _ points: UnsafePointer<gc_points>?, _ threads: Int64, _ out: UnsafeMutablePointer<Double>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let model = try model(handle)
        let workers = try checkedThreads(threads)
        let vectors = model.membershipVectors(try newPoints(points, for: model), threads: workers)
        copy(vectors, to: out)
    }
}

@_cdecl("gc_hdbscan_all_points_membership_vectors")
public func gc_hdbscan_all_points_membership_vectors(
    _ handle: OpaquePointer?, _ threads: Int64, _ out: UnsafeMutablePointer<Double>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let model = try model(handle)
        let workers = try checkedThreads(threads)
        let labels = fit(handle)!.result.labeling.labels
        guard model.clusterCount > 0 && model.pointCount > 0 else { return }
        guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
        model.allPointsMembershipVectors(labels: labels, threads: workers,
                                         into: UnsafeMutableBufferPointer(start: out, count: model.pointCount * model.clusterCount))
    }
}
