// DBSCAN for C callers: labels and core flags straight into the caller's buffers.
// The declaration and its documentation: python/geocluster/_capi.h.
import ClusterCore

@_cdecl("gc_dbscan_fit")
public func gc_dbscan_fit(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ n: Int64, _ stride: Int64,
    _ sampleWeight: UnsafePointer<Double>?, _ eps: Double, _ minSamples: Int64, _ threads: Int64,
    _ labels: UnsafeMutablePointer<Int32>?, _ isCore: UnsafeMutablePointer<UInt8>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    dbscanFit(eps: eps, minSamples: minSamples, weights: readWeights(sampleWeight, n: n), threads: threads, n: n,
              labels: labels, isCore: isCore,
              message: message, capacity: messageCapacity) { () throws(CAPIError) in
        .planar(try readPoints(x: x, y: y, n: n, stride: stride))
    }
}

/// `gc_dbscan_fit` by great-circle distance: x latitudes, y longitudes and eps in radians
/// (scikit-learn's `metric="haversine"`).
@_cdecl("gc_dbscan_fit_haversine")
public func gc_dbscan_fit_haversine(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ n: Int64, _ stride: Int64,
    _ sampleWeight: UnsafePointer<Double>?, _ eps: Double, _ minSamples: Int64, _ threads: Int64,
    _ labels: UnsafeMutablePointer<Int32>?, _ isCore: UnsafeMutablePointer<UInt8>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    dbscanFit(eps: eps * SpherePoints.earthRadius, minSamples: minSamples, weights: readWeights(sampleWeight, n: n),
              threads: threads, n: n, labels: labels,
              isCore: isCore, message: message, capacity: messageCapacity) { () throws(CAPIError) in
        .sphere(try readSpherePoints(latitudes: x, longitudes: y, n: n, stride: stride))
    }
}

/// Both DBSCAN exports: parameters checked, points read and fitted, results copied out.
private func dbscanFit(
    eps: Double, minSamples: Int64, weights: [Double]?, threads: Int64, n: Int64, labels: UnsafeMutablePointer<Int32>?,
    isCore: UnsafeMutablePointer<UInt8>?, message: UnsafeMutablePointer<CChar>?, capacity: Int64,
    points read: () throws(CAPIError) -> Points
) -> Int32 {
    reportingErrors(message: message, capacity: capacity) { () throws(CAPIError) in
        let parameters = DBSCANParameters(eps: eps, minSamples: Int(minSamples))
        do throws(ClusterCoreError) {
            try parameters.validate()
        } catch {
            throw CAPIError(error)
        }
        let workers = try checkedThreads(threads)
        let points = try read()
        guard n == 0 || (labels != nil && isCore != nil) else {
            throw CAPIError(.invalidArgument, "labels and is_core must not be null when n > 0")
        }
        let result: DBSCANResult
        do throws(ClusterCoreError) {
            switch points {
            case let .planar(p): result = try DBSCAN.fit(p, parameters: parameters, sampleWeight: weights, threads: workers)
            case let .sphere(p): result = try DBSCAN.fit(p, parameters: parameters, sampleWeight: weights, threads: workers)
            }
        } catch {
            throw CAPIError(error)
        }
        copy(result.labels, to: labels)
        if let isCore {
            for i in result.isCore.indices { isCore[i] = result.isCore[i] ? 1 : 0 }
        }
    }
}
