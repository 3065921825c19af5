#if canImport(Glibc)
import Glibc  // sin, cos, atan2 (FoundationEssentials does not re-export them)
#endif

extension Projection {
    /// The azimuthal equidistant projection on WGS 84 centred at (`latitude`, `longitude`)
    /// degrees (PROJ `+proj=aeqd`): distances and directions from the centre are true, and
    /// within a few hundred kilometres of it every shape is nearly true, wherever on the
    /// globe it is: across ±180° or around a pole as anywhere else.
    ///
    /// Made from the PROJ operation itself, with no database lookup, so one per cluster
    /// costs little; `sharing` another projection's PROJ context (both then stay on one
    /// thread) saves making a context as well. ``crs`` is the CRS's PROJ string.
    /// - Throws: `.proj` if PROJ rejects the definition.
    public static func azimuthalEquidistant(latitude: Double, longitude: Double,
                                            sharing other: Projection? = nil) throws(GeoError) -> Projection {
        let aeqd = "+proj=aeqd +lat_0=\(latitude) +lon_0=\(longitude) +ellps=WGS84"
        let context: ProjContext
        if let other { context = other.sharedContext } else { context = try ProjContext() }
        return try Projection(
            operation: aeqd,
            crs: aeqd + " +units=m +type=crs", context: context)
    }

    /// The spherical centroid of the points `indices` selects: the mean of their unit vectors
    /// on the sphere, pointed back at the surface; degrees. It does not jump at ±180° and
    /// stays among the points near a pole, where the mean latitude and longitude would not.
    ///
    /// When the vectors cancel out (points spread evenly round the globe, or two antipodes),
    /// the mean has no direction; the point with the smallest (latitude, longitude) is used
    /// instead, which does not depend on the order either. The centre is rounded to 1e-6°
    /// (about 10 cm), so summing in another row order cannot move it.
    /// - Complexity: O(indices.count).
    public static func sphericalCentre(longitudes lon: [Double], latitudes lat: [Double],
                                       indices: [Int]) -> (longitude: Double, latitude: Double) {
        var (sx, sy, sz) = (0.0, 0.0, 0.0)
        for i in indices {
            let λ = lon[i] * .pi / 180, φ = lat[i] * .pi / 180
            sx += cos(φ) * cos(λ)
            sy += cos(φ) * sin(λ)
            sz += sin(φ)
        }
        let norm = (sx * sx + sy * sy + sz * sz).squareRoot()
        guard let first = indices.first else { return (0, 0) }
        if norm < 1e-9 * Double(indices.count) {
            let i = indices.min { (lat[$0], lon[$0]) < (lat[$1], lon[$1]) } ?? first
            return (lon[i], lat[i])
        }
        func rounded(_ v: Double) -> Double { (v * 1e6).rounded() / 1e6 }
        let φ = atan2(sz, (sx * sx + sy * sy).squareRoot()) * 180 / .pi
        // At a pole every longitude is the same point; 0 keeps the definition tidy.
        let λ = abs(φ) > 90 - 1e-9 ? 0 : atan2(sy, sx) * 180 / .pi
        return (rounded(λ), rounded(φ))
    }
}
