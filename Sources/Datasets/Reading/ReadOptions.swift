/// How a point file is read: which columns hold the coordinates and the ids, how fields are
/// separated, and what a malformed row does. The defaults find the usual names and stop at
/// the first bad row.
public struct ReadOptions: Sendable, Equatable {
    /// Column names given by the user (`--lat-column` …); nil: found by the usual names.
    public var latitude: String?
    public var longitude: String?
    public var x: String?
    public var y: String?
    public var id: String?
    /// The column (GeoJSON property) of each row's sample weight (`--weight-column`); nil: no
    /// weights are read.
    public var weight: String?
    /// Columns (GeoJSON properties) read as each row's features (`--features`), in order;
    /// one naming a coordinate column stands for that coordinate (`PointFile.features`).
    public var features: [String] = []
    /// The field separator (`,`, `;` or tab); nil: detected from the header line.
    public var delimiter: UInt8?
    /// A malformed row (bad number, out-of-range coordinate, wrong field count) is skipped and
    /// counted instead of ending the read.
    public var skipBadRows: Bool
    /// Threads that read a CSV file (its parts, split at line ends); nil: one per processor.
    /// The result is the same for any number.
    public var threads: Int?
    /// The file's encoding: UTF-8 is checked (a file that is not is an error naming the line
    /// and the encoding it looks like), the others are converted to UTF-8 before parsing.
    public var encoding: TextEncoding
    /// Numbers may have a decimal comma (`37,5`), as semicolon-separated exports from
    /// spreadsheets in many locales write them; `37.5` is still read. The separator must then
    /// not be a comma.
    public var decimalComma: Bool

    public init(latitude: String? = nil, longitude: String? = nil, x: String? = nil, y: String? = nil,
                id: String? = nil, delimiter: UInt8? = nil, skipBadRows: Bool = false, threads: Int? = nil,
                encoding: TextEncoding = .utf8, decimalComma: Bool = false, weight: String? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.x = x; self.y = y; self.id = id
        self.weight = weight
        self.delimiter = delimiter; self.skipBadRows = skipBadRows; self.threads = threads
        self.encoding = encoding; self.decimalComma = decimalComma
    }

    /// Refuses a comma separator with ``decimalComma`` (`37,5` would be two fields).
    /// - Throws: `.invalidOption` naming both options.
    public func checkSeparator(_ delimiter: UInt8, path: String) throws(DatasetError) {
        try Self.checkSeparator(delimiter, decimalComma: decimalComma, path: path)
    }

    static func checkSeparator(_ delimiter: UInt8, decimalComma: Bool, path: String) throws(DatasetError) {
        guard decimalComma && delimiter == UInt8(ascii: ",") else { return }
        throw .invalidOption(option: "--decimal-comma", value: path,
                             reason: "the file's fields are separated by commas (--delimiter comma, given or detected), so a decimal comma cannot be told from a separator; use a semicolon- or tab-separated file, or drop --decimal-comma")
    }

    /// Names tried for each column when none is given, in order of preference (compared
    /// trimmed and case-insensitively). Korean exports name them 위도 (latitude) and 경도
    /// (longitude); QGIS writes its feature id as `fid`.
    public static let latitudeNames = ["lat", "latitude", "위도"]
    public static let longitudeNames = ["lon", "lng", "long", "longitude", "경도"]
    public static let idNames = ["id", "fid"]

    /// The kind of coordinates the user's column options ask for: `.lonlat` when only
    /// latitude/longitude columns are named, `.xy` when only x/y ones are, else nil.
    public var namedKind: CoordinateKind? {
        let lonlat = latitude != nil || longitude != nil, xy = x != nil || y != nil
        return lonlat == xy ? nil : (lonlat ? .lonlat : .xy)
    }
}

/// The columns of a CSV header that a point file's reader uses.
public struct ResolvedColumns: Sendable, Equatable {
    public var kind: CoordinateKind
    /// x or longitude, y or latitude.
    public var first: Int
    public var second: Int
    /// Latitude and longitude, when the header has both (filters need them even for x,y).
    public var latitude: Int?
    public var longitude: Int?
    public var id: Int?

    /// Finds the columns in `header` by the user's names or the usual ones. A named column
    /// that is missing is an error naming its option; `prefer` (or the kind the named columns
    /// imply) picks between x,y and latitude/longitude when both exist, else x,y win.
    /// - Throws: `.missingColumns` naming the file, the option and the header.
    public static func resolve(
        header: [String], path: String, prefer: CoordinateKind?, options: ReadOptions
    ) throws(DatasetError) -> ResolvedColumns {
        let names = header.map { $0.trimmingWhitespace().lowercased() }
        func find(_ given: String?, _ usual: [String], _ option: String) throws(DatasetError) -> Int? {
            guard let given else { return usual.lazy.compactMap { names.firstIndex(of: $0) }.first }
            guard let c = names.firstIndex(of: given.trimmingWhitespace().lowercased()) else {
                throw .missingColumns(path: path, wanted: "'\(given)' (\(option))", found: header)
            }
            return c
        }
        let x = try find(options.x, ["x"], "--x-column"), y = try find(options.y, ["y"], "--y-column")
        let lat = try find(options.latitude, ReadOptions.latitudeNames, "--lat-column")
        let lon = try find(options.longitude, ReadOptions.longitudeNames, "--lon-column")
        let id = try find(options.id, ReadOptions.idNames, "--id-column")
        let hasXY = x != nil && y != nil, hasLonLat = lat != nil && lon != nil
        let latNames = "lat/latitude/위도 and lon/lng/long/longitude/경도"
        let kind: CoordinateKind
        switch prefer ?? options.namedKind {
        case .xy?:
            guard hasXY else { throw .missingColumns(path: path, wanted: "x and y (name others with --x-column, --y-column)", found: header) }
            kind = .xy
        case .lonlat?:
            guard hasLonLat else { throw .missingColumns(path: path, wanted: latNames + " (name others with --lat-column, --lon-column)", found: header) }
            kind = .lonlat
        case nil:
            if hasXY { kind = .xy } else if hasLonLat { kind = .lonlat } else {
                throw .missingColumns(path: path, wanted: "coordinate (x,y or lat,lon; name others with --lat-column, --lon-column or --x-column, --y-column)", found: header)
            }
        }
        return ResolvedColumns(kind: kind, first: kind == .xy ? x! : lon!, second: kind == .xy ? y! : lat!,
                               latitude: lat, longitude: lon, id: id)
    }
}
