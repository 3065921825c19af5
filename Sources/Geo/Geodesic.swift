import CGeoLibraries
#if canImport(Glibc)
import Glibc  // sin, cos, atan2, remainder
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances and areas on the WGS 84 ellipsoid, with PROJ's geodesic routines (Karney 2013,
/// `geodesic.h`): true ground measures, whatever CRS the points were projected to.
public enum Geodesic {
    /// The WGS 84 ellipsoid (semi-major axis in metres, flattening).
    static func wgs84() throws(GeoError) -> geod_geodesic {
        try loadPROJ()
        var g = geod_geodesic()
        PROJ.geod_init(&g, 6_378_137, 1 / 298.257223563)
        return g
    }

    /// The distance in metres between two points given in degrees.
    public static func distance(lon1: Double, lat1: Double, lon2: Double, lat2: Double) throws(GeoError) -> Double {
        var g = try wgs84()
        var s12 = 0.0
        PROJ.geod_inverse(&g, lat1, lon1, lat2, lon2, &s12, nil, nil)
        return s12
    }

    /// The area in m² of a ring of longitude/latitude vertices (closed or not; either
    /// orientation), as geodesic edges on the ellipsoid.
    /// - Complexity: O(ring.count).
    public static func area(ring: Coordinates) throws(GeoError) -> Double {
        var n = ring.count
        if n > 1 && ring.x[0] == ring.x[n - 1] && ring.y[0] == ring.y[n - 1] { n -= 1 }
        guard n >= 3 else { return 0 }
        var g = try wgs84()
        var lats = Array(ring.y.prefix(n)), lons = Array(ring.x.prefix(n))
        var a = 0.0
        PROJ.geod_polygonarea(&g, &lats, &lons, Int32(n), &a, nil)
        return abs(a)
    }

    /// The area in m² of a geometry in longitude/latitude: each polygon's exterior less its
    /// holes; 0 for points and lines.
    /// - Throws: the errors of reading the geometry's rings.
    /// - Complexity: O(vertices).
    public static func area(of geometry: Geometry) throws(GeoError) -> Double {
        guard geometry.type == .polygon || geometry.type == .multiPolygon, !geometry.isEmpty else { return 0 }
        var total = 0.0
        for rings in try geometry.polygons() {
            for (k, ring) in rings.enumerated() {
                let a = try area(ring: ring)
                total += k == 0 ? a : -a
            }
        }
        return total
    }
}

/// How far a projection stretches ground distances at one place: the ratio of projected to
/// geodesic length of a short step there (east–west or north–south, whichever is further
/// from 1); infinite where PROJ cannot project the place.
public struct GroundScale: Sendable, Equatable {
    public var scale: Double
    public var longitude: Double
    public var latitude: Double

    /// Scale errors up to this (1 %) count as ground metres: UTM and national grids stay
    /// within 0.1 % over their areas. The one rule for every caller that decides whether
    /// projected distances are metres on the ground (`--metric auto`, the distance flags'
    /// check, the warnings, the hulls' planes).
    public static let tolerance = 0.01

    /// Whether a scale factor keeps distances ground metres (within `tolerance`).
    public static func isGround(_ scale: Double) -> Bool { abs(scale - 1) <= tolerance }

    /// Whether distances in the projection are ground metres here.
    public var isGround: Bool { GroundScale.isGround(scale) }
}

extension Projection {
    /// How much this projection stretches ground distances over the points: the scale (see
    /// ``GroundScale``) furthest from 1 among the points of extreme latitude and longitude
    /// (longitudes measured from their circular mean, so data across ±180° has its true
    /// extremes), up to 256 points spread evenly through the rows, and the centre. About 1.0
    /// for UTM or EPSG:5179 within their areas; 1/cos(latitude) for Web Mercator (1.26 at
    /// Seoul); infinite when a probed point cannot be projected.
    /// - Throws: `.emptyInput` without points.
    /// - Complexity: O(n) to find the extremes, then a few hundred transforms.
    /// - Parameter limit: stop at the first probe whose scale is further than this from 1
    ///   (the extremes come first), when only whether the data exceeds it matters.
    public func worstScale(fittingLongitudes lon: [Double], latitudes lat: [Double],
                           stoppingBeyond limit: Double = .infinity) throws(GeoError) -> GroundScale {
        guard !lon.isEmpty else { throw .emptyInput(operation: "measuring the projection's scale") }
        var worst = GroundScale(scale: 1, longitude: lon[0], latitude: lat[0])
        for (x, y) in Projection.probes(lon, lat) {
            let s = (try? scale(atLongitude: x, latitude: y)) ?? .infinity
            if !(abs(s - 1) <= abs(worst.scale - 1)) { worst = GroundScale(scale: s, longitude: x, latitude: y) }
            if !(abs(worst.scale - 1) <= limit) { break }
        }
        return worst
    }

