import CGeoLibraries

extension Projection {
    /// The geometry with every vertex projected from lon/lat (degrees) to x/y (metres).
    ///
    /// Vertices are transformed one by one (`GEOSGeom_transformXY_r` calling `proj_trans`);
    /// edges stay straight in the output, so long edges are not densified.
    /// - Throws: `.nonFiniteCoordinate`, `.latitudeOutOfRange`, `.longitudeOutOfRange` or
    ///   `.transformFailed`, with `index` counting vertices in ``Geometry/vertices()`` order;
    ///   `.geos` if GEOS fails.
    /// - Complexity: O(numPoints).
    public func forward(_ geometry: Geometry) throws(GeoError) -> Geometry {
        try transform(geometry, direction: PJ_FWD)
    }

    /// The geometry with every vertex unprojected from x/y (metres) to lon/lat (degrees),
    /// e.g. a hull computed in metres, ready for ``Geometry/geoJSON``.
    /// - Throws: `.nonFiniteCoordinate` or `.transformFailed`, with `index` counting
    ///   vertices in ``Geometry/vertices()`` order; `.geos` if GEOS fails.
    /// - Complexity: O(numPoints).
    public func inverse(_ geometry: Geometry) throws(GeoError) -> Geometry {
        try transform(geometry, direction: PJ_INV)
    }

    private func transform(_ geometry: Geometry, direction: PJ_DIRECTION) throws(GeoError) -> Geometry {
        var index = 0
        return try geometry.mappingVertices { x, y in
            defer { index += 1 }
            return transformInPlace(&x, &y, direction: direction, index: index)
        }
    }

    /// Projects a single coordinate in place for the per-vertex callback; the error, if
    /// any, is returned rather than thrown because it must cross a C frame.
    fileprivate func transformInPlace(
        _ u: inout Double, _ v: inout Double, direction: PJ_DIRECTION, index: Int
    ) -> GeoError? {
        do throws(GeoError) {
            if direction == PJ_FWD {
                try Validation.lonLat([u], [v])
                (u, v) = try forward(lon: u, lat: v)
            } else {
                try Validation.finite([u], [v])
                (u, v) = try inverse(x: u, y: v)
            }
            return nil
        } catch {
            // The single-point calls report index 0; report the vertex instead.
            switch error {
            case .nonFiniteCoordinate: return .nonFiniteCoordinate(index: index)
            case .latitudeOutOfRange(_, let value): return .latitudeOutOfRange(index: index, value: value)
            case .longitudeOutOfRange(_, let value): return .longitudeOutOfRange(index: index, value: value)
            case let .transformFailed(_, code, message): return .transformFailed(index: index, code: code, message: message)
            default: return error
            }
        }
    }
}

extension Geometry {
    /// A copy with every vertex moved by `move`, in ``vertices()`` order; `move` returns the
    /// error that stops the walk, or nil to go on. Edges stay straight (nothing is densified).
    /// - Throws: the first error `move` returned; `.geos` if GEOS fails.
    /// - Complexity: O(numPoints).
    func mappingVertices(_ move: (inout Double, inout Double) -> GeoError?) throws(GeoError) -> Geometry {
        try withoutActuallyEscaping(move) { move throws(GeoError) in
            let state = VertexWalk(move: move)
            context.clearMessages()
            // GEOSGeom_transformXY_r (GEOS >= 3.11): a transformed copy, NULL on exception or
            // when the callback returns 0 (our failure is then recorded in `state`). The
            // callback gets `state` back through userdata; withExtendedLifetime keeps it alive
            // for the duration of the call.
            let result = withExtendedLifetime(state) {
                GEOS.GEOSGeom_transformXY_r(context.handle, pointer, { x, y, userdata in
                    guard let x, let y, let userdata else { return 0 }
                    let state = Unmanaged<VertexWalk>.fromOpaque(userdata).takeUnretainedValue()
                    state.failure = state.move(&x.pointee, &y.pointee)
                    return state.failure == nil ? 1 : 0
                }, Unmanaged.passUnretained(state).toOpaque())
            }
            if let failure = state.failure { throw failure }
            return try context.adopt(result, "GEOSGeom_transformXY_r")
        }
    }
}

/// State of one `GEOSGeom_transformXY_r` call: the move and the failure that stopped it.
private final class VertexWalk {
    let move: (inout Double, inout Double) -> GeoError?
    var failure: GeoError?

    init(move: @escaping (inout Double, inout Double) -> GeoError?) { self.move = move }
}
