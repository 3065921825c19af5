/// Which coordinate columns a table's points come from.
public enum CoordinateKind: String, Sendable, CaseIterable {
    /// Planar `x`,`y` columns (metres in some projected CRS).
    case xy
    /// Geographic `lat`,`lon` columns (degrees, WGS 84), to be projected.
    case lonlat
}

/// Coordinates read from a table, in row order, with the kind they are.
public struct TableCoordinates: Sendable, Equatable {
    public var kind: CoordinateKind
    /// `x` (easting) for `.xy`, longitude (degrees) for `.lonlat`.
    public var xOrLongitude: [Double]
    /// `y` (northing) for `.xy`, latitude (degrees) for `.lonlat`.
    public var yOrLatitude: [Double]
}

extension CSVTable {
    /// Column names accepted for each coordinate, in order of preference.
    public static let latitudeNames = ReadOptions.latitudeNames
    public static let longitudeNames = ReadOptions.longitudeNames

    /// Finds and parses the coordinate columns (by `options`' names or the usual ones; see
    /// ``ResolvedColumns/resolve(header:path:prefer:options:)``). With `prefer` nil, `x`,`y`
    /// win when both kinds are present (they need no projection); otherwise the named kind is
    /// required. Latitudes must lie in [-90, 90] and longitudes in [-180, 180].
    /// - Throws: `DatasetError` naming the file, line and column of the first bad value, or
    ///   listing the header when no usable columns exist.
    public func coordinates(prefer: CoordinateKind? = nil, options: ReadOptions = ReadOptions()) throws(DatasetError) -> TableCoordinates {
        let resolved = try ResolvedColumns.resolve(header: header, path: path, prefer: prefer, options: options)
        let kind = resolved.kind
        // Row by row, each row's two fields in header order, each value range-checked as soon
        // as it is parsed, so the error names the first bad value in file order, the same one
        // PointFile reports. (Parsing a whole column at a time reported, for example, a bad
        // longitude on line 9 before an out-of-range latitude on line 2.)
        let (firstCol, secondCol) = (resolved.first, resolved.second)
        let inFileOrder = firstCol < secondCol ? [firstCol, secondCol] : [secondCol, firstCol]
        var first = [Double](), second = [Double]()
        first.reserveCapacity(rows.count)
        second.reserveCapacity(rows.count)
        for r in rows.indices {
            for c in inFileOrder {
                let v = try double(row: r, column: c, decimalComma: options.decimalComma)
                if kind == .lonlat {
                    if c == secondCol && abs(v) > 90 {
                        throw .outOfRange(path: path, line: lines[r], column: header[c], value: v, limit: DatasetError.latitudeLimit(v))
                    }
                    if c == firstCol && abs(v) > 180 {
                        throw .outOfRange(path: path, line: lines[r], column: header[c], value: v, limit: DatasetError.longitudeLimit(v))
                    }
                }
                if c == firstCol { first.append(v) } else { second.append(v) }
            }
        }
        return TableCoordinates(kind: kind, xOrLongitude: first, yOrLatitude: second)
    }

    /// The `id` column's values, or the 0-based row numbers when there is none.
    public func ids() -> [String] {
        if let c = column(named: ReadOptions.idNames) { return rows.map { $0[c] } }
        return (0..<rows.count).map(String.init)
    }
}
