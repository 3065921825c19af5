// DBSCAN for C callers: labels and core flags straight into the caller's buffers.
// The declaration and its documentation: python/geocluster/_capi.h.
import ClusterCore

@_cdecl("gc_dbscan_fit")
public func gc_dbscan_fit(
    _ x: UnsafePointer<Double>?, _ y: UnsafePointer<Double>?, _ n: Int64, _ stride: Int64,
    _ eps: Double, _ minSamples: Int64, _ threads: Int64,
    _ labels: UnsafeMutablePointer<Int32>?, _ isCore: UnsafeMutablePointer<UInt8>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let parameters = DBSCANParameters(eps: eps, minSamples: Int(minSamples))
        do throws(ClusterCoreError) {
            try parameters.validate()
        } catch {
            throw CAPIError(error)
        }
        let workers = try checkedThreads(threads)
        let points = try readPoints(x: x, y: y, n: n, stride: stride)
        guard n == 0 || (labels != nil && isCore != nil) else {
            throw CAPIError(.invalidArgument, "labels and is_core must not be null when n > 0")
        }
        let result: DBSCANResult
        do throws(ClusterCoreError) {
            result = try DBSCAN.fit(points, parameters: parameters, threads: workers)
        } catch {
            throw CAPIError(error)
        }
        copy(result.labels, to: labels)
        if let isCore {
            for i in result.isCore.indices { isCore[i] = result.isCore[i] ? 1 : 0 }
        }
    }
}
