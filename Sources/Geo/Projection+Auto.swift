#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc  // log, exp, pow, sin, cos (FoundationEssentials does not re-export them)
#endif

extension Projection {
    /// What to project to: a named CRS, or the UTM zone that fits the data.
    public enum Target: Equatable, Sendable, CustomStringConvertible {
        /// The WGS 84 UTM zone containing the centroid of the points: EPSG:326zz north of the
        /// equator (latitude >= 0), EPSG:327zz south of it. See ``Projection/utmCRS(longitude:latitude:)``.
        case auto
        /// Any CRS definition PROJ accepts, e.g. `"EPSG:5179"` (Korea).
        case crs(String)

        /// Parses a command-line value: `auto` (any case, surrounding spaces ignored) or a CRS.
        public init(_ text: String) {
            let trimmed = text.trimmingWhitespace()
            self = trimmed.lowercased() == "auto" ? .auto : .crs(trimmed)
        }

        public var description: String {
            switch self {
            case .auto: return "auto"
            case .crs(let name): return name
            }
        }
    }

    /// The CRS definition `target` stands for, given the data it will project.
    ///
    /// For `.crs(name)` this is `name`, unchecked (``init(crs:)`` checks it). For `.auto` it
    /// is the UTM zone of the points' centroid: the arithmetic mean latitude and the circular
    /// mean longitude (the direction of the summed unit vectors), which equals the ordinary
    /// mean for data that does not straddle the antimeridian and stays correct for data that
    /// does (179.9°E and 179.9°W average to 180°, not 0°). The special zones of Norway and
    /// Svalbard (32V, 31X–37X) are not applied: the plain 6° grid is used everywhere.
    ///
    /// - Parameters:
    ///   - lon: longitudes in degrees, each in [-180, 180].
    ///   - lat: latitudes in degrees, each in [-90, 90]; same count as `lon`.
    /// - Returns: e.g. `"EPSG:32652"` for points around Seoul.
    /// - Throws: for `.auto` only: `.countMismatch`, `.nonFiniteCoordinate`,
    ///   `.latitudeOutOfRange`, `.longitudeOutOfRange` naming the first bad index, or
    ///   `.emptyInput` when there are no points.
    /// - Complexity: O(n) for `.auto`, O(1) otherwise.
    public static func resolve(
        _ target: Target, longitudes lon: [Double], latitudes lat: [Double]
    ) throws(GeoError) -> String {
        switch target {
        case .crs(let name):
            return name
        case .auto:
            try Validation.lonLat(lon, lat)
            guard !lon.isEmpty else { throw .emptyInput(operation: "choosing the UTM zone for \"auto\"") }
            var (sumSin, sumCos, sumLat) = (0.0, 0.0, 0.0)
            for i in lon.indices {
                let λ = lon[i] * .pi / 180
                sumSin += sin(λ)
                sumCos += cos(λ)
                sumLat += lat[i]
            }
            // When the longitudes cancel out (points spread evenly around the globe) the
            // circular mean is undefined; fall back to the arithmetic mean.
            let meanLon = (abs(sumSin) < 1e-12 && abs(sumCos) < 1e-12)
                ? lon.reduce(0, +) / Double(lon.count)
                : atan2(sumSin, sumCos) * 180 / .pi
            // Means of in-range values are in range (atan2 gives [-180, 180]), so this
            // cannot throw; `try` only because the helper validates its own input.
            return try utmCRS(longitude: meanLon, latitude: sumLat / Double(lat.count))
        }
    }

    /// The WGS 84 UTM CRS whose 6° zone contains the point.
    ///
    /// Zone `z = floor((lon + 180) / 6) + 1`, so each zone is closed on its western edge;
    /// longitude 180° (the eastern edge of zone 60, the same meridian as -180°) is put in
    /// zone 60 rather than a non-existent zone 61. Latitude 0 counts as north.
    ///
    /// - Parameters:
    ///   - longitude: degrees, in [-180, 180].
    ///   - latitude: degrees, in [-90, 90]; only its sign picks the zone's hemisphere.
    /// - Returns: `"EPSG:326zz"` (north) or `"EPSG:327zz"` (south), `zz` from 01 to 60.
    /// - Throws: `.nonFiniteCoordinate`, `.latitudeOutOfRange` or `.longitudeOutOfRange`
    ///   with index 0.
    public static func utmCRS(longitude: Double, latitude: Double) throws(GeoError) -> String {
        try Validation.lonLat([longitude], [latitude])
        let zone = min(max(Int(((longitude + 180) / 6).rounded(.down)) + 1, 1), 60)
        let base = latitude >= 0 ? 32600 : 32700
        return "EPSG:\(base + zone)"
    }
}
