import ListingVocabulary

/// Listings with their attributes, for the map-pin commands (`pins`, `nearby`, `map --zoom`):
/// longitude/latitude, id, category, area, deposit, monthly rent and a location key (a
/// building id), column by column.
///
/// CSV input: columns by name as ``PointFile`` finds them (``ReadOptions``: the user's
/// `--lat-column`, `--lon-column`, `--id-column` and `--delimiter`, else `lat`/`latitude`/위도,
/// `lon`/`lng`/`long`/`longitude`/경도 (required) and `id`/`fid`), optional `category`,
/// `area_m2`/`area`, `deposit`, `monthly_rent`/`rent` and the location column. GeoJSON input
/// (`.geojson`, `.json`): Point features, attributes as properties of the same names. An
/// attribute column that is absent, or an empty field, is a missing value (nil / NaN); a field
/// that is present but not a finite number, or a category outside ``ListingCategory``, is an
/// error naming its line (feature). Without an id column ids are the 0-based row numbers.
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
    /// The attribute columns the file has (for GeoJSON: properties some feature has).
    public var attributes: Set<ListingAttribute> = []
    /// The user's own columns read (`PropertySelection`), numbers where every value given is
    /// one, else texts; an empty field (a null property) is a missing value.
    public var properties = ListingProperties()

    /// The number of listings.
    public var count: Int { ids.count }

    /// Reads a listing file.
    /// - Parameters:
    ///   - locationColumn: the column (property) holding each listing's location key; when
    ///     `required` is false and the file lacks it, listings have no location key.
    ///   - options: the column names and separator (`latitude`, `longitude`, `id`,
    ///     `delimiter`; the others are not used).
    ///   - filter: the attribute filter the caller will query with: the file must have a
    ///     column for each attribute it tests.
    ///   - properties: the user's own columns to read as `properties`.
    /// - Throws: `DatasetError` naming the file, line and column of the first bad value;
    ///   `.missingColumns` without latitude/longitude, a named column, or a required location
    ///   column; `.missingFilterColumn` naming the filter's option when its column is absent.
    /// - Complexity: O(file size).
    public static func read(path: String, locationColumn: String?, required: Bool, options: ReadOptions = ReadOptions(),
                            filter: AttributeFilter? = nil, properties: PropertySelection = .none) throws(DatasetError) -> ListingFile {
        var v = Reader(path: path, locationName: locationColumn, required: required, options: options, filter: filter,
                       selection: properties)
        if try InputFile.isGeoJSON(path) {
            try v.readGeoJSON()
            try v.checkFilterColumns()
        } else {
            try CSVStreamParser.parse(path: path, delimiter: options.delimiter, encoding: options.encoding,
                                      decimalComma: options.decimalComma, into: &v)
            guard !v.header.isEmpty else { throw .empty(path: path) }
        }
        guard v.file.count > 0 else { throw .headerOnly(path: path) }
        try v.finishProperties()
        return v.file
    }

    /// Category spellings, in `ListingCategory.allCases` order.
    private static let categoryBytes = ListingCategory.allCases.map { [Array($0.rawValue.utf8)] }

    fileprivate enum Role: UInt8 {
        case skip, lon, lat, id, category, area, deposit, rent, location, property

        /// The listing attribute the column holds, if it holds one.
        var attribute: ListingAttribute? {
            switch self {
            case .category: .category
            case .area: .area
            case .deposit: .deposit
            case .rent: .monthlyRent
            default: nil
            }
        }
    }

    fileprivate struct Reader: CSVVisitor {
        let path: String
        let locationName: String?
        let required: Bool
        let options: ReadOptions
        let filter: AttributeFilter?
        let selection: PropertySelection
        var header: [String] = []
        var roles: [Role] = []
        /// For each column with the `.property` role, its slot in `propertyNames`.
        var propertySlot: [Int] = []
        var propertyNames: [String] = []
        /// The user's own columns' texts, by slot; nil: an empty field (missing).
        var propertyTexts: [[String?]] = []
        /// The current row's texts, by slot.
        var rowTexts: [String?] = []
        var file: ListingFile
        var hasID = false
        // The current row's values.
        var lon = 0.0, lat = 0.0, id = "", category: ListingCategory? = nil
        var area = Double.nan, deposit = Double.nan, rent = Double.nan, location = ""

        init(path: String, locationName: String?, required: Bool, options: ReadOptions, filter: AttributeFilter?,
             selection: PropertySelection) {
            self.selection = selection
            self.path = path
            self.locationName = locationName
            self.required = required
            self.options = options
            self.filter = filter
            file = ListingFile(path: path, ids: [], longitudes: [], latitudes: [], categories: [], areas: [],
                               deposits: [], rents: [], locations: nil, locationColumn: nil)
        }

        private func value(_ bytes: UnsafeBufferPointer<UInt8>, column: String, line: Int) throws(DatasetError) -> Double {
            guard let v = parseDouble(bytes, decimalComma: options.decimalComma) else {
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
                    throw .outOfRange(path: path, line: line, column: column, value: lon, limit: DatasetError.longitudeLimit(lon))
                }
            case .lat:
                lat = try value(bytes, column: column, line: line)
                guard abs(lat) <= 90 else {
                    throw .outOfRange(path: path, line: line, column: column, value: lat, limit: DatasetError.latitudeLimit(lat))
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
            case .property:
                return  // `field` keeps the text, by column
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
            for slot in rowTexts.indices {
                propertyTexts[slot].append(rowTexts[slot])
                rowTexts[slot] = nil
            }
            category = nil; area = .nan; deposit = .nan; rent = .nan; location = ""
        }

        /// Gives the user's own columns the `.property` role: those `selection` names (each
        /// must exist), or with `.all` every column no other role took but projected
        /// coordinates (`x`, `y`, or the `--x-column`/`--y-column` names): a position column is
        /// never carried unless named.
        mutating func assignProperties(columns: [String]) throws(DatasetError) {
            propertySlot = [Int](repeating: -1, count: roles.count)
            let positions = Set([options.x ?? "x", options.y ?? "y"].map { $0.lowercased() })
            let chosen: [Int]
            switch selection {
            case .none: chosen = []
            case .all: chosen = roles.indices.filter { roles[$0] == .skip && !positions.contains(columns[$0].trimmingWhitespace().lowercased()) }
            case .named(let names):
                chosen = try names.map { (name) throws(DatasetError) -> Int in
                    guard let c = columns.firstIndex(of: name) else {
                        throw .missingColumns(path: path, wanted: "'\(name)' (named by --properties)", found: columns)
                    }
                    guard roles[c] == .skip || roles[c] == .property else {
                        throw .invalidOption(option: "--properties", value: name,
                                             reason: "\(path): '\(name)' is read already (coordinates, id, location or a listing attribute); name another column")
                    }
                    return c
                }
            }
            for c in chosen where propertySlot[c] < 0 {
                roles[c] = .property
                propertySlot[c] = propertyNames.count
                propertyNames.append(columns[c])
            }
            propertyTexts = Array(repeating: [], count: propertyNames.count)
            rowTexts = Array(repeating: nil, count: propertyNames.count)
        }

        /// Types the user's own columns: numbers where every value given parses as one (with
        /// the file's decimal mark) and none is written with a leading zero (`02134`, a postcode
        /// or a phone number, stays text), else texts.
        mutating func finishProperties() throws(DatasetError) {
            for (slot, name) in propertyNames.enumerated() {
                let texts = propertyTexts[slot]
                propertyTexts[slot] = []
                var numbers: [Double?] = []
                numbers.reserveCapacity(texts.count)
                for text in texts {
                    guard let text else { numbers.append(nil); continue }
                    let bytes = Array(text.utf8), digits = bytes.drop { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+") }
                    let leadingZero = digits.count > 1 && digits.first == UInt8(ascii: "0")
                        && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digits[digits.startIndex + 1])
                    guard !leadingZero, let v = bytes.withUnsafeBufferPointer({ parseDouble($0, decimalComma: options.decimalComma) }),
                          v.isFinite else { numbers = []; break }
                    numbers.append(v)
                }
                do throws(InvalidValue) {
                    if numbers.count == texts.count && texts.contains(where: { $0 != nil }) {
                        try file.properties.add(name, numbers: numbers)
                    } else {
                        try file.properties.add(name, texts: texts)
                    }
                } catch {
                    throw .invalidOption(option: "--properties", value: name, reason: "\(path): \(error)")
                }
            }
        }

        /// Gives each column its role, from the header.
        private mutating func assignRoles() throws(DatasetError) {
            let t = CSVTable(path: path, header: header, rows: [], lines: [])
            let c = try ResolvedColumns.resolve(header: header, path: path, prefer: .lonlat, options: options)
            let (lonCol, latCol) = (c.first, c.second)
            roles = [Role](repeating: .skip, count: header.count)
            func attach(_ names: [String], _ role: Role, _ attribute: ListingAttribute) {
                guard let c = t.column(named: names) else { return }
                roles[c] = role
                file.attributes.insert(attribute)
            }
            attach(ListingFilter.categoryNames, .category, .category)
            attach(ListingFilter.areaNames, .area, .area)
            attach(ListingFilter.depositNames, .deposit, .deposit)
            attach(ListingFilter.rentNames, .rent, .monthlyRent)
            try checkFilterColumns()
            var locationCol: Int?
            if let name = locationName {
                if let c = t.column(named: [name]) {
                    locationCol = c
                } else if required {
                    throw .missingColumns(path: path, wanted: "the location column '\(name)' (--location-column)", found: header)
                }
            }
            if let idCol = c.id {
                let other: String? = idCol == lonCol ? "the longitude column" : idCol == latCol ? "the latitude column"
                    : idCol == locationCol ? "the location column (\(required ? "--location-column" : "building_id"))" : nil
                if let other, options.id != nil {
                    throw .invalidOption(option: "--id-column", value: options.id!,
                                         reason: "\(path): '\(header[idCol])' is \(other); name a column that holds each listing's id")
                }
                if other == nil { roles[idCol] = .id }
            }
            hasID = roles.contains(.id)
            if let locationCol {
                roles[locationCol] = .location
                file.locationColumn = header[locationCol]
                file.locations = []
            }
            roles[lonCol] = .lon; roles[latCol] = .lat
            try assignProperties(columns: header)
        }

        /// Refuses a filter on an attribute the file has no column for, naming the filter's
        /// option and the columns the file has.
        func checkFilterColumns() throws(DatasetError) {
            guard let filter else { return }
            let wanted: [(ListingAttribute, Bool, [String])] = [
                (.category, filter.categories != nil, ListingFilter.categoryNames),
                (.area, filter.area != nil, ListingFilter.areaNames),
                (.deposit, filter.deposit != nil, ListingFilter.depositNames),
                (.monthlyRent, filter.monthlyRent != nil, ListingFilter.rentNames),
            ]
            for (attribute, tested, names) in wanted where tested && !file.attributes.contains(attribute) {
                throw .missingFilterColumn(path: path, option: attribute.option, wanted: names.joined(separator: "/"), found: header)
            }
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
            if roles[index] == .property {
                rowTexts[propertySlot[index]] = bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
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
                for slot in rowTexts.indices { rowTexts[slot] = nil }
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
            try GeoJSON.forEachPoint(path: path, encoding: options.encoding) { (p) throws(DatasetError) in
                if first {
                    header = ["lon", "lat"] + p.properties.map(\.key)
                    first = false
                    try startGeoJSONProperties(p.properties.map(\.key))
                }
                for (slot, name) in propertyNames.enumerated() {
                    guard let m = p.properties.first(where: { $0.key == name }) else { continue }
                    switch m.value {
                    case .null: rowTexts[slot] = nil
                    case .number(let t), .string(let t): rowTexts[slot] = t
                    case .bool(let b): rowTexts[slot] = b ? "true" : "false"
                    default:
                        throw DatasetError.invalidGeoJSON(path: path, feature: p.index, member: "properties.\(name)",
                                                          reason: "is \(m.value.kindDescription), not a number, text or true/false")
                    }
                }
                lon = p.lon; lat = p.lat
                hasID = true
                let idNames = options.id.map { [$0] } ?? ReadOptions.idNames
                var idValue = idNames.lazy.compactMap { name in p.properties.first(where: { $0.key == name })?.value }.first
                if idValue == nil, let given = options.id {
                    throw DatasetError.invalidGeoJSON(path: path, feature: p.index, member: "properties.\(given)",
                                                      reason: "is missing; --id-column names it, so every feature needs it")
                }
                idValue = idValue ?? p.id
                id = idValue.map(GeoJSON.fieldText) ?? String(p.index)
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
                    if let attribute = role.attribute { file.attributes.insert(attribute) }
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

extension ListingFile.Reader {
    /// The roles of a GeoJSON file's properties, from its first feature's, for the user's own
    /// columns: every property but the id, the location and the listing attributes.
    mutating func startGeoJSONProperties(_ keys: [String]) throws(DatasetError) {
        let taken = Set(ListingFilter.categoryNames + ListingFilter.areaNames + ListingFilter.depositNames + ListingFilter.rentNames
                        + (options.id.map { [$0] } ?? ReadOptions.idNames) + (locationName.map { [$0] } ?? []))
        roles = keys.map { taken.contains($0) ? .id : .skip }
        try assignProperties(columns: keys)
        roles = []
    }
}

/// Which of the user's own columns a listing file's reader keeps (`--properties`).
public enum PropertySelection: Sendable, Equatable {
    /// None.
    case none
    /// Every column that holds nothing else (coordinates, id, location, listing attributes).
    case all
    /// These columns, in this order.
    case named([String])
}

/// A listing attribute a file may lack: each has its columns and the filter option that tests it.
public enum ListingAttribute: String, Sendable, Hashable, CaseIterable {
    case category, area, deposit, monthlyRent

    /// The command-line filter on the attribute.
    public var option: String {
        switch self {
        case .category: "--category"
        case .area: "--area"
        case .deposit: "--deposit"
        case .monthlyRent: "--rent"
        }
    }
}
