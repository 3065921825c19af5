#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Geo
import ListingVocabulary

/// The polygons of a `--within` file, for point-in-polygon filtering with GEOS prepared
/// geometries. Coordinates are longitude/latitude degrees (x = longitude), the GeoJSON
/// convention; a WKT region is read in the same order.
///
/// Accepted files:
/// - `.geojson` / `.json`: a Polygon or MultiPolygon geometry, a Feature with one, a
///   GeometryCollection or FeatureCollection of them;
/// - `.wkt`: one `POLYGON` or `MULTIPOLYGON`.
///
/// A point is kept when some polygon *covers* it (OGC covers: the boundary counts as
/// inside, so a listing exactly on a district border is kept by both districts). Polygons
/// are not checked for validity; a self-intersecting ring gives GEOS-defined but
/// meaningless answers.
///
/// Not `Sendable`: the prepared geometries belong to one GEOS context, used from one thread.
public final class Region {
    /// The file read, as given.
    public let path: String
    private let context: GeometryContext
    private let prepared: [PreparedGeometry]
    private let envelopes: [BoundingBox]

    /// Number of polygons (each MultiPolygon member counts once).
    public var polygonCount: Int { prepared.count }

    private init(path: String, context: GeometryContext, polygons: [[Coordinates]]) throws(DatasetError) {
        self.path = path
        self.context = context
        var prepared: [PreparedGeometry] = []
        var envelopes: [BoundingBox] = []
        do throws(GeoError) {
            for rings in polygons {
                let polygon = try context.polygon(exterior: rings[0], holes: Array(rings.dropFirst()))
                prepared.append(try polygon.prepared())
                let shell = rings[0]
                envelopes.append(BoundingBox(minLongitude: shell.x.min()!, minLatitude: shell.y.min()!,
                                             maxLongitude: shell.x.max()!, maxLatitude: shell.y.max()!))
            }
        } catch {
            throw .invalidRegion(path: path, reason: "a polygon cannot be built: \(error)")
        }
        self.prepared = prepared
        self.envelopes = envelopes
    }

    /// Reads the region at `path`, choosing the format by extension.
    /// - Throws: `.fileNotFound`, `.unreadable`, `.empty`; `.invalidJSON` with line and
    ///   column; `.invalidGeoJSON` naming the feature index and member for a geometry that
    ///   is not a polygon or bad coordinates; `.invalidRegion` for bad WKT, an unknown
    ///   extension or no polygon at all.
    /// - Complexity: O(file size + v log v) for v vertices.
    public static func read(path: String) throws(DatasetError) -> Region {
        let ext = InputFile.nameExtension(path)
        let context: GeometryContext
        do { context = try GeometryContext() } catch {
            throw .invalidRegion(path: path, reason: "GEOS is unavailable: \(error)")
        }
        let polygons: [[Coordinates]]
        switch ext {
        case "geojson", "json":
            polygons = try readGeoJSON(path: path)
        case "wkt":
            polygons = try readWKT(path: path, context: context)
        case "" where try InputFile.isGeoJSON(path):  // a pipe: told by its first byte
            polygons = try readGeoJSON(path: path)
        case "":
            polygons = try readWKT(path: path, context: context)
        default:
            throw .invalidRegion(path: path, reason: "unknown region format '.\(ext)'; use a .geojson, .json or .wkt file")
        }
        guard !polygons.isEmpty else {
            throw .invalidRegion(path: path, reason: "holds no polygon; --within needs at least one Polygon or MultiPolygon")
        }
        return try Region(path: path, context: context, polygons: polygons)
    }

    /// For each point, whether some polygon covers it.
    /// - Parameters:
    ///   - lon: longitudes in degrees.
    ///   - lat: latitudes in degrees; same count as `lon`.
    /// - Complexity: O(n · p · log v) at worst for n points and p polygons of v vertices;
    ///   each polygon only tests the points inside its envelope.
    public func covers(lon: [Double], lat: [Double]) throws(DatasetError) -> [Bool] {
        precondition(lon.count == lat.count, "one latitude per longitude")
        var inside = [Bool](repeating: false, count: lon.count)
        for (k, polygon) in prepared.enumerated() {
            let box = envelopes[k]
            var index: [Int] = [], xs: [Double] = [], ys: [Double] = []
            for i in lon.indices where !inside[i] && box.contains(longitude: lon[i], latitude: lat[i]) {
                index.append(i); xs.append(lon[i]); ys.append(lat[i])
            }
            if index.isEmpty { continue }
            let hits: [Bool]
            do { hits = try polygon.covers(x: xs, y: ys) } catch {
                throw .invalidRegion(path: path, reason: "GEOS failed testing points against polygon \(k): \(error)")
            }
            for (j, hit) in hits.enumerated() where hit { inside[index[j]] = true }
        }
        return inside
    }

