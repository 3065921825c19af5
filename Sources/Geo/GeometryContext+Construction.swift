import CGeoLibraries

extension GeometryContext {
    /// A single point.
    /// - Throws: `.nonFiniteCoordinate` (index 0) for NaN or infinite input, `.geos` if
    ///   GEOS fails.
    public func point(x: Double, y: Double) throws(GeoError) -> Geometry {
        try Validation.finite([x], [y])
        clearMessages()
        // GEOSGeom_createPointFromXY_r: a new Point, NULL on exception.
        return try adopt(GEOS.GEOSGeom_createPointFromXY_r(handle, x, y), "GEOSGeom_createPointFromXY_r")
    }

    /// A MultiPoint with one member per input point, duplicates kept.
    ///
    /// Empty input gives an empty MultiPoint (`MULTIPOINT EMPTY`).
    /// - Throws: `.countMismatch`, `.nonFiniteCoordinate` naming the first bad index, or
    ///   `.geos`.
    /// - Complexity: O(n) GEOS allocations.
    public func multiPoint(x: [Double], y: [Double]) throws(GeoError) -> Geometry {
        try Validation.sameCount(x, "x", y, "y")
        try Validation.finite(x, y)
        let n = try cCount(x.count, "GEOSGeom_createCollection_r")
        clearMessages()
        var members: [OpaquePointer?] = []
        members.reserveCapacity(x.count)
        for i in x.indices {
            // GEOSGeom_createPointFromXY_r: a new Point, NULL on exception.
            guard let point = GEOS.GEOSGeom_createPointFromXY_r(handle, x[i], y[i]) else {
                let error = failure("GEOSGeom_createPointFromXY_r")
                // Not yet handed to GEOS: still ours to free. (destroy returns void)
                for case let made? in members { GEOS.GEOSGeom_destroy_r(handle, made) }
                throw error
            }
            members.append(point)
        }
        // GEOSGeom_createCollection_r: a new collection, NULL on exception. It takes
        // ownership of the members (not of the array holding them) even when it fails, so
        // they must not be freed here afterwards.
        let collection = members.withUnsafeMutableBufferPointer { buffer in
            GEOS.GEOSGeom_createCollection_r(handle, Int32(GEOS_MULTIPOINT.rawValue), buffer.baseAddress, n)
        }
        return try adopt(collection, "GEOSGeom_createCollection_r(MultiPoint)")
    }

    /// A LineString through the points in order (at least 2 points, or 0 for an empty one).
    /// - Throws: `.countMismatch`, `.nonFiniteCoordinate`, or `.geos` (e.g. for 1 point).
    public func lineString(x: [Double], y: [Double]) throws(GeoError) -> Geometry {
        let sequence = try coordinateSequence(x: x, y: y, operation: "lineString")
        // GEOSGeom_createLineString_r: a new LineString, NULL on exception; takes
        // ownership of the sequence in both cases.
        return try adopt(GEOS.GEOSGeom_createLineString_r(handle, sequence), "GEOSGeom_createLineString_r")
    }

    /// A polygon from an exterior ring and optional holes.
    ///
    /// Rings are closed for you when the last vertex differs from the first. Orientation
    /// does not matter (GEOS accepts both), and the result is not checked for validity
    /// (self-intersections): area and predicates of an invalid polygon are undefined.
    ///
    /// - Parameters:
    ///   - exterior: the shell; at least 3 distinct vertices.
    ///   - holes: interior rings, each inside the shell.
    /// - Throws: `.countMismatch`, `.nonFiniteCoordinate`, `.emptyInput` for an empty shell,
    ///   `.invalidParameter` for a ring with fewer than 4 vertices once closed, `.geos` when
    ///   GEOS rejects a ring.
    /// - Complexity: O(total vertices).
    public func polygon(exterior: Coordinates, holes: [Coordinates] = []) throws(GeoError) -> Geometry {
        try adopt(try rawPolygon(exterior: exterior, holes: holes), "GEOSGeom_createPolygon_r")
    }

    /// A MultiPolygon of `polygons`, each its exterior ring followed by its holes (as
    /// ``Geometry/polygons()`` gives them); no validity check beyond each ring's.
    /// - Throws: the errors of ``polygon(exterior:holes:)``, `.emptyInput` for a polygon
    ///   without rings.
    /// - Complexity: O(total vertices).
    public func multiPolygon(_ polygons: [[Coordinates]]) throws(GeoError) -> Geometry {
        var parts: [OpaquePointer?] = []
        for rings in polygons {
            do throws(GeoError) {
                guard let shell = rings.first else { throw GeoError.emptyInput(operation: "multiPolygon(_:)") }
                parts.append(try rawPolygon(exterior: shell, holes: Array(rings.dropFirst())))
            } catch {
                for case let made? in parts { GEOS.GEOSGeom_destroy_r(handle, made) }
                throw error
            }
        }
        return try collection(parts, GEOS_MULTIPOLYGON, "MultiPolygon")
    }