    /// The scale furthest from 1 over the points (``worstScale(fittingLongitudes:latitudes:)``).
    public func scaleFactor(fittingLongitudes lon: [Double], latitudes lat: [Double]) throws(GeoError) -> Double {
        try worstScale(fittingLongitudes: lon, latitudes: lat).scale
    }

    /// The places `worstScale` probes: extremes, the spherical centre, an even sample of rows.
    /// The centre is taken over an even sample of at most 65,536 rows: it is a place to probe,
    /// not a result, and four trigonometric calls per row would cost more than the probes.
    static func probes(_ lon: [Double], _ lat: [Double]) -> [(Double, Double)] {
        let (centreLon, centreLat) = sampledCentre(lon, lat)
        // Degrees east of the centre, in [−180, 180]: one pass, no remainder call per row.
        var west = 0, east = 0, westOffset = Double.infinity, eastOffset = -Double.infinity
        var south = 0, north = 0
        for i in lon.indices {
            var d = lon[i] - centreLon
            if d > 180 { d -= 360 } else if d < -180 { d += 360 }
            if d < westOffset { westOffset = d; west = i }
            if d > eastOffset { eastOffset = d; east = i }
            if lat[i] < lat[south] { south = i }
            if lat[i] > lat[north] { north = i }
        }
        let step = max(1, lon.count / 256)
        let sample = stride(from: 0, to: lon.count, by: step).map { (lon[$0], lat[$0]) }
        return [south, north, west, east].map { (lon[$0], lat[$0]) } + [(centreLon, centreLat)] + sample
    }

    /// The spherical centre (direction of the mean unit vector) of an even sample of at most
    /// 65,536 rows, degrees.
    static func sampledCentre(_ lon: [Double], _ lat: [Double]) -> (longitude: Double, latitude: Double) {
        var sx = 0.0, sy = 0.0, sz = 0.0
        for i in stride(from: 0, to: lon.count, by: max(1, lon.count / 65_536)) {
            let φ = lat[i] * .pi / 180, λ = lon[i] * .pi / 180
            sx += cos(φ) * cos(λ); sy += cos(φ) * sin(λ); sz += sin(φ)
        }
        return (atan2(sy, sx) * 180 / .pi, atan2(sz, (sx * sx + sy * sy).squareRoot()) * 180 / .pi)
    }

    /// The scale at one place: projected over geodesic length of 0.001° steps east and north.
    func scale(atLongitude lon0: Double, latitude lat0: Double) throws(GeoError) -> Double {
        let d = 0.001  // degrees: about 100 m, short enough for the scale to be constant along it
        let lat1 = lat0 + (lat0 > 89 ? -d : d)
        // Westwards at the antimeridian: PROJ refuses a longitude beyond 180°.
        let lon1 = lon0 + (lon0 + d > 180 ? -d : d)
        let p = try forward(lon: [lon0, lon1, lon0], lat: [lat0, lat0, lat1])
        func ratio(_ k: Int, _ lon2: Double, _ lat2: Double) throws(GeoError) -> Double {
            let planar = ((p.x[k] - p.x[0]) * (p.x[k] - p.x[0]) + (p.y[k] - p.y[0]) * (p.y[k] - p.y[0])).squareRoot()
            return planar / (try Geodesic.distance(lon1: lon0, lat1: lat0, lon2: lon2, lat2: lat2))
        }
        let east = try ratio(1, lon1, lat0), north = try ratio(2, lon0, lat1)
        return abs(east - 1) > abs(north - 1) ? east : north
    }
}
