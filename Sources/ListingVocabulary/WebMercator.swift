// Web Mercator in pure Swift, with ClusterCore's `ElementaryMath` (this module imports neither
// Foundation nor a C library, so an app embeds it anywhere).

import ClusterCore

/// Web Mercator ("EPSG:3857") on the sphere, the projection of every web map, in two forms:
///
/// - the unit square, as supercluster and the pins use it: `x` in [0, 1] grows east from
///   −180°, `y` in [0, 1] grows south from about 85.05° N. At zoom `z` with `tileSize`-pixel
///   tiles the world is `tileSize · 2^z` pixels wide, so a distance `d` in these units is
///   `d · tileSize · 2^z` pixels;
/// - projected metres (`easting`, `northing`), as EPSG:3857 defines them and the SVG maps draw
///   them: northing grows north, both are 0 at (0°, 0°).
public enum WebMercator: Sendable {
    /// The latitude beyond which Web Mercator is cut off (y would leave [0, 1]), in degrees.
    public static let maxLatitude = 85.051128779806592

    /// The WGS 84 semi-major axis (metres) and first eccentricity squared.
    static let wgs84A = radius
    static let wgs84E2 = 0.006_694_379_990_141_316_96

    /// x in [0, 1] of a longitude in degrees (linear; 180° maps to 1).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func x(longitude: Double) -> Double { longitude / 360 + 0.5 }

    /// y in [0, 1] of a latitude in degrees, clamped to the unit square beyond ±`maxLatitude`.
    /// - Complexity: O(1), about 40 floating-point operations.
    public static func y(latitude: Double) -> Double {
        let s = ElementaryMath.sin(latitude * (Double.pi / 180))
        let y = 0.5 - 0.25 * ElementaryMath.log((1 + s) / (1 - s)) / Double.pi
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    /// The longitude in degrees of an x.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func longitude(x: Double) -> Double { (x - 0.5) * 360 }

    /// The latitude in degrees of a y.
    /// - Complexity: O(1), about 60 floating-point operations.
    public static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * (Double.pi / 180)
        return 360 * ElementaryMath.atan(ElementaryMath.exp(y2)) / Double.pi - 90
    }

    /// Ground metres per pixel at `zoom` and `latitude` (degrees) for `tileSize`-pixel tiles, on
    /// the WGS 84 equator's scale (Web Mercator's sphere): `2π · 6378137 · cos φ / (tileSize · 2^zoom)`.
    /// - Complexity: O(1).
    public static func metresPerPixel(zoom: Double, latitude: Double, tileSize: Double = 256) -> Double {
        2 * Double.pi * wgs84A * ElementaryMath.cos(latitude * (Double.pi / 180)) / (tileSize * exp2(zoom))
    }

    /// Metres per degree of latitude and of longitude at `latitude` (degrees), on the WGS 84
    /// ellipsoid: `π/180 · M` and `π/180 · N · cos φ` with M and N the meridional and normal
    /// radii of curvature. Using them to turn an offset of up to 80 m into degrees is off by the
    /// curvature of the ellipsoid over 80 m, below 1 mm.
    /// - Complexity: O(1).
    public static func metresPerDegree(latitude: Double) -> (latitude: Double, longitude: Double) {
        let phi = latitude * (Double.pi / 180)
        let s = ElementaryMath.sin(phi), c = ElementaryMath.cos(phi)
        let w2 = 1 - wgs84E2 * s * s
        let w = w2.squareRoot()
        let m = wgs84A * (1 - wgs84E2) / (w2 * w)
        let n = wgs84A / w
        return (Double.pi / 180 * m, Double.pi / 180 * n * c)
    }

    /// The sphere's radius in metres (the WGS 84 semi-major axis, as EPSG:3857 defines it).
    public static let radius = 6_378_137.0

    /// Easting of a longitude in degrees, projected metres.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func easting(longitude: Double) -> Double { radius * longitude * .pi / 180 }

    /// Northing of a latitude in degrees, projected metres; latitudes beyond ±`maxLatitude`
    /// are clamped to it (where the square world map ends).
    /// - Complexity: O(1).
    public static func northing(latitude: Double) -> Double {
        let phi = min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180
        let a = .pi / 4 + phi / 2
        return radius * ElementaryMath.log(ElementaryMath.sin(a) / ElementaryMath.cos(a))
    }

    /// The longitude in degrees of an easting in metres.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func longitude(easting: Double) -> Double { easting / radius * 180 / .pi }

    /// The latitude in degrees of a northing in metres.
    /// - Complexity: O(1).
    public static func latitude(northing: Double) -> Double {
        (2 * ElementaryMath.atan(ElementaryMath.exp(northing / radius)) - .pi / 2) * 180 / .pi
    }

    /// Ground metres per projected metre at `latitude` (degrees): Mercator stretches distances
    /// by 1 / cos(latitude), so a projected length times this is true on the ground there.
    /// - Complexity: O(1).
    public static func groundScale(latitude: Double) -> Double { ElementaryMath.cos(latitude * .pi / 180) }

    /// Easting and northing of every point, projected metres.
    /// - Complexity: O(n).
    public static func project(longitudes: [Double], latitudes: [Double]) -> (x: [Double], y: [Double]) {
        (longitudes.map { easting(longitude: $0) }, latitudes.map { northing(latitude: $0) })
    }

    /// The zoom at which a span of the world, `span` in these x units (the world is 1 wide), fills
    /// `pixels` pixels of a view, for `tileSize`-pixel tiles: log2(pixels / (span · tileSize)).
    /// A map view's visible width gives the zoom to ask pins for: MapKit's `visibleMapRect.width
    /// / MKMapSize.world.width` over `bounds.width` points is zoom 20 + log2(points / width).
    /// - Parameters:
    ///   - span: the visible width in world widths, greater than 0 (wrapping views: at most 1
    ///     counts once).
    ///   - pixels: the view's width in pixels (points on Apple platforms), greater than 0.
    ///   - tileSize: the tile side the zoom is counted in (256 for MapKit, Google Maps and
    ///     Leaflet; MapLibre's 512 gives one zoom level less for the same view).
    /// - Returns: the zoom, not clamped: a `PinIndex` query refuses a zoom outside
    ///   0...`PinOptions.maxZoom` (and a span or width of 0 gives an infinite zoom), so clamp
    ///   it first.
    public static func zoom(span: Double, pixels: Double, tileSize: Double = 256) -> Double {
        ElementaryMath.log(pixels / (span * tileSize)) / ln2
    }

    /// ln 2, for zooms to and from powers of two.
    private static let ln2 = 0.693_147_180_559_945_309_42

    /// 2^z for a zoom (fractional zooms go through exp).
    @inline(__always)
    package static func exp2(_ z: Double) -> Double {
        if z == z.rounded(.down), abs(z) < 1000 { return Double(sign: .plus, exponent: Int(z), significand: 1) }
        return ElementaryMath.exp(z * ln2)
    }
}
