import Geo

extension ClusterHull {
    /// Writes `hulls` as a GeoJSON FeatureCollection (``GeoJSONWriter``: one feature per line,
    /// written whole or not at all), one feature per hull in the order given. The geometry is
    /// the hull in longitude/latitude (``GeoJSONGeometry``: exterior rings counterclockwise;
    /// cut at ±180° into a MultiPolygon when it crosses the antimeridian), with the feature's
    /// `bbox` (west > east when it crosses, RFC 7946 §5.2);
    /// the properties are `label`, `points`, `outlined_points` (the points the hull was drawn
    /// around), `area_m2` (geodesic, m², 1 decimal) and `centroid_lon`, `centroid_lat`
    /// (degrees, 6 decimals).
    /// - Throws: `GeoError` reading a hull's coordinates (a hull that is not a Point,
    ///   LineString, Polygon or MultiPolygon); `DatasetError` writing the file. Either way no
    ///   file is left behind.
    /// - Complexity: O(total hull vertices).
    public static func writeGeoJSON(_ hulls: [ClusterHull], to path: String) throws {
        var out = try GeoJSONWriter(path: path)
        for hull in hulls {
            out.beginFeature(try GeoJSONGeometry(hull.geographic),
                             bbox: (hull.west, hull.south, hull.east, hull.north))
            out.property("label", Int(hull.label))
            out.property("points", hull.points)
            out.property("outlined_points", hull.outlinedPoints)
            out.property("area_m2", hull.area, decimals: 1)
            out.property("centroid_lon", hull.centroidLongitude, decimals: 6)
            out.property("centroid_lat", hull.centroidLatitude, decimals: 6)
            try out.endFeature()
        }
        try out.commit()
    }
}
