#if canImport(Glibc)
import Glibc  // sin, cos, atan2 (FoundationEssentials does not re-export them)
#endif

extension Projection {
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
