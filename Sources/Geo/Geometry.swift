import CGeoLibraries

/// The kind of a ``Geometry``, in the OGC Simple Features / GeoJSON vocabulary.
public enum GeometryType: String, Sendable, CustomStringConvertible {
    case point = "Point"
    case lineString = "LineString"
    /// A closed LineString; appears only as a polygon ring or from WKT `LINEARRING`.
    case linearRing = "LinearRing"
    case polygon = "Polygon"
    case multiPoint = "MultiPoint"
    case multiLineString = "MultiLineString"
    case multiPolygon = "MultiPolygon"
    case geometryCollection = "GeometryCollection"

    /// Maps `GEOSGeomTypeId_r`'s `enum GEOSGeomTypes` value; nil for unknown ids.
    init?(geosTypeId id: Int32) {
        switch id {
        case Int32(GEOS_POINT.rawValue): self = .point
        case Int32(GEOS_LINESTRING.rawValue): self = .lineString
        case Int32(GEOS_LINEARRING.rawValue): self = .linearRing
        case Int32(GEOS_POLYGON.rawValue): self = .polygon
        case Int32(GEOS_MULTIPOINT.rawValue): self = .multiPoint
        case Int32(GEOS_MULTILINESTRING.rawValue): self = .multiLineString
        case Int32(GEOS_MULTIPOLYGON.rawValue): self = .multiPolygon
        case Int32(GEOS_GEOMETRYCOLLECTION.rawValue): self = .geometryCollection
        default: return nil
        }
    }

    public var description: String { rawValue }
}

/// A sequence of planar vertices as two parallel arrays (struct of arrays, like the rest
/// of the project): vertex `i` is `(x[i], y[i])`. Units are those of the geometry: metres
/// after projection, degrees for GeoJSON in EPSG:4326.
public struct Coordinates: Equatable, Sendable {
    public var x: [Double]
    public var y: [Double]

    public init(x: [Double], y: [Double]) {
        self.x = x
        self.y = y
    }

    /// The number of vertices.
    public var count: Int { x.count }
}

/// An immutable planar geometry owned by GEOS: a point set, a hull, a polygon read from WKT
/// or GeoJSON.
///
/// Owns one `GEOSGeometry*` and destroys it in `deinit`. It keeps a strong reference to the
/// ``GeometryContext`` that made it, so the context outlives it; like its context it must be
/// used from one thread at a time and is deliberately not `Sendable`.
///
/// Coordinates are planar (x, y): GEOS computes areas and centroids with Euclidean
/// formulas, so project lon/lat to metres with ``Projection`` first if you want square
/// metres. Only 2D is kept; Z values from WKT or GeoJSON are dropped on output.
///
/// `type`, `isEmpty` and `numPoints` are read once at construction (the geometry never
/// changes), so they are plain properties; everything that calls into GEOS afterwards throws.
public final class Geometry {
    /// The context that made this geometry and whose handle every call on it uses.
    public let context: GeometryContext
    /// The owned GEOS geometry; valid until deinit.
    let pointer: OpaquePointer

    /// The geometry's kind.
    public let type: GeometryType
    /// True when the geometry has no points (e.g. `POLYGON EMPTY`).
    public let isEmpty: Bool
    /// The number of vertices over all components, counting a ring's closing vertex
    /// (a unit square polygon has 5).
    public let numPoints: Int

    /// Takes ownership of `pointer`, a non-NULL geometry created with `context`'s handle.
    /// On a throw the pointer is destroyed, so the caller never has to clean up.
    init(owning pointer: OpaquePointer, context: GeometryContext) throws(GeoError) {
        let h = context.handle
        // GEOSGeomTypeId_r: -1 on exception. GEOSisEmpty_r: 1 true, 0 false, 2 exception.
        // GEOSGetNumCoordinates_r: -1 on exception.
        let typeId = GEOS.GEOSGeomTypeId_r(h, pointer)
        let empty = GEOS.GEOSisEmpty_r(h, pointer)
        let count = GEOS.GEOSGetNumCoordinates_r(h, pointer)
        guard let type = GeometryType(geosTypeId: typeId), empty == 0 || empty == 1, count >= 0 else {
            let error = context.failure("inspecting a new geometry (type id \(typeId))")
            GEOS.GEOSGeom_destroy_r(h, pointer)
            throw error
        }
        self.context = context
        self.pointer = pointer
        self.type = type
        self.isEmpty = empty == 1
        self.numPoints = Int(count)
    }

    deinit {
        // GEOSGeom_destroy_r returns void.
        GEOS.GEOSGeom_destroy_r(context.handle, pointer)
    }

    // MARK: - Measures

