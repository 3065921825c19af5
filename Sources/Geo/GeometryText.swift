import CGeoLibraries

extension GeometryContext {
    /// Parses Well-Known Text, e.g. `"POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))"`.
    /// - Throws: `.geos` with GEOS's parse error (e.g. "ParseException: Expected word but
    ///   encountered end of stream").
    /// - Complexity: O(length of text).
    public func geometry(wkt: String) throws(GeoError) -> Geometry {
        let reader = try wktReader()
        clearMessages()
        // GEOSWKTReader_read_r: a new geometry, NULL on exception (parse error).
        return try adopt(GEOS.GEOSWKTReader_read_r(handle, reader, wkt), "reading WKT")
    }

    /// Parses a GeoJSON geometry (GEOS's reader): a bare geometry object such as
    /// `{"type":"Polygon","coordinates":[...]}`; a Feature yields its geometry and a
    /// FeatureCollection a GeometryCollection (properties are ignored).
    /// - Throws: `.geos` with GEOS's parse error.
    /// - Complexity: O(length of text).
    public func geometry(geoJSON: String) throws(GeoError) -> Geometry {
        let reader = try geoJSONReader()
        clearMessages()
        // GEOSGeoJSONReader_readGeometry_r: a new geometry, NULL on exception.
        return try adopt(GEOS.GEOSGeoJSONReader_readGeometry_r(handle, reader, geoJSON), "reading GeoJSON")
    }
}

extension Geometry {
    /// Well-Known Text, 2D, with each coordinate at full (round-trip) precision and no
    /// trailing zeros, e.g. `"POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))"`.
    /// - Complexity: O(numPoints).
    public var wkt: String {
        get throws(GeoError) {
            let writer = try context.wktWriter()
            context.clearMessages()
            // GEOSWKTWriter_write_r: a new C string to free with GEOSFree_r, NULL on exception.
            return try context.takeString(GEOS.GEOSWKTWriter_write_r(context.handle, writer, pointer), "writing WKT")
        }
    }

    /// A compact GeoJSON geometry object (RFC 7946 member names), e.g.
    /// `{"type":"Polygon","coordinates":[[[0.0,0.0],...]]}`. GeoJSON readers assume
    /// longitude/latitude in EPSG:4326: unproject metric geometries first
    /// (``Projection/inverse(_:)``).
    /// - Complexity: O(numPoints).
    public var geoJSON: String {
        get throws(GeoError) {
            let writer = try context.geoJSONWriter()
            context.clearMessages()
            // GEOSGeoJSONWriter_writeGeometry_r: a new C string to free with GEOSFree_r,
            // NULL on exception; indent -1 means no line breaks.
            return try context.takeString(
                GEOS.GEOSGeoJSONWriter_writeGeometry_r(context.handle, writer, pointer, -1), "writing GeoJSON")
        }
    }
}
