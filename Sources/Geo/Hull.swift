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
        context.clearMessages()
        // GEOSConcaveHull_r: a new geometry, NULL on exception (e.g. ratio outside [0, 1]).
        return try context.adopt(
            GEOS.GEOSConcaveHull_r(context.handle, pointer, ratio, allowHoles ? 1 : 0), "GEOSConcaveHull_r")
    }
}
