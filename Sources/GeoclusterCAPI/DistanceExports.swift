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

@_cdecl("gc_bottleneck_forest")
public func gc_bottleneck_forest(
    _ n: Int64, _ m: Int64, _ a: UnsafePointer<Int64>?, _ b: UnsafePointer<Int64>?, _ weight: UnsafePointer<Double>?,
    _ limit: Double, _ kept: UnsafePointer<UInt8>?, _ outA: UnsafeMutablePointer<Int64>?,
    _ outB: UnsafeMutablePointer<Int64>?, _ outWeight: UnsafeMutablePointer<Double>?,
    _ outCount: UnsafeMutablePointer<Int64>?, _ message: UnsafeMutablePointer<CChar>?, _ messageCapacity: Int64
) -> Int32 {
    reportingErrors(message: message, capacity: messageCapacity) { () throws(CAPIError) in
        guard n >= 0, n <= Int64(Int32.max), m >= 0 else { throw CAPIError(.invalidArgument, "n = \(n), m = \(m) are invalid") }
        guard let outCount else { throw CAPIError(.invalidArgument, "out_count must not be null") }
        outCount.pointee = 0
        guard m == 0 || (a != nil && b != nil && weight != nil && outA != nil && outB != nil && outWeight != nil),
              n == 0 || kept != nil else {
            throw CAPIError(.invalidArgument, "a, b, weight, kept and the outputs must not be null")
        }
        let edges = Int(m)
        var ends = ([Int32](repeating: 0, count: edges), [Int32](repeating: 0, count: edges))
        for e in 0..<edges {
            guard a![e] >= 0, a![e] < n, b![e] >= 0, b![e] < n else {
                throw CAPIError(.invalidParameter, "edge \(e) has ends \(a![e]), \(b![e]), outside 0 ..< \(n)")
            }
            ends.0[e] = Int32(a![e]); ends.1[e] = Int32(b![e])
        }
        let weights = edges == 0 ? [] : Array(UnsafeBufferPointer(start: weight, count: edges))
        if let e = weights.firstIndex(where: { $0 < 0 }) {
            throw CAPIError(.invalidParameter, "edge \(e) weighs \(weights[e]), below 0")
        }
        let keep = n == 0 ? [] : UnsafeBufferPointer(start: kept, count: Int(n)).map { $0 != 0 }
        let joins = BottleneckForest.joins(count: Int(n), a: ends.0, b: ends.1, weight: weights, limit: limit, kept: keep)
        for i in joins.weight.indices {
            outA![i] = Int64(joins.a[i]); outB![i] = Int64(joins.b[i]); outWeight![i] = joins.weight[i]
        }
        outCount.pointee = Int64(joins.weight.count)
    }
}
