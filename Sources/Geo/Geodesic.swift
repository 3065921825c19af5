import CGeoLibraries

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

extension Projection {
    /// How much this projection stretches ground distances around the centre of the points:
    /// the ratio of projected to geodesic length of short east–west and north–south steps at
    /// their mean position, whichever is further from 1. About 1.0 for UTM or EPSG:5179 within
    /// their areas, 1/cos(latitude) for Web Mercator (1.26 at Seoul).
    /// - Throws: `.emptyInput` without points; the errors of the transform.
    /// - Complexity: O(n) for the mean.
    public func scaleFactor(fittingLongitudes lon: [Double], latitudes lat: [Double]) throws(GeoError) -> Double {
        guard !lon.isEmpty else { throw .emptyInput(operation: "measuring the projection's scale") }
        let lon0 = lon.reduce(0, +) / Double(lon.count), lat0 = lat.reduce(0, +) / Double(lat.count)
        let d = 0.001  // degrees: about 100 m, short enough for the scale to be constant along it
        let lat1 = lat0 + (lat0 > 89 ? -d : d)
        let p = try forward(lon: [lon0, lon0 + d, lon0], lat: [lat0, lat0, lat1])
        func ratio(_ k: Int, _ lon2: Double, _ lat2: Double) throws(GeoError) -> Double {
            let planar = ((p.x[k] - p.x[0]) * (p.x[k] - p.x[0]) + (p.y[k] - p.y[0]) * (p.y[k] - p.y[0])).squareRoot()
            return planar / (try Geodesic.distance(lon1: lon0, lat1: lat0, lon2: lon2, lat2: lat2))
        }
        let east = try ratio(1, lon0 + d, lat0), north = try ratio(2, lon0, lat1)
        return abs(east - 1) > abs(north - 1) ? east : north
    }
}
