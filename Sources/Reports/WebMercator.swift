#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Web Mercator (EPSG:3857) on the sphere, the projection of every web map, written out
/// because the map and the palette need only its two formulas, not a PROJ context (which is
/// not `Sendable` and costs a database lookup to set up).
enum WebMercator {
    /// The sphere's radius, metres (WGS 84 semi-major axis, as EPSG:3857 defines it).
    static let radius = 6_378_137.0
    /// Latitudes are clamped to ±85.051129°, where the square world map ends.
    static let maxLatitude = 85.051_128_779_806_59

    /// Easting, projected metres.
    static func x(longitude: Double) -> Double { radius * longitude * .pi / 180 }

    /// Northing, projected metres.
    static func y(latitude: Double) -> Double {
        let phi = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        return radius * log(tan(.pi / 4 + phi / 2))
    }

    /// The longitude of an easting, degrees.
    static func longitude(x: Double) -> Double { x / radius * 180 / .pi }

    /// The latitude of a northing, degrees.
    static func latitude(y: Double) -> Double {
        (2 * atan(exp(y / radius)) - .pi / 2) * 180 / .pi
    }

    /// Ground metres per projected metre at `latitude`: Mercator stretches distances by
    /// 1 / cos(latitude), so a projected length times this is true on the ground there.
    static func groundScale(latitude: Double) -> Double { cos(latitude * .pi / 180) }

    /// Both coordinates of every point, projected metres.
    /// - Complexity: O(n).
    static func project(longitudes: [Double], latitudes: [Double]) -> (x: [Double], y: [Double]) {
        (longitudes.map { x(longitude: $0) }, latitudes.map { y(latitude: $0) })
    }
}