    // MARK: - Formats

    private static func readWKT(path: String, context: GeometryContext) throws(DatasetError) -> [[Coordinates]] {
        let file = try MappedFile(path: path)
        let text = file.withBytes { String(decoding: $0, as: UTF8.self) }.trimmingWhitespace(newlines: true)
        if text.isEmpty { throw .empty(path: path) }
        let geometry: Geometry
        do { geometry = try context.geometry(wkt: text) } catch {
            throw .invalidRegion(path: path, reason: "not valid WKT (\(error)); write one POLYGON or MULTIPOLYGON in lon lat order")
        }
        guard geometry.type == .polygon || geometry.type == .multiPolygon else {
            throw .invalidRegion(path: path, reason: "holds a \(geometry.type); --within needs a POLYGON or MULTIPOLYGON")
        }
        do { return try geometry.polygons() } catch {
            throw .invalidRegion(path: path, reason: "\(error)")
        }
    }

    private static func readGeoJSON(path: String) throws(DatasetError) -> [[Coordinates]] {
        let file = try MappedFile(path: path)
        let value: JSONValue = try file.withBytes { (bytes) throws(DatasetError) in
            var parser = JSONParser(bytes, path: path)
            if parser.atEnd() { throw DatasetError.empty(path: path) }
            let v = try parser.parseValue()
            guard parser.atEnd() else { throw parser.fail("unexpected \(parser.found()) after the top-level value") }
            return v
        }
        var polygons: [[Coordinates]] = []
        try collect(value, feature: nil, member: "", path: path, into: &polygons)
        return polygons
    }

    /// Appends the polygons of a GeoJSON object (geometry, Feature or collection).
    private static func collect(
        _ value: JSONValue, feature: Int?, member: String, path: String, into polygons: inout [[Coordinates]]
    ) throws(DatasetError) {
        func bad(_ m: String, _ reason: String) -> DatasetError {
            .invalidGeoJSON(path: path, feature: feature, member: member.isEmpty ? m : member + "." + m, reason: reason)
        }
        guard case .string(let type)? = value["type"] else {
            throw bad("type", "is missing; expected a Polygon, MultiPolygon, Feature or FeatureCollection")
        }
        switch type {
        case "FeatureCollection":
            guard case .array(let features)? = value["features"] else { throw bad("features", "is missing or not an array") }
            for (i, f) in features.enumerated() {
                try collect(f, feature: i, member: "", path: path, into: &polygons)
            }
        case "Feature":
            guard let g = value["geometry"], g != .null else { throw bad("geometry", "is missing or null; a region feature needs a polygon") }
            try collect(g, feature: feature, member: "geometry", path: path, into: &polygons)
        case "GeometryCollection":
            guard case .array(let parts)? = value["geometries"] else { throw bad("geometries", "is missing or not an array") }
            for (i, g) in parts.enumerated() {
                try collect(g, feature: feature, member: (member.isEmpty ? "" : member + ".") + "geometries[\(i)]",
                            path: path, into: &polygons)
            }
        case "Polygon":
            polygons.append(try rings(value["coordinates"], member: bad("coordinates", ""), path: path))
        case "MultiPolygon":
            guard case .array(let parts)? = value["coordinates"] else { throw bad("coordinates", "is missing or not an array") }
            for part in parts { polygons.append(try rings(part, member: bad("coordinates", ""), path: path)) }
        default:
            throw bad("type", "is \(type); --within needs Polygon or MultiPolygon geometries")
        }
    }

    /// The rings of one polygon's `coordinates`; `template` carries the place for messages.
    private static func rings(_ value: JSONValue?, member template: DatasetError, path: String) throws(DatasetError) -> [Coordinates] {
        func bad(_ reason: String) -> DatasetError {
            if case let .invalidGeoJSON(p, f, m, _) = template { return .invalidGeoJSON(path: p, feature: f, member: m, reason: reason) }
            return template
        }
        guard case .array(let ringValues)? = value, !ringValues.isEmpty else {
            throw bad("a polygon needs an array of rings, the exterior first")
        }
        var rings: [Coordinates] = []
        for ringValue in ringValues {
            guard case .array(let positions) = ringValue, positions.count >= 4 else {
                throw bad("each ring needs at least 4 positions, the last equal to the first")
            }
            var ring = Coordinates(x: [], y: [])
            for position in positions {
                guard case .array(let pair) = position, pair.count >= 2,
                      case .number(let xText) = pair[0], case .number(let yText) = pair[1],
                      let x = Double(xText), let y = Double(yText), x.isFinite, y.isFinite else {
                    throw bad("each position must be [longitude, latitude] with finite numbers")
                }
                ring.x.append(x)
                ring.y.append(y)
            }
            rings.append(ring)
        }
        return rings
    }
}
