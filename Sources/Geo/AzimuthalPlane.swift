#if canImport(Glibc)
import Glibc  // sin, cos, atan2, asin (FoundationEssentials does not re-export them)
#endif

/// The plane one cluster's hull is computed in when clusters get planes of their own: the
/// azimuthal equidistant projection on a sphere of the Earth's mean radius, centred on the
/// cluster (PROJ's `+proj=aeqd +R=6371008.8`, which ``crs`` names). Distances and directions
/// from the centre are true on that sphere, and within a few hundred kilometres every shape is
/// nearly true, wherever the centre is: across ±180° or at a pole as anywhere else.
///
/// Written out here rather than asked of PROJ because a measurement said so: a PROJ object per
/// cluster (parsed from text) and PROJ's ellipsoidal geodesic per point cost more than the
/// hulls themselves on world data of many clusters (docs/performance.md). A hull's vertices are
/// the cluster's own points, unprojected back where they were, so the sphere's fraction of a
/// per cent against the ellipsoid moves no vertex: at most it changes which points a concave
/// hull picks. `AzimuthalPlaneTests` checks both directions against PROJ.
struct AzimuthalPlane: Sendable {
    /// The sphere's radius: the mean radius of WGS 84 (IUGG R₁), metres.
    static let radius = 6_371_008.8

    let centreLongitude: Double, centreLatitude: Double
    private let λ0: Double, sinφ0: Double, cosφ0: Double

    /// The plane centred at (`latitude`, `longitude`), degrees.
    init(latitude: Double, longitude: Double) {
        centreLatitude = latitude
        centreLongitude = longitude
        λ0 = longitude * .pi / 180
        let φ0 = latitude * .pi / 180
        (sinφ0, cosφ0) = (sin(φ0), cos(φ0))
    }

    /// The plane as a PROJ CRS definition: the same projection, for messages and for users who
    /// want to redo a hull in PROJ.
    var crs: String {
        "+proj=aeqd +lat_0=\(centreLatitude) +lon_0=\(centreLongitude) +R=\(Self.radius) +units=m +type=crs"
    }

    /// Metres east and north of the centre in the plane, for a point in degrees. The antipode
    /// of the centre (where the projection is undefined) maps to a point on the circle of
    /// radius πR.
    func forward(longitude: Double, latitude: Double) -> (x: Double, y: Double) {
        let φ = latitude * .pi / 180, Δλ = longitude * .pi / 180 - λ0
        let (sinφ, cosφ) = (sin(φ), cos(φ))
        let (sinΔλ, cosΔλ) = (sin(Δλ), cos(Δλ))
        let east = cosφ * sinΔλ
        let north = cosφ0 * sinφ - sinφ0 * cosφ * cosΔλ
        let chord = (east * east + north * north).squareRoot()
        guard chord > 0 else { return (0, 0) }
        // The angular distance from the centre, from atan2 so it stays accurate near 0 and π.
        let c = atan2(chord, sinφ0 * sinφ + cosφ0 * cosφ * cosΔλ)
        let k = Self.radius * c / chord
        return (k * east, k * north)
    }

    /// Projects arrays of longitudes and latitudes (degrees).
    func forward(longitudes: [Double], latitudes: [Double]) -> (x: [Double], y: [Double]) {
        var x = [Double](repeating: 0, count: longitudes.count), y = x
        for i in longitudes.indices { (x[i], y[i]) = forward(longitude: longitudes[i], latitude: latitudes[i]) }
        return (x, y)
    }

    /// The point (degrees, longitude in [-180, 180]) at `x` metres east and `y` north of the
    /// centre in the plane.
    func inverse(x: Double, y: Double) -> (lon: Double, lat: Double) {
        let ρ = (x * x + y * y).squareRoot()
        guard ρ > 0 else { return (centreLongitude, centreLatitude) }
        let c = ρ / Self.radius
        let (sinc, cosc) = (sin(c), cos(c))
        let φ = asin(max(-1, min(1, cosc * sinφ0 + y * sinc * cosφ0 / ρ)))
        let λ = λ0 + atan2(x * sinc, ρ * cosφ0 * cosc - y * sinφ0 * sinc)
        var longitude = λ * 180 / .pi
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (longitude, φ * 180 / .pi)
    }
}

/// What a hull needs of the plane it was computed in: its name and the way back to degrees.
/// A named CRS (``Projection``) or a cluster's own plane (``AzimuthalPlane``).
protocol HullPlane {
    var crs: String { get }
    func inverse(x: Double, y: Double) throws(GeoError) -> (lon: Double, lat: Double)
    func inverse(_ geometry: Geometry) throws(GeoError) -> Geometry
}

extension AzimuthalPlane: HullPlane {
    func inverse(_ geometry: Geometry) throws(GeoError) -> Geometry {
        try geometry.mappingVertices { x, y in
            (x, y) = inverse(x: x, y: y)
            return nil
        }
    }
}

extension Projection: HullPlane {}