    /// The area in squared coordinate units (m² for projected input); 0 for points, lines
    /// and empty geometries. Holes are subtracted.
    /// - Complexity: O(numPoints).
    public var area: Double {
        get throws(GeoError) {
            var value = 0.0
            context.clearMessages()
            // GEOSArea_r: 1 on success, 0 on exception.
            guard GEOS.GEOSArea_r(context.handle, pointer, &value) == 1 else { throw context.failure("GEOSArea_r") }
            return value
        }
    }

    /// The centre of mass, in coordinate units; nil for an empty geometry.
    ///
    /// For a polygon this is the area centroid (which may lie outside a non-convex
    /// polygon); for lines the length-weighted centroid; for points their mean.
    /// - Complexity: O(numPoints).
    public var centroid: (x: Double, y: Double)? {
        get throws(GeoError) {
            let h = context.handle
            context.clearMessages()
            // GEOSGetCentroid_r: a new Point (POINT EMPTY for empty input), NULL on exception.
            let point = try context.adopt(GEOS.GEOSGetCentroid_r(h, pointer), "GEOSGetCentroid_r")
            if point.isEmpty { return nil }
            var (x, y) = (0.0, 0.0)
            // GEOSGeomGetX_r / GEOSGeomGetY_r: 1 on success, 0 on exception.
            guard GEOS.GEOSGeomGetX_r(h, point.pointer, &x) == 1, GEOS.GEOSGeomGetY_r(h, point.pointer, &y) == 1 else {
                throw context.failure("reading the centroid")
            }
            return (x, y)
        }
    }

    // MARK: - Coordinates

    /// Every vertex of every component, in GEOS's storage order (polygons: exterior ring
    /// then holes, each ring with its closing vertex).
    /// - Complexity: O(numPoints).
    public func vertices() throws(GeoError) -> Coordinates {
        var out = Coordinates(x: [], y: [])
        out.x.reserveCapacity(numPoints)
        out.y.reserveCapacity(numPoints)
        try appendVertices(of: pointer, to: &out)
        return out
    }

    /// The rings of each polygon: for a Polygon one element, for a MultiPolygon one per
    /// polygon; each element is the exterior ring followed by its holes, every ring closed
    /// (first vertex repeated at the end). An empty polygon gives `[]`.
    /// - Throws: `.unsupportedGeometry` for non-polygonal geometries.
    /// - Complexity: O(numPoints).
    public func polygons() throws(GeoError) -> [[Coordinates]] {
        switch type {
        case .polygon:
            return isEmpty ? [] : [try rings(ofPolygon: pointer)]
        case .multiPolygon:
            return try components(of: pointer).map { (part) throws(GeoError) in try rings(ofPolygon: part) }
        default:
            throw .unsupportedGeometry(operation: "polygons()", type: type, expected: "a Polygon or MultiPolygon")
        }
    }

    /// The polygons of any geometry: a Polygon's or MultiPolygon's as ``polygons()`` gives
    /// them, a GeometryCollection's polygonal members; points and lines contribute nothing.
    /// - Complexity: O(numPoints).
    func polygonalParts() throws(GeoError) -> [[Coordinates]] {
        switch type {
        case .polygon, .multiPolygon: return try polygons()
        case .geometryCollection:
            var out: [[Coordinates]] = []
            for part in try components(of: pointer) {
                // GEOSGeomTypeId_r: -1 on exception, which maps to nil below.
                switch GeometryType(geosTypeId: GEOS.GEOSGeomTypeId_r(context.handle, part)) {
                case .polygon?: out.append(try rings(ofPolygon: part))
                case .multiPolygon?:
                    for p in try components(of: part) { out.append(try rings(ofPolygon: p)) }
                case nil: throw context.failure("GEOSGeomTypeId_r")
                default: continue
                }
            }
            return out
        default: return []
        }
    }

    /// The line strings of any geometry: a LineString itself, a MultiLineString's or a
    /// collection's line strings; everything else contributes nothing.
    /// - Complexity: O(numPoints).
    public func lines() throws(GeoError) -> [Coordinates] {
        switch type {
        case .lineString: return [try coordinates(ofSimple: pointer)]
        case .multiLineString, .geometryCollection:
            var out: [Coordinates] = []
            for part in try components(of: pointer)
            where GeometryType(geosTypeId: GEOS.GEOSGeomTypeId_r(context.handle, part)) == .lineString {
                out.append(try coordinates(ofSimple: part))
            }
            return out
        default: return []
        }
    }

