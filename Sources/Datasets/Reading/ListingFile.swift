import Pins

/// Listings with their attributes, for the map-pin commands (`pins`, `nearby`, `map --zoom`):
/// longitude/latitude, id, category, area, deposit, monthly rent and a location key (a
/// building id), column by column.
///
/// CSV input: columns by name as ``PointFile`` finds them: `lat`/`latitude` and
/// `lon`/`lng`/`longitude` (required), optional `id`, `category`, `area_m2`/`area`,
/// `deposit`, `monthly_rent`/`rent` and the location column. GeoJSON input (`.geojson`,
/// `.json`): Point features, attributes as properties of the same names. An attribute column
/// that is absent, or an empty field, is a missing value (nil / NaN); a field that is present
/// but not a finite number, or a category outside ``ListingCategory``, is an error naming its
/// line (feature). Without an `id` column ids are the 0-based row numbers.
public struct ListingFile: Sendable {
    /// The path read, as given.
    public var path: String
    /// Each listing's id text.
    public var ids: [String]
    /// True positions in degrees.
    public var longitudes: [Double]
    public var latitudes: [Double]
    /// Category, nil when absent.
    public var categories: [ListingCategory?]
    /// Floor area (m²), deposit and monthly rent (10,000 KRW); NaN when absent.
    public var areas: [Double]
    public var deposits: [Double]
    public var rents: [Double]
    /// The location column's text per listing; nil when no location column was used.
    public var locations: [String]?
    /// The location column used, if any.
    public var locationColumn: String?
    /// Each listing's line in the file (1-based; for GeoJSON, the line its feature starts on),
    /// for messages that name a listing's line.
    public var lines: [Int32] = []

    /// The number of listings.
    public var count: Int { ids.count }

    /// Reads a listing file.
    /// - Parameters:
    ///   - locationColumn: the column (property) holding each listing's location key; when
    ///     `required` is false and the file lacks it, listings have no location key.
    /// - Throws: `DatasetError` naming the file, line and column of the first bad value;
    ///   `.missingColumns` without latitude/longitude or a required location column.
    /// - Complexity: O(file size).
    public static func read(path: String, locationColumn: String?, required: Bool) throws(DatasetError) -> ListingFile {
        var v = Reader(path: path, locationName: locationColumn, required: required)
        if GeoJSON.isGeoJSONPath(path) {
            try v.readGeoJSON()
        } else {
            _ = try CSVStreamParser.parse(path: path, into: &v)
            guard !v.header.isEmpty else { throw .empty(path: path) }
        }
        guard v.file.count > 0 else { throw .headerOnly(path: path) }
        return v.file
    }

    /// Category spellings, in `ListingCategory.allCases` order.
    private static let categoryBytes = ListingCategory.allCases.map { [Array($0.rawValue.utf8)] }

    private enum Role: UInt8 { case skip, lon, lat, id, category, area, deposit, rent, location }

    private struct Reader: CSVVisitor {
        let path: String
        let locationName: String?
        let required: Bool
        var header: [String] = []
        var roles: [Role] = []
        var file: ListingFile
        var hasID = false
        // The current row's values.
        var lon = 0.0, lat = 0.0, id = "", category: ListingCategory? = nil
        var area = Double.nan, deposit = Double.nan, rent = Double.nan, location = ""

        init(path: String, locationName: String?, required: Bool) {
            self.path = path
            self.locationName = locationName
            self.required = required
            file = ListingFile(path: path, ids: [], longitudes: [], latitudes: [], categories: [], areas: [],
                               deposits: [], rents: [], locations: nil, locationColumn: nil)
        }

        private func value(_ bytes: UnsafeBufferPointer<UInt8>, column: String, line: Int) throws(DatasetError) -> Double {
            guard let v = parseDouble(bytes) else {
                throw .invalidNumber(path: path, line: line, column: column, text: String(decoding: bytes, as: UTF8.self))
            }
            guard v.isFinite else {
                throw .nonFinite(path: path, line: line, column: column, text: String(decoding: bytes, as: UTF8.self))
            }
            return v
        }

        /// Parses field bytes into the current row's value for `role`.
        private mutating func take(_ role: Role, _ bytes: UnsafeBufferPointer<UInt8>, column: String, line: Int) throws(DatasetError) {
            switch role {
            case .skip:
                return
            case .lon:
                lon = try value(bytes, column: column, line: line)
                guard abs(lon) <= 180 else {
                    throw .outOfRange(path: path, line: line, column: column, value: lon, limit: "longitude must be within ±180")
                }
            case .lat:
                lat = try value(bytes, column: column, line: line)
                guard abs(lat) <= 90 else {
                    throw .outOfRange(path: path, line: line, column: column, value: lat, limit: "latitude must be within ±90")
                }
            case .id:
                id = String(decoding: bytes, as: UTF8.self)
            case .category:
                guard !bytes.allSatisfy({ $0 == 0x20 }) else { category = nil; return }
                guard let k = ListingFile.categoryBytes.firstIndex(where: { ListingFilter.categoryMatches(bytes, $0) }) else {
                    throw .invalidOption(option: "\(path) line \(line) column \(column)", value: String(decoding: bytes, as: UTF8.self),
                                         reason: "not a category; categories are \(ListingCategory.names)")
                }
                category = ListingCategory.allCases[k]
            case .area:
                area = bytes.isEmpty ? .nan : try value(bytes, column: column, line: line)
            case .deposit:
                deposit = bytes.isEmpty ? .nan : try value(bytes, column: column, line: line)
            case .rent:
                rent = bytes.isEmpty ? .nan : try value(bytes, column: column, line: line)
            case .location:
                location = String(decoding: bytes, as: UTF8.self)
            }
        }

