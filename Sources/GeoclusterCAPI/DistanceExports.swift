// Distances for C callers, measured as the library measures them, so that values a caller
// combines with a fit's core distances and MST weights compare with them bit for bit.
import ClusterCore
import GeoclusterCHeader

@_cdecl("gc_distances")
public func gc_distances(
    _ a: UnsafePointer<gc_points>?, _ b: UnsafePointer<gc_points>?, _ out: UnsafeMutablePointer<Double>?,
    _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        let first = try Points(a), second = try Points(b)
        guard a!.pointee.n == b!.pointee.n else {
            throw CAPIError(.invalidArgument, "a->n = \(a!.pointee.n) and b->n = \(b!.pointee.n) differ: pairs are row by row")
        }
        let n = Int(a!.pointee.n)
        guard n == 0 || out != nil else { throw CAPIError(.invalidArgument, "out must not be null") }
        switch (first, second) {
        case let (.plane(p), .plane(q)):
            for i in 0..<n {
                let dx = p.xs[i] - q.xs[i], dy = p.ys[i] - q.ys[i]
                out![i] = (dx * dx + dy * dy).squareRoot()
            }
        case let (.sphere(p), .sphere(q)):
            let scale = 1 / SpherePoints.earthRadius
            for i in 0..<n {
                out![i] = SpherePoints.distance(lon1: p.longitudes[i], lat1: p.latitudes[i],
                                                lon2: q.longitudes[i], lat2: q.latitudes[i]) * scale
            }
        default:
            throw CAPIError(.invalidArgument, "a and b must both be 2-dimensional points of one metric")
        }
    }
}
