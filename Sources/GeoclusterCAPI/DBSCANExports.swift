// DBSCAN for C callers: labels and core flags straight into the caller's buffers.
// The declaration and its documentation: GeoclusterCHeader's geocluster.h.
import ClusterCore
import GeoclusterCHeader

@_cdecl("gc_dbscan_defaults")
public func gc_dbscan_defaults() -> gc_dbscan_params {
    gc_dbscan_params(eps: 0, min_samples: Int64(DBSCANParameters.defaultMinSamples), threads: 1)
}

@_cdecl("gc_dbscan_fit")
public func gc_dbscan_fit(
    _ points: UnsafePointer<gc_points>?, _ sampleWeight: UnsafePointer<Double>?, _ params: UnsafePointer<gc_dbscan_params>?,
    _ labels: UnsafeMutablePointer<Int32>?, _ isCore: UnsafeMutablePointer<UInt8>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        guard let params = params?.pointee else { throw CAPIError(.invalidArgument, "params must not be null") }
        // eps is in the points' unit: radians on the sphere, which the core measures in metres.
        let scale = points?.pointee.metric == GC_METRIC_HAVERSINE ? SpherePoints.earthRadius : 1
        let parameters = DBSCANParameters(eps: params.eps * scale, minSamples: Int(params.min_samples))
        do throws(ClusterCoreError) {
            try parameters.validate()
        } catch {
            throw CAPIError(error)
        }
        let workers = try checkedThreads(params.threads)
        let read = try Points(points)
        guard read.count == 0 || (labels != nil && isCore != nil) else {
            throw CAPIError(.invalidArgument, "labels and is_core must not be null when n > 0")
        }
        let weights = readWeights(sampleWeight, n: read.count)
        let result: DBSCANResult
        do throws(ClusterCoreError) {
            result = try DBSCAN.fit(read, parameters: parameters, sampleWeight: weights, threads: workers)
        } catch {
            throw CAPIError(error)
        }
        copy(result.labels, to: labels)
        if let isCore {
            for i in result.isCore.indices { isCore[i] = result.isCore[i] ? 1 : 0 }
        }
    }
}
