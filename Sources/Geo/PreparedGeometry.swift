import CGeoLibraries

/// A geometry indexed for many point-in-polygon tests (`GEOSPrepare_r`).
///
/// Preparing builds a spatial index of the geometry's edges once, so each later test costs
/// about O(log v) in the number of vertices v instead of O(v).
///
/// Boundary convention: ``contains(x:y:)`` is OGC *contains* — a point exactly on the
/// boundary (an edge or vertex) is **not** inside; ``covers(x:y:)`` is OGC *covers* — a
/// boundary point **is** inside. For random real-valued points the two agree except on a
/// set of measure zero; use `covers` when points may sit on vertices, e.g. testing that a
/// hull encloses the points it was built from.
///
/// GEOS 3.11 has no `GEOSPreparedContainsXY_r` (added in 3.12), so each test builds a
/// transient GEOS point, asks the prepared predicate, and frees the point before the next.
///
/// Owns one `GEOSPreparedGeometry*` and keeps its base ``Geometry`` (and through it the
/// context) alive, because the prepared geometry points into the base.
/// Not `Sendable`, like its base.
public final class PreparedGeometry {
    /// The geometry that was prepared.
    public let base: Geometry
    private let pointer: OpaquePointer

    /// Prepares `base`.
    /// - Throws: `.geos` if GEOS cannot prepare it.
    public init(_ base: Geometry) throws(GeoError) {
        base.context.clearMessages()
        // GEOSPrepare_r: a new prepared geometry referencing (not copying) `base`, NULL on
        // exception.
        guard let prepared = GEOS.GEOSPrepare_r(base.context.handle, base.pointer) else {
            throw base.context.failure("GEOSPrepare_r")
        }
        self.base = base
        self.pointer = prepared
    }

    deinit {
        // Must run before the base geometry is destroyed, which the stored `base`
        // guarantees (it is released only after this deinit). Returns void.
        GEOS.GEOSPreparedGeom_destroy_r(base.context.handle, pointer)
    }

    /// For each point, whether it lies in the interior of the geometry (boundary excluded).
    /// - Parameters:
    ///   - x: planar x coordinates, in the geometry's units.
    ///   - y: planar y coordinates; same count as `x`.
    /// - Returns: one flag per point, in input order.
    /// - Throws: `.countMismatch`, `.nonFiniteCoordinate` naming the first bad index, `.geos`.
    /// - Complexity: O(n log v) for n points and v vertices.
    public func contains(x: [Double], y: [Double]) throws(GeoError) -> [Bool] {
        // GEOSPreparedContains_r: 1 true, 0 false, 2 exception.
        try test(x, y, "GEOSPreparedContains_r") { GEOS.GEOSPreparedContains_r($0, $1, $2) }
    }

    /// For each point, whether it lies in the interior or on the boundary of the geometry.
    /// - Parameters:
    ///   - x: planar x coordinates, in the geometry's units.
    ///   - y: planar y coordinates; same count as `x`.
    /// - Returns: one flag per point, in input order.
    /// - Throws: `.countMismatch`, `.nonFiniteCoordinate` naming the first bad index, `.geos`.
    /// - Complexity: O(n log v) for n points and v vertices.
    public func covers(x: [Double], y: [Double]) throws(GeoError) -> [Bool] {
        // GEOSPreparedCovers_r: 1 true, 0 false, 2 exception.
        try test(x, y, "GEOSPreparedCovers_r") { GEOS.GEOSPreparedCovers_r($0, $1, $2) }
    }

    /// Whether one point lies in the interior (boundary excluded); the single-point form
    /// of the array `contains(x:y:)`, with the same units and errors.
    public func contains(x: Double, y: Double) throws(GeoError) -> Bool {
        try contains(x: [x], y: [y])[0]
    }

    /// Whether one point lies in the interior or on the boundary; the single-point form
    /// of the array `covers(x:y:)`, with the same units and errors.
    public func covers(x: Double, y: Double) throws(GeoError) -> Bool {
        try covers(x: [x], y: [y])[0]
    }

    private func test(
        _ x: [Double], _ y: [Double], _ name: String,
        _ predicate: (GEOSContextHandle_t, OpaquePointer, OpaquePointer) -> CChar
    ) throws(GeoError) -> [Bool] {
        try Validation.sameCount(x, "x", y, "y")
        try Validation.finite(x, y)
        let context = base.context
        let h = context.handle
        context.clearMessages()
        var result = [Bool](repeating: false, count: x.count)
        for i in x.indices {
            // GEOSGeom_createPointFromXY_r: a new Point, NULL on exception. It lives only
            // for this iteration (destroyed by the defer, GEOSGeom_destroy_r returns void):
            // wrapping each probe in a Geometry object would double the allocations.
            guard let probe = GEOS.GEOSGeom_createPointFromXY_r(h, x[i], y[i]) else {
                throw context.failure("GEOSGeom_createPointFromXY_r")
            }
            defer { GEOS.GEOSGeom_destroy_r(h, probe) }
            result[i] = try context.predicate(predicate(h, pointer, probe), "\(name) at index \(i)")
        }
        return result
    }
}

extension Geometry {
    /// This geometry prepared for many point tests; see ``PreparedGeometry``.
    public func prepared() throws(GeoError) -> PreparedGeometry {
        try PreparedGeometry(self)
    }

    /// For each point, whether it lies in this geometry's interior (boundary excluded).
    /// Prepares the geometry once per call; keep a ``PreparedGeometry`` to test many batches.
    /// - Complexity: O(v log v + n log v) for v vertices and n points.
    public func contains(x: [Double], y: [Double]) throws(GeoError) -> [Bool] {
        try prepared().contains(x: x, y: y)
    }

    /// For each point, whether it lies in this geometry's interior or on its boundary.
    /// Prepares the geometry once per call; keep a ``PreparedGeometry`` to test many batches.
    /// - Complexity: O(v log v + n log v) for v vertices and n points.
    public func covers(x: [Double], y: [Double]) throws(GeoError) -> [Bool] {
        try prepared().covers(x: x, y: y)
    }
}

// Explicitly not Sendable: it is used through its base geometry's single-threaded context.
@available(*, unavailable, message: "a PreparedGeometry must stay on its context's thread")
extension PreparedGeometry: Sendable {}
