// Prediction and soft clustering for C callers, from a fit made with GC_OUTPUT_PREDICTION:
// the hdbscan library's approximate_predict, approximate_predict_scores, membership_vector and
// all_points_membership_vectors. The declarations: python/geocluster_hdbscan/_capi.h. New points
// are read as the fit's were: x, y, or for a fit on the sphere latitude, longitude in radians.
import ClusterCore

/// The handle's prediction model, or the error a fit without one gets.
private func model(_ handle: UnsafeRawPointer?) throws(CAPIError) -> PredictionModel {
    guard let handle else { throw CAPIError(.invalidArgument, "result must not be null") }
    guard let model = Unmanaged<HDBSCANFit>.fromOpaque(handle).takeUnretainedValue().model else {
        throw CAPIError(.invalidArgument, "this fit has no prediction data: fit with GC_OUTPUT_PREDICTION (prediction_data=True)")
    }
    return model
}

@_cdecl("gc_hdbscan_predict")
public func gc_hdbscan_predict(
    _ handle: UnsafeRawPointer?, _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ n: Int64,
    _ stride: Int64, _ threads: Int64, _ labels: UnsafeMutablePointer<Int32>?,
    _ probabilities: UnsafeMutablePointer<Double>?, _ outlierScores: UnsafeMutablePointer<Double>?,
    _ connecting: UnsafeMutablePointer<Int64>?, _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let model = try model(handle)
        let workers = try checkedThreads(threads)
        let answers = model.isOnSphere
            ? model.predict(try readSpherePoints(latitudes: x, longitudes: y, n: n, stride: stride), threads: workers)
            : model.predict(try readPoints(x: x, y: y, n: n, stride: stride), threads: workers)
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
    _ handle: UnsafeRawPointer?, _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ n: Int64,
    _ stride: Int64, _ threads: Int64, _ out: UnsafeMutablePointer<Double>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let model = try model(handle)
        let workers = try checkedThreads(threads)
        let vectors = model.isOnSphere
            ? model.membershipVectors(try readSpherePoints(latitudes: x, longitudes: y, n: n, stride: stride), threads: workers)
            : model.membershipVectors(try readPoints(x: x, y: y, n: n, stride: stride), threads: workers)
        copy(vectors, to: out)
    }
}

@_cdecl("gc_hdbscan_all_points_membership_vectors")
public func gc_hdbscan_all_points_membership_vectors(
    _ handle: UnsafeRawPointer?, _ threads: Int64, _ out: UnsafeMutablePointer<Double>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let model = try model(handle)
        let workers = try checkedThreads(threads)
        let labels = Unmanaged<HDBSCANFit>.fromOpaque(handle!).takeUnretainedValue().result.labeling.labels
        guard model.clusterCount > 0 && model.pointCount > 0 else { return }
        guard let out else { throw CAPIError(.invalidArgument, "out must not be null") }
        model.allPointsMembershipVectors(labels: labels, threads: workers,
                                         into: UnsafeMutableBufferPointer(start: out, count: model.pointCount * model.clusterCount))
    }
}
