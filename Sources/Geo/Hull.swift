import CGeoLibraries

extension GeometryContext {
    /// The convex hull of a planar point set: the smallest convex geometry containing all
    /// points.
    ///
    /// Degenerate inputs give degenerate hulls, never a crash: one point, or all points
    /// equal, gives a Point; two distinct points, or all points on one line, give the
    /// LineString between the extreme points; otherwise a Polygon.
    ///
    /// - Parameters:
    ///   - x: planar x coordinates (metres after projection).
    ///   - y: planar y coordinates; same count as `x`.
    /// - Throws: `.emptyInput` for zero points (there is no meaningful hull), plus the
    ///   errors of ``multiPoint(x:y:)`` and `.geos`.
    /// - Complexity: O(n log n).
    public func convexHull(x: [Double], y: [Double]) throws(GeoError) -> Geometry {
        guard !x.isEmpty || !y.isEmpty else { throw .emptyInput(operation: "convexHull(x:y:)") }
        return try multiPoint(x: x, y: y).convexHull()
    }

    /// A concave hull of a planar point set: a polygon inside the convex hull that still
    /// contains (covers) every point, following the points' outline more closely.
    ///
    /// Uses GEOS 3.11's `GEOSConcaveHull_r`, which erodes the Delaunay triangulation from
    /// the outside, longest edges first.
    ///
    /// - Parameters:
    ///   - x: planar x coordinates (metres after projection).
    ///   - y: planar y coordinates; same count as `x`.
    ///   - ratio: in [0, 1], the maximum edge length as a fraction of the range between the
    ///     shortest and longest triangulation edge: 1 gives the convex hull, 0 the most
    ///     concave hull. 0.3 is a reasonable outline for clustered listings.
    ///   - allowHoles: whether the hull may have holes where points are sparse inside.
    /// - Returns: a Polygon (or, if erosion splits it, possibly a MultiPolygon). Degenerate
    ///   inputs give the same Point or LineString as ``convexHull(x:y:)``, since no polygon
    ///   has area there.
    /// - Throws: `.emptyInput` for zero points, `.invalidParameter` for a ratio outside
    ///   [0, 1] or NaN, plus the errors of ``multiPoint(x:y:)`` and `.geos`.
    /// - Complexity: O(n log n) for the triangulation and erosion.
    public func concaveHull(
        x: [Double], y: [Double], ratio: Double, allowHoles: Bool = false
    ) throws(GeoError) -> Geometry {
        guard !x.isEmpty || !y.isEmpty else { throw .emptyInput(operation: "concaveHull(x:y:)") }
        return try multiPoint(x: x, y: y).concaveHull(ratio: ratio, allowHoles: allowHoles)
    }
}

extension Geometry {
    /// The convex hull of all vertices of this geometry; see
    /// ``GeometryContext/convexHull(x:y:)`` for degenerate cases. An empty geometry gives
    /// an empty GeometryCollection.
    /// - Complexity: O(n log n) in ``numPoints``.
    public func convexHull() throws(GeoError) -> Geometry {
        context.clearMessages()
        // GEOSConvexHull_r: a new geometry (Point / LineString / Polygon by dimension of
        // the input's extent), NULL on exception.
        return try context.adopt(GEOS.GEOSConvexHull_r(context.handle, pointer), "GEOSConvexHull_r")
    }

    /// A concave hull of all vertices of this geometry; see
    /// ``GeometryContext/concaveHull(x:y:ratio:allowHoles:)`` for `ratio` and degenerate
    /// cases. An empty geometry gives an empty geometry.
    /// - Complexity: O(n log n) in ``numPoints``.
    public func concaveHull(ratio: Double, allowHoles: Bool = false) throws(GeoError) -> Geometry {
        guard ratio >= 0, ratio <= 1 else {
            throw .invalidParameter(name: "concave hull ratio", value: ratio, expected: "in [0, 1]")
        }
        // The triangulation behind the concave hull has no triangles when the points are
        // all equal or collinear; answer those from the convex hull, which is then also
        // the tightest hull, instead of relying on how a GEOS version treats them.
        let convex = try convexHull()
        guard convex.type == .polygon else { return convex }
        // GEOS before 3.11.3 (and 3.12.0) can build a Delaunay triangulation whose boundary is
        // not convex from nearly collinear points, and its concave hull then dereferences a
        // missing triangle (libgeos/geos#946, fixed by #953). There the triangulation is
        // checked first: when its triangles do not cover the convex hull, the convex hull is
        // the answer (still a valid, if looser, outline).
        if GeometryContext.concaveHullNeedsCheck, try !triangulationCoversConvexHull(convex) { return convex }
        context.clearMessages()
        // GEOSConcaveHull_r: a new geometry, NULL on exception (e.g. ratio outside [0, 1]).
        return try context.adopt(
            GEOS.GEOSConcaveHull_r(context.handle, pointer, ratio, allowHoles ? 1 : 0), "GEOSConcaveHull_r")
    }
}

