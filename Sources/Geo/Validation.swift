/// Input checks shared by Projection and the GEOS constructors, so every entry point reports
/// bad data the same way and before any C code sees it.
enum Validation {
    /// Throws `.countMismatch` unless the two coordinate arrays describe the same points.
    static func sameCount(
        _ a: [Double], _ aName: String, _ b: [Double], _ bName: String
    ) throws(GeoError) {
        guard a.count == b.count else {
            throw .countMismatch(first: aName, firstCount: a.count, second: bName, secondCount: b.count)
        }
    }

    /// Throws `.nonFiniteCoordinate` naming the first index where either array holds NaN or ±∞.
    /// - Complexity: O(n).
    static func finite(_ a: [Double], _ b: [Double]) throws(GeoError) {
        for i in a.indices where !a[i].isFinite || !b[i].isFinite {
            throw .nonFiniteCoordinate(index: i)
        }
    }

    /// Checks lon/lat arrays: equal length, finite, |lon| <= 180 and |lat| <= 90 degrees.
    /// The first bad index wins; at one index a non-finite value is reported before a range
    /// error because NaN fails every comparison and would otherwise slip through.
    /// - Complexity: O(n).
    static func lonLat(_ lon: [Double], _ lat: [Double]) throws(GeoError) {
        try sameCount(lon, "lon", lat, "lat")
        for i in lon.indices {
            let (λ, φ) = (lon[i], lat[i])
            guard λ.isFinite, φ.isFinite else { throw .nonFiniteCoordinate(index: i) }
            guard abs(φ) <= 90 else { throw .latitudeOutOfRange(index: i, value: φ) }
            guard abs(λ) <= 180 else { throw .longitudeOutOfRange(index: i, value: λ) }
        }
    }
}