    /// A MultiLineString of `lines` (each at least 2 points).
    /// - Throws: the errors of ``lineString(x:y:)``.
    /// - Complexity: O(total vertices).
    public func multiLineString(_ lines: [Coordinates]) throws(GeoError) -> Geometry {
        var parts: [OpaquePointer?] = []
        for line in lines {
            do throws(GeoError) {
                let sequence = try coordinateSequence(x: line.x, y: line.y, operation: "line string")
                // GEOSGeom_createLineString_r: a new LineString, NULL on exception; takes
                // ownership of the sequence in both cases.
                guard let made = GEOS.GEOSGeom_createLineString_r(handle, sequence) else {
                    throw failure("GEOSGeom_createLineString_r")
                }
                parts.append(made)
            } catch {
                for case let made? in parts { GEOS.GEOSGeom_destroy_r(handle, made) }
                throw error
            }
        }
        return try collection(parts, GEOS_MULTILINESTRING, "MultiLineString")
    }

    /// A collection of `type` owning `parts` (which it takes over, even when it fails).
    private func collection(_ parts: [OpaquePointer?], _ type: GEOSGeomTypes, _ name: String) throws(GeoError) -> Geometry {
        var parts = parts
        let n = try cCount(parts.count, "GEOSGeom_createCollection_r")
        clearMessages()
        // GEOSGeom_createCollection_r: a new collection, NULL on exception; it owns the
        // members (not the array) even when it fails.
        let made = parts.withUnsafeMutableBufferPointer { buffer in
            GEOS.GEOSGeom_createCollection_r(handle, Int32(type.rawValue), buffer.baseAddress, n)
        }
        return try adopt(made, "GEOSGeom_createCollection_r(\(name))")
    }

    /// A new Polygon (owned by the caller) from its rings.
    private func rawPolygon(exterior: Coordinates, holes: [Coordinates]) throws(GeoError) -> OpaquePointer {
        guard exterior.count > 0 else { throw .emptyInput(operation: "polygon(exterior:holes:)") }
        let n = try cCount(holes.count, "GEOSGeom_createPolygon_r")
        let shell = try linearRing(exterior)
        var rings: [OpaquePointer?] = []
        for hole in holes {
            do {
                rings.append(try linearRing(hole))
            } catch {
                // Not yet handed to GEOS: still ours to free. (destroy returns void)
                GEOS.GEOSGeom_destroy_r(handle, shell)
                for case let made? in rings { GEOS.GEOSGeom_destroy_r(handle, made) }
                throw error
            }
        }
        clearMessages()
        // GEOSGeom_createPolygon_r: a new Polygon, NULL on exception. It takes ownership of
        // the shell and holes (not of the array) even when it fails (GEOS ticket #1111).
        let polygon = rings.withUnsafeMutableBufferPointer { buffer in
            GEOS.GEOSGeom_createPolygon_r(handle, shell, buffer.baseAddress, n)
        }
        guard let polygon else { throw failure("GEOSGeom_createPolygon_r") }
        return polygon
    }

    /// A new LinearRing (owned by the caller) from `ring`, closed if needed.
    private func linearRing(_ ring: Coordinates) throws(GeoError) -> OpaquePointer {
        var (x, y) = (ring.x, ring.y)
        try Validation.sameCount(x, "ring x", y, "ring y")
        if let x0 = x.first, let y0 = y.first, let xn = x.last, let yn = y.last, x0 != xn || y0 != yn {
            x.append(x0)
            y.append(y0)
        }
        // GEOS 3.11 builds 3-vertex rings without complaint, but they enclose no area and
        // make every later predicate meaningless; reject them here.
        guard x.count >= 4 else {
            throw .invalidParameter(name: "ring vertex count (closed)", value: Double(x.count),
                                    expected: "at least 4, i.e. 3 distinct vertices")
        }
        let sequence = try coordinateSequence(x: x, y: y, operation: "linear ring")
        // GEOSGeom_createLinearRing_r: a new LinearRing, NULL on exception (e.g. fewer than
        // 4 points); takes ownership of the sequence in both cases.
        guard let made = GEOS.GEOSGeom_createLinearRing_r(handle, sequence) else {
            throw failure("GEOSGeom_createLinearRing_r")
        }
        return made
    }

    /// A new coordinate sequence (owned by the caller until handed to a constructor).
    private func coordinateSequence(x: [Double], y: [Double], operation: String) throws(GeoError) -> OpaquePointer {
        try Validation.sameCount(x, "x", y, "y")
        try Validation.finite(x, y)
        let n = try cCount(x.count, operation)
        clearMessages()
        // GEOSCoordSeq_copyFromArrays_r (GEOS >= 3.10): a new 2D sequence copied from the
        // arrays, NULL on exception. z and m are NULL: no third or fourth ordinate.
        let sequence = x.withUnsafeBufferPointer { xb in
            y.withUnsafeBufferPointer { yb in
                GEOS.GEOSCoordSeq_copyFromArrays_r(handle, xb.baseAddress, yb.baseAddress, nil, nil, n)
            }
        }
        guard let sequence else { throw failure("GEOSCoordSeq_copyFromArrays_r(\(operation))") }
        return sequence
    }
}