extension Geometry {
    /// Whether the Delaunay triangles of this geometry's vertices cover `convex`, their convex
    /// hull (areas equal to a relative 1e-9): false where a GEOS triangulation lost its convex
    /// boundary.
    func triangulationCoversConvexHull(_ convex: Geometry) throws(GeoError) -> Bool {
        context.clearMessages()
        // GEOSDelaunayTriangulation_r: a new collection of triangles, NULL on exception.
        let triangles = try context.adopt(GEOS.GEOSDelaunayTriangulation_r(context.handle, pointer, 0, 0),
                                          "GEOSDelaunayTriangulation_r")
        let hull = try convex.area
        return abs(try triangles.area - hull) <= 1e-9 * hull
    }

    /// The decimals of a degree every writer rounds coordinates to (1 cm on the ground):
    /// geometry made valid at this precision stays valid as written.
    public static let writtenDecimals = 7

    /// This geometry with every coordinate rounded to `decimals` places (ties away from zero),
    /// as the writers write it; the result may be invalid where rounding merges vertices.
    public func rounded(toDecimals decimals: Int) throws(GeoError) -> Geometry {
        let scale = (0..<max(0, decimals)).reduce(1.0) { s, _ in s * 10 }
        return try mappingVertices { x, y in
            x = (x * scale).rounded() / scale
            y = (y * scale).rounded() / scale
            return nil
        }
    }

    /// This geometry as written (coordinates rounded to `decimals` places) and valid: rounded,
    /// repaired, rounded again until it holds (a repair adds crossing points off the grid);
    /// failing that, or when nothing but a line is left, the convex hull of its rounded
    /// vertices (a polygon, a line or a point, valid as written).
    public func validAsWritten(decimals: Int) throws(GeoError) -> Geometry {
        var g = try rounded(toDecimals: decimals)
        for _ in 0..<3 {
            if try g.isValid && !g.isEmpty { return g }
            g = try g.madeValid().rounded(toDecimals: decimals)
        }
        if try g.isValid && !g.isEmpty { return g }
        let v = try vertices()
        return try context.multiPoint(x: v.x, y: v.y).rounded(toDecimals: decimals).convexHull()
    }

    /// Whether GEOS finds this geometry valid (OGC simple features: no self-intersection, rings
    /// closed, holes inside their shell).
    public var isValid: Bool {
        get throws(GeoError) {
            context.clearMessages()
            // GEOSisValid_r: 1 valid, 0 invalid, 2 on exception.
            let result = GEOS.GEOSisValid_r(context.handle, pointer)
            guard result != 2 else { throw context.failure("GEOSisValid_r") }
            return result == 1
        }
    }

    /// This geometry, or when it is not valid, GEOS's repair of it that keeps its structure
    /// (`GEOSMakeValid` with the "structure" method, collapsed parts dropped): a polygon
    /// crossing itself becomes the polygons its rings enclose. A polygon that encloses nothing
    /// (all its vertices on one line) becomes its convex hull, a line.
    public func madeValid() throws(GeoError) -> Geometry {
        guard try !isValid else { return self }
        let h = context.handle
        context.clearMessages()
        guard let params = GEOS.GEOSMakeValidParams_create_r(h) else { throw context.failure("GEOSMakeValidParams_create_r") }
        defer { GEOS.GEOSMakeValidParams_destroy_r(h, params) }
        // Both setters: 1 on success, 0 on exception.
        guard GEOS.GEOSMakeValidParams_setMethod_r(h, params, GEOS_MAKE_VALID_STRUCTURE) == 1,
              GEOS.GEOSMakeValidParams_setKeepCollapsed_r(h, params, 0) == 1 else {
            throw context.failure("GEOSMakeValidParams")
        }
        // GEOSMakeValidWithParams_r: a new geometry, NULL on exception.
        let repaired = try context.adopt(GEOS.GEOSMakeValidWithParams_r(h, pointer, params), "GEOSMakeValidWithParams_r")
        return try repaired.isEmpty ? convexHull() : repaired
    }
}
