import Geo

/// A geometry for ``GeoJSONWriter/beginFeature(_:)``, in longitude/latitude degrees
/// (x = longitude, y = latitude, as RFC 7946 orders them).
///
/// Rings are closed (first vertex repeated at the end), as ``Geometry/polygons()`` gives
/// them. Their orientation does not matter here: the writer puts every exterior ring
/// counterclockwise and every hole clockwise, as RFC 7946 §3.1.6 requires (GEOS's own
/// GeoJSON writer keeps its clockwise shells).
public enum GeoJSONGeometry: Equatable, Sendable {
    case point(lon: Double, lat: Double)
    case lineString(Coordinates)
    /// Lines, e.g. one cut at the antimeridian.
    case multiLineString([Coordinates])
    /// The exterior ring, then the holes.
    case polygon([Coordinates])
    /// One element per polygon, each as for ``polygon(_:)``.
    case multiPolygon([[Coordinates]])

    /// The coordinates of a GEOS geometry already in longitude/latitude (unproject metric
    /// geometries first with ``Projection/inverse(_:)``).
    /// - Throws: `.unsupportedGeometry` for an empty geometry or one that is not a Point,
    ///   LineString, LinearRing (written as a LineString), MultiLineString, Polygon or
    ///   MultiPolygon; the
    ///   errors of reading the coordinates.
    /// - Complexity: O(numPoints).
    public init(_ geometry: Geometry) throws(GeoError) {
        func unsupported() -> GeoError {
            .unsupportedGeometry(operation: "GeoJSONGeometry", type: geometry.type,
                                 expected: "a non-empty Point, LineString, MultiLineString, Polygon or MultiPolygon")
        }
        guard !geometry.isEmpty else { throw unsupported() }
        switch geometry.type {
        case .point:
            let v = try geometry.vertices()
            self = .point(lon: v.x[0], lat: v.y[0])
        case .lineString, .linearRing:
            self = .lineString(try geometry.vertices())
        case .polygon:
            self = .polygon(try geometry.polygons()[0])
        case .multiPolygon:
            self = .multiPolygon(try geometry.polygons())
        case .multiLineString:
            self = .multiLineString(try geometry.lines())
        case .multiPoint, .geometryCollection:
            throw unsupported()
        }
    }

    /// The geometry with every coordinate rounded to `decimals` places (ties away from zero).
    func rounded(toDecimals decimals: Int) -> GeoJSONGeometry {
        func r(_ v: Double) -> Double { Self.rounded(v, toDecimals: decimals) }
        func r(_ c: Coordinates) -> Coordinates { Coordinates(x: c.x.map(r), y: c.y.map(r)) }
        switch self {
        case .point(let lon, let lat): return .point(lon: r(lon), lat: r(lat))
        case .lineString(let c): return .lineString(r(c))
        case .multiLineString(let lines): return .multiLineString(lines.map(r))
        case .polygon(let rings): return .polygon(rings.map(r))
        case .multiPolygon(let polygons): return .multiPolygon(polygons.map { $0.map(r) })
        }
    }

    /// `v` rounded to `decimals` places (ties away from zero), as every position is written.
    static func rounded(_ v: Double, toDecimals decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    /// RFC 7946's name of the geometry type.
    var typeName: String {
        switch self {
        case .point: return "Point"
        case .lineString: return "LineString"
        case .multiLineString: return "MultiLineString"
        case .polygon: return "Polygon"
        case .multiPolygon: return "MultiPolygon"
        }
    }

    /// Twice the signed area of a closed ring (shoelace formula, in squared degrees):
    /// positive when the ring runs counterclockwise with longitude to the right and latitude
    /// up, the sense RFC 7946's right-hand rule refers to. Vertices are taken relative to
    /// the first, so a small ring far from (0, 0) loses no digits to cancellation.
    /// - Complexity: O(ring.count).
    static func doubledSignedArea(_ ring: Coordinates) -> Double {
        guard ring.count > 2 else { return 0 }
        let (x0, y0) = (ring.x[0], ring.y[0])
        var sum = 0.0
        for i in 1..<(ring.count - 1) {
            sum += (ring.x[i] - x0) * (ring.y[i + 1] - y0) - (ring.x[i + 1] - x0) * (ring.y[i] - y0)
        }
        return sum
    }
}
