import Geo

extension DatasetError {
    /// `error` located in a file when PROJ failed on one of its points: `.transformFailed`
    /// names the point by its index in the arrays projected, which were `longitudes` and
    /// `latitudes` (one per row, in row order); `line(i)` and `feature(i)` name row i's file
    /// line and GeoJSON feature. Any other error, or an index outside the arrays: nil.
    /// - Complexity: O(1).
    public static func locating(
        _ error: GeoError, path: String, longitudes: [Double], latitudes: [Double], crs: String?, clustering: Bool,
        line: (Int) -> Int, feature: (Int) -> Int?
    ) -> DatasetError? {
        guard case let .transformFailed(index, _, message) = error,
              longitudes.indices.contains(index), latitudes.indices.contains(index) else { return nil }
        return .projectionFailed(path: path, line: line(index), feature: feature(index), latitude: latitudes[index],
                                 longitude: longitudes[index], crs: crs, reason: message, clustering: clustering)
    }
}

extension PointFile {
    /// `error` located on this file's kept rows, whose longitudes and latitudes (in
    /// `coordinates`, `.lonlat`) were projected to `crs`; nil when it is not a PROJ failure
    /// on one of them (see ``DatasetError/locating(_:path:longitudes:latitudes:crs:clustering:line:feature:)``).
    public func locating(_ error: GeoError, crs: String?, clustering: Bool) -> DatasetError? {
        guard coordinates.kind == .lonlat else { return nil }
        return DatasetError.locating(error, path: path, longitudes: coordinates.xOrLongitude, latitudes: coordinates.yOrLatitude,
                                     crs: crs, clustering: clustering, line: { Int(lines[$0]) },
                                     feature: { featureIndices.isEmpty ? nil : Int(featureIndices[$0]) })
    }
}

extension CSVTable {
    /// `error` located on this table's rows, whose `coordinates` (`.lonlat`) were projected
    /// to `crs`; nil when it is not a PROJ failure on one of them.
    public func locating(_ error: GeoError, coordinates: TableCoordinates, crs: String?) -> DatasetError? {
        guard coordinates.kind == .lonlat else { return nil }
        return DatasetError.locating(error, path: path, longitudes: coordinates.xOrLongitude, latitudes: coordinates.yOrLatitude,
                                     crs: crs, clustering: false, line: { lines[$0] }, feature: { _ in nil })
    }
}