    /// The part of this geometry inside `other` (GEOS's overlay).
    /// - Complexity: O((n + m) log(n + m)) in the two geometries' vertices.
    func intersection(_ other: Geometry) throws(GeoError) -> Geometry {
        context.clearMessages()
        // GEOSIntersection_r: a new geometry, NULL on exception.
        return try context.adopt(GEOS.GEOSIntersection_r(context.handle, pointer, other.pointer), "GEOSIntersection_r")
    }

    /// The components of a collection (borrowed pointers, owned by `collection`).
    private func components(of collection: OpaquePointer) throws(GeoError) -> [OpaquePointer] {
        let h = context.handle
        // GEOSGetNumGeometries_r: -1 on exception (1 for non-collections).
        let n = GEOS.GEOSGetNumGeometries_r(h, collection)
        guard n >= 0 else { throw context.failure("GEOSGetNumGeometries_r") }
        var parts: [OpaquePointer] = []
        for i in 0..<n {
            // GEOSGetGeometryN_r: a pointer owned by the collection, NULL on exception.
            guard let part = GEOS.GEOSGetGeometryN_r(h, collection, i) else { throw context.failure("GEOSGetGeometryN_r") }
            parts.append(part)
        }
        return parts
    }

    private func rings(ofPolygon polygon: OpaquePointer) throws(GeoError) -> [Coordinates] {
        let h = context.handle
        // GEOSGetExteriorRing_r: a ring owned by the polygon, NULL on exception.
        guard let shell = GEOS.GEOSGetExteriorRing_r(h, polygon) else { throw context.failure("GEOSGetExteriorRing_r") }
        // GEOSGetNumInteriorRings_r: -1 on exception.
        let holes = GEOS.GEOSGetNumInteriorRings_r(h, polygon)
        guard holes >= 0 else { throw context.failure("GEOSGetNumInteriorRings_r") }
        var result = [try coordinates(ofSimple: shell)]
        for i in 0..<holes {
            // GEOSGetInteriorRingN_r: a ring owned by the polygon, NULL on exception.
            guard let hole = GEOS.GEOSGetInteriorRingN_r(h, polygon, i) else { throw context.failure("GEOSGetInteriorRingN_r") }
            result.append(try coordinates(ofSimple: hole))
        }
        return result
    }

    private func appendVertices(of geometry: OpaquePointer, to out: inout Coordinates) throws(GeoError) {
        let h = context.handle
        // GEOSGeomTypeId_r: -1 on exception, which maps to nil below.
        switch GeometryType(geosTypeId: GEOS.GEOSGeomTypeId_r(h, geometry)) {
        case .point?, .lineString?, .linearRing?:
            let part = try coordinates(ofSimple: geometry)
            out.x += part.x
            out.y += part.y
        case .polygon?:
            // An empty polygon has an empty exterior ring, which contributes nothing.
            for ring in try rings(ofPolygon: geometry) {
                out.x += ring.x
                out.y += ring.y
            }
        case .multiPoint?, .multiLineString?, .multiPolygon?, .geometryCollection?:
            for part in try components(of: geometry) { try appendVertices(of: part, to: &out) }
        case nil:
            throw context.failure("GEOSGeomTypeId_r")
        }
    }

    /// Copies the coordinate sequence of a Point, LineString or LinearRing.
    private func coordinates(ofSimple geometry: OpaquePointer) throws(GeoError) -> Coordinates {
        let h = context.handle
        // GEOSGeom_getCoordSeq_r: the geometry's own sequence (do not free), NULL on
        // exception (e.g. not a Point/LineString).
        guard let sequence = GEOS.GEOSGeom_getCoordSeq_r(h, geometry) else { throw context.failure("GEOSGeom_getCoordSeq_r") }
        var size: UInt32 = 0
        // GEOSCoordSeq_getSize_r: 1 on success, 0 on exception.
        guard GEOS.GEOSCoordSeq_getSize_r(h, sequence, &size) == 1 else { throw context.failure("GEOSCoordSeq_getSize_r") }
        var x = [Double](repeating: 0, count: Int(size))
        var y = x
        guard size > 0 else { return Coordinates(x: x, y: y) }
        // GEOSCoordSeq_copyToArrays_r: 1 on success, 0 on exception; z and m not wanted.
        let copied = x.withUnsafeMutableBufferPointer { xb in
            y.withUnsafeMutableBufferPointer { yb in
                GEOS.GEOSCoordSeq_copyToArrays_r(h, sequence, xb.baseAddress, yb.baseAddress, nil, nil)
            }
        }
        guard copied == 1 else { throw context.failure("GEOSCoordSeq_copyToArrays_r") }
        return Coordinates(x: x, y: y)
    }
}

// Explicitly not Sendable: a geometry is used through its context's single-threaded handle.
@available(*, unavailable, message: "a Geometry must stay on its context's thread")
extension Geometry: Sendable {}