        /// Appends the current row and resets its optional values.
        private mutating func endRow(line: Int) {
            file.lines.append(Int32(clamping: line))
            file.ids.append(hasID ? id : String(file.ids.count))
            file.longitudes.append(lon); file.latitudes.append(lat)
            file.categories.append(category)
            file.areas.append(area); file.deposits.append(deposit); file.rents.append(rent)
            if file.locationColumn != nil { file.locations!.append(location) }
            category = nil; area = .nan; deposit = .nan; rent = .nan; location = ""
        }

        /// Gives each column its role, from the header.
        private mutating func assignRoles() throws(DatasetError) {
            let t = CSVTable(path: path, header: header, rows: [], lines: [])
            guard let lonCol = t.column(named: CSVTable.longitudeNames), let latCol = t.column(named: CSVTable.latitudeNames) else {
                throw .missingColumns(path: path, wanted: "lat/latitude and lon/lng/longitude", found: header)
            }
            roles = [Role](repeating: .skip, count: header.count)
            func attach(_ names: [String], _ role: Role) { if let c = t.column(named: names) { roles[c] = role } }
            attach(ListingFilter.categoryNames, .category)
            attach(ListingFilter.areaNames, .area)
            attach(ListingFilter.depositNames, .deposit)
            attach(ListingFilter.rentNames, .rent)
            attach(["id"], .id)
            hasID = roles.contains(.id)
            if let name = locationName {
                if let c = t.column(named: [name]) {
                    roles[c] = .location
                    file.locationColumn = header[c]
                    file.locations = []
                } else if required {
                    throw .missingColumns(path: path, wanted: "the location column '\(name)' (--location-column)", found: header)
                }
            }
            roles[lonCol] = .lon; roles[latCol] = .lat
        }

        mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
            if roles.isEmpty { header.append(String(decoding: bytes, as: UTF8.self)); return }
            guard index < roles.count else { return }   // a ragged row; endRecord reports it
            // An empty coordinate is an error only in a row that holds something: rows that are
            // entirely empty (`;;;`, as spreadsheet exports leave at the end) are skipped.
            if bytes.isEmpty && (roles[index] == .lon || roles[index] == .lat) {
                if emptyCoordinate == nil { emptyCoordinate = header[index] }
                return
            }
            try take(roles[index], bytes, column: header[index], line: line)
        }

        /// The first coordinate column left empty in the current row.
        var emptyCoordinate: String?

        mutating func endRecord(line: Int, fieldCount: Int, hasData: Bool) throws(DatasetError) {
            if roles.isEmpty { try assignRoles(); return }
            let empty = emptyCoordinate
            emptyCoordinate = nil
            guard hasData else {
                category = nil; area = .nan; deposit = .nan; rent = .nan; location = ""
                return
            }
            guard fieldCount == header.count else {
                throw .raggedRow(path: path, line: line, expected: header.count, found: fieldCount)
            }
            if let column = empty { throw .invalidNumber(path: path, line: line, column: column, text: "") }
            endRow(line: line)
        }

        /// Reads Point features; properties play the role of columns.
        mutating func readGeoJSON() throws(DatasetError) {
            var first = true
            try GeoJSON.forEachPoint(path: path) { (p) throws(DatasetError) in
                if first {
                    header = ["lon", "lat"] + p.properties.map(\.key)
                    first = false
                }
                lon = p.lon; lat = p.lat
                hasID = true
                id = (p.properties.first(where: { $0.key == "id" })?.value ?? p.id).map(GeoJSON.fieldText) ?? String(p.index)
                let names: [(names: [String], role: Role)] = [
                    (ListingFilter.categoryNames, .category), (ListingFilter.areaNames, .area),
                    (ListingFilter.depositNames, .deposit), (ListingFilter.rentNames, .rent),
                ] + (locationName.map { [([$0], .location)] } ?? [])
                for (candidates, role) in names {
                    guard let m = p.properties.first(where: { candidates.contains($0.key) }) else {
                        if role == .location && required {
                            throw DatasetError.invalidGeoJSON(path: path, feature: p.index, member: "properties.\(candidates[0])",
                                                              reason: "is missing; --location-column needs it in every feature")
                        }
                        continue
                    }
                    if role == .location && file.locationColumn == nil { file.locationColumn = m.key; file.locations = [] }
                    let text: String
                    switch m.value {
                    case .null: text = ""
                    case .number(let t), .string(let t): text = t
                    default:
                        throw DatasetError.invalidGeoJSON(path: path, feature: p.index, member: "properties.\(m.key)",
                                                          reason: "is \(m.value.kindDescription), not a number or text")
                    }
                    try Array(text.utf8).withUnsafeBufferPointer { (b) throws(DatasetError) in try take(role, b, column: m.key, line: p.line) }
                }
                if file.locationColumn != nil && file.locations!.count < file.ids.count {
                    throw DatasetError.invalidGeoJSON(path: path, feature: p.index, member: "properties.\(file.locationColumn!)",
                                                      reason: "is missing here but present in earlier features")
                }
                endRow(line: p.line)
            }
        }
    }
}
