import ListingVocabulary

/// The points of a CSV or GeoJSON file, read column by column: coordinates as numbers, ids
/// compactly, and nothing else kept, so a million-row file costs about 30 bytes a row in
/// memory. With a ``ListingFilter`` only the rows that pass are kept; the attribute and
/// latitude/longitude columns the filter needs are parsed (and checked) in every row.
///
/// CSV input: columns found by the names ``ReadOptions`` gives or by the usual ones
/// (``ResolvedColumns/resolve(header:path:prefer:options:)``): `x`,`y` or `lat`/`latitude`/
/// `위도` and `lon`/`lng`/`long`/`longitude`/`경도`, optional `id`/`fid`, and for filters
/// `category`, `area_m2`/`area`, `deposit`, `monthly_rent`/`rent`. Other columns are skipped.
/// Fields are separated by commas, semicolons or tabs (detected from the header). Rows whose
/// fields are all empty (what spreadsheets leave at the end of an export) are skipped; with
/// ``ReadOptions/skipBadRows`` so is every malformed row, counted in ``skippedRows``.
///
/// GeoJSON input (`.geojson` or `.json`): a FeatureCollection of Point features. The
/// coordinates are the geometry's (`.lonlat`), or with `prefer: .xy` the numeric `x` and `y`
/// properties. The id is the `id` property, else the feature's `id` member, else the
/// feature's index; filter attributes are properties of the same names as the CSV columns
/// (numbers or numeric strings). `lines` hold the line on which each feature starts.
///
/// Reading speed: how the CSV path gets it, PointFile+CSV.swift; the figures,
/// docs/performance.md ("Reading"); the DatasetsBenchmarks suite and scripts/bench/reading.py
/// measure it.
public struct PointFile: Sendable {
    /// The path read, as given.
    public var path: String
    /// The CSV header, or for GeoJSON `lon`, `lat` and the property keys in order of first
    /// appearance.
    public var header: [String]
    /// Coordinates of the kept rows in row order (x,y or lon,lat).
    public var coordinates: TableCoordinates
    /// 1-based file line of each kept row.
    public var lines: [Int32]
    /// Whether ids are stored: the file has an `id` column (a GeoJSON file always counts),
    /// or a filter was applied, in which case the kept rows' 0-based row numbers in the file
    /// are stored as their ids. Otherwise `id(i)` is `i`.
    public var hasIDColumn: Bool
    /// The sample weight of each kept row (`ReadOptions.weight`'s column); nil when none was
    /// asked for.
    public var weights: [Double]?
    /// The features of the kept rows (`ReadOptions.features`), when asked for.
    public var features: FeatureColumns?
    /// Number of data rows (features) in the file, kept or not (entirely empty rows aside).
    public var totalRows: Int
    /// The field separator of a CSV file (a comma for GeoJSON).
    public var delimiter: UInt8 = UInt8(ascii: ",")
    /// Malformed rows skipped under ``ReadOptions/skipBadRows``, and the first one's error.
    public var skippedRows = 0
    public var firstSkipped: DatasetError?
    /// Entirely empty rows skipped (`;;;` lines of a spreadsheet export).
    public var emptyRows = 0
    /// For GeoJSON input: the 0-based feature index of each kept row (empty for CSV, whose
    /// rows ``lines`` names).
    public var featureIndices: [Int32] = []
    private var idBytes: [UInt8]
    private var idEnds: [UInt32]

    /// Number of points kept.
    public var count: Int { lines.count }

    /// The id of kept row `i`: the `id` column's text, or the 0-based row number in the file.
    public func id(_ i: Int) -> String {
        guard hasIDColumn else { return String(i) }
        let lo = i == 0 ? 0 : Int(idEnds[i - 1]), hi = Int(idEnds[i])
        return idBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[lo..<hi]), as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of kept row `i`'s id (only with an `id` column).
    public func withIDBytes<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let lo = i == 0 ? 0 : Int(idEnds[i - 1]), hi = Int(idEnds[i])
        return idBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[lo..<hi])) }
    }

    /// Reads a point file, keeping the rows that pass `filter`.
    /// - Parameters:
    ///   - prefer: which coordinate columns to use when both `x,y` and `lat,lon` exist
    ///     (nil: `x,y` for CSV, the geometry for GeoJSON); a kind that is absent is an error.
    ///   - filter: rows to keep (nil or empty: all). Without an `id` column, the ids of the
    ///     kept rows are their row numbers in the file, so filtered output names input rows.
    /// - Throws: `DatasetError` naming the file, line (or feature) and column for every
    ///   malformed input; `.missingFilterColumn` when a filter's column is absent;
    ///   `.noRowsKept` when the filter keeps nothing.
    /// - Complexity: O(file size) time; memory for the kept columns only. A `--within`
    ///   region adds O(k log v) for the k rows that reach it.
    public static func read(
        path: String, prefer: CoordinateKind? = nil, filter: ListingFilter? = nil, options: ReadOptions = ReadOptions()
    ) throws(DatasetError) -> PointFile {
        let active = (filter?.isEmpty ?? true) ? nil : filter
        var builder: Builder
        if try InputFile.isGeoJSON(path) {
            builder = try readGeoJSON(path: path, prefer: prefer, filter: active, options: options)
        } else {
            builder = try readCSV(path: path, prefer: prefer, filter: active, options: options)
        }
        var file = builder.file(path: path)
        if let region = active?.region {
            file = file.keeping(try region.covers(lon: builder.regionLon, lat: builder.regionLat))
            if file.count == 0 && !builder.regionLon.isEmpty {
                let swapped = (try? region.covers(lon: builder.regionLat, lat: builder.regionLon))?.reduce(0) { $0 + ($1 ? 1 : 0) } ?? 0
                if swapped > 0 {
                    throw .regionAxesSwapped(path: path, region: region.path, total: file.totalRows, swappedMatches: swapped)
                }
            }
        }
        if active != nil && file.count == 0 { throw .noRowsKept(path: path, total: file.totalRows) }
        return file
    }

    /// The rows where `mask` is true, in order; `totalRows` is unchanged.
    /// - Precondition: `mask.count == count`.
    /// - Complexity: O(count + id bytes).
    public func keeping(_ mask: [Bool]) -> PointFile {
        precondition(mask.count == count, "one mask entry per row")
        var out = self
        out.coordinates.xOrLongitude = []; out.coordinates.yOrLatitude = []
        out.lines = []; out.idBytes = []; out.idEnds = []; out.featureIndices = []
        if weights != nil { out.weights = [] }
        out.features?.values = []
        let kept = mask.reduce(0) { $0 + ($1 ? 1 : 0) }
        out.coordinates.xOrLongitude.reserveCapacity(kept)
        out.coordinates.yOrLatitude.reserveCapacity(kept)
        out.lines.reserveCapacity(kept)
        for i in 0..<count where mask[i] {
            out.coordinates.xOrLongitude.append(coordinates.xOrLongitude[i])
            out.coordinates.yOrLatitude.append(coordinates.yOrLatitude[i])
            out.lines.append(lines[i])
            if !featureIndices.isEmpty { out.featureIndices.append(featureIndices[i]) }
            if let weights { out.weights!.append(weights[i]) }
            if let features { out.features!.append(row: i, of: features) }
            if hasIDColumn {
                withIDBytes(i) { out.idBytes.append(contentsOf: $0) }
                out.idEnds.append(UInt32(out.idBytes.count))
            }
        }
        return out
    }

    // MARK: - Building

    /// The kept rows as they accumulate, shared by the CSV and GeoJSON readers.
    struct Builder {
        var header: [String] = []
        var kind: CoordinateKind = .xy
        var hasID = false
        var xOrLongitude: [Double] = [], yOrLatitude: [Double] = []
        var lines: [Int32] = []
        var idBytes: [UInt8] = [], idEnds: [UInt32] = []
        /// Latitude/longitude of the kept rows, only when a region test follows.
        var regionLon: [Double] = [], regionLat: [Double] = []
        /// Rows seen, kept or not.
        var total = 0
        var delimiter = UInt8(ascii: ",")
        var skipped = 0, empty = 0
        var firstSkipped: DatasetError?
        var featureIndices: [Int32] = []
        /// The 0-based row numbers of the kept rows, when they are the ids (CSV without an id
        /// column, read with a filter or skipping bad rows); written out as id text by `file`.
        var rowNumbers: [Int] = []
        /// Whether a weight column is read, and the kept rows' weights.
        var hasWeights = false
        var weights: [Double] = []
        /// The features read (nil: none asked for), the kept rows' values row after row.
        var features: FeatureColumns?

        func file(path: String) -> PointFile {
            var idBytes = idBytes, idEnds = idEnds
            if !rowNumbers.isEmpty {
                idEnds.reserveCapacity(rowNumbers.count)
                for r in rowNumbers {
                    PointFile.appendDecimal(r, to: &idBytes)
                    idEnds.append(UInt32(idBytes.count))
                }
            }
            return PointFile(path: path, header: header,
                      coordinates: TableCoordinates(kind: kind, xOrLongitude: xOrLongitude, yOrLatitude: yOrLatitude),
                      lines: lines, hasIDColumn: hasID, weights: hasWeights ? weights : nil, features: features,
                      totalRows: total, delimiter: delimiter,
                      skippedRows: skipped, firstSkipped: firstSkipped, emptyRows: empty, featureIndices: featureIndices,
                      idBytes: idBytes, idEnds: idEnds)
        }
    }

    /// Appends the decimal digits of `n` ≥ 0 (no String on the way).
    static func appendDecimal(_ n: Int, to bytes: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { d in
            var v = n, k = d.count
            repeat {
                k -= 1
                d[k] = UInt8(truncatingIfNeeded: 0x30 + v % 10)
                v /= 10
            } while v > 0
            bytes.append(contentsOf: d[k...])
        }
    }

    /// Per-row values the filter looks at.
    struct RowValues {
        var categoryOK = true
        /// Whether the row meets the filter's conditions on the user's own columns (`--where`).
        var conditionsOK = true
        var area = 0.0, deposit = 0.0, rent = 0.0
        var lon = 0.0, lat = 0.0
        var weight = 1.0
        /// The row's features that are columns of their own (`FeatureColumns.Source.column`).
        var features: [Double] = []
    }

    /// Whether a row passes the filter's attribute and bounding-box conditions (the region
    /// is tested afterwards, over all such rows at once).
    @inline(__always)
    static func passes(_ r: RowValues, _ f: ListingFilter) -> Bool {
        guard r.categoryOK, r.conditionsOK, f.attributes.numbersPass(area: r.area, deposit: r.deposit, monthlyRent: r.rent) else { return false }
        if let box = f.bbox, !box.contains(longitude: r.lon, latitude: r.lat) { return false }
        return true
    }

    // MARK: - GeoJSON

    private static func readGeoJSON(
        path: String, prefer: CoordinateKind?, filter: ListingFilter?, options: ReadOptions
    ) throws(DatasetError) -> Builder {
        var b = Builder()
        b.kind = prefer ?? (options.namedKind == .xy ? .xy : .lonlat)
        let xName = options.x ?? "x", yName = options.y ?? "y"
        let featureSources = try geoJSONFeatureSources(options.features, kind: b.kind, x: xName, y: yName, path: path)
        if let featureSources { b.features = FeatureColumns(names: options.features, sources: featureSources) }
        let idNames = options.id.map { [$0] } ?? ReadOptions.idNames
        var keys: [String] = [], seen = Set<String>()
        let names = filter?.categoryBytes ?? []
        // A bad feature (geometry, coordinates, or a property this read needs), as a bad CSV
        // row: the end of the read, or under skipBadRows counted and left out.
        func skip(_ error: DatasetError) {
            b.total += 1
            b.skipped += 1
            if b.firstSkipped == nil { b.firstSkipped = error }
        }
        try GeoJSON.forEachPoint(path: path, encoding: options.encoding, badFeature: options.skipBadRows ? skip : nil) { (p) throws(DatasetError) in
            do throws(DatasetError) {
                func bad(_ key: String, _ reason: String) -> DatasetError {
                    .invalidGeoJSON(path: path, feature: p.index, member: "properties.\(key)", reason: reason)
                }
                func property(_ candidates: [String], _ option: String) throws(DatasetError) -> JSONValue {
                    for name in candidates {
                        if let v = p.properties.first(where: { $0.key == name })?.value { return v }
                    }
                    throw bad(candidates[0], "is missing; \(option) needs it in every feature")
                }
                func number(_ candidates: [String], _ option: String) throws(DatasetError) -> Double {
                    let v = try property(candidates, option)
                    let text: String
                    switch v {
                    case .number(let t), .string(let t): text = t
                    default: throw bad(candidates[0], "is \(v.kindDescription), not a number")
                    }
                    var t = text
                    guard let d = t.withUTF8({ parseDouble($0, decimalComma: options.decimalComma) }), d.isFinite else {
                        throw bad(candidates[0], "'\(text)' is not a finite number")
                    }
                    return d
                }
                for m in p.properties where !seen.contains(m.key) { seen.insert(m.key); keys.append(m.key) }
                var row = RowValues(lon: p.lon, lat: p.lat)
                if let f = filter {
                    if f.attributes.categories != nil {
                        let v = try property(ListingFilter.categoryNames, "--category")
                        if case .string(let s) = v {
                            var s = s
                            row.categoryOK = s.withUTF8 { ListingFilter.categoryMatches($0, names) }
                        } else {
                            row.categoryOK = false
                        }
                    }
                    if f.attributes.area != nil { row.area = try number(ListingFilter.areaNames, "--area") }
                    if f.attributes.deposit != nil { row.deposit = try number(ListingFilter.depositNames, "--deposit") }
                    if f.attributes.monthlyRent != nil { row.rent = try number(ListingFilter.rentNames, "--rent") }
                    for condition in f.attributes.properties {
                        guard let m = p.properties.first(where: { $0.key == condition.name }) else {
                            throw bad(condition.name, "is missing; --where \(condition.name)=… needs it in every feature")
                        }
                        var text: String
                        switch m.value {
                        case .number(let t), .string(let t): text = t
                        case .bool(let v): text = v ? "true" : "false"
                        default: text = ""
                        }
                        if !text.withUTF8({ condition.holds($0, decimalComma: options.decimalComma) }) { row.conditionsOK = false }
                    }
                    if !passes(row, f) { b.total += 1; return }
                }
                // Everything that can fail before anything is kept, so a skipped feature leaves
                // no trace.
                var (x, y) = (p.lon, p.lat)
                if b.kind == .xy {
                    x = try number([xName], options.x == nil ? "--coordinates xy" : "--x-column")
                    y = try number([yName], options.y == nil ? "--coordinates xy" : "--y-column")
                }
                let weight = try options.weight.map { (name) throws(DatasetError) in try number([name], "--weight-column") }
                var features: [Double] = []
                for (name, source) in zip(options.features, featureSources ?? []) where source != .coordinate(0) && source != .coordinate(1) {
                    features.append(try number([name], "--features"))
                }
                var id: JSONValue?
                for name in idNames where id == nil { id = p.properties.first(where: { $0.key == name })?.value }
                if id == nil, let given = options.id {
                    throw bad(given, "is missing; --id-column names it, so every feature needs it")
                }
                id = id ?? p.id
                b.total += 1
                b.xOrLongitude.append(x); b.yOrLatitude.append(y)
                if filter?.region != nil { b.regionLon.append(p.lon); b.regionLat.append(p.lat) }
                b.idBytes.append(contentsOf: (id.map(GeoJSON.fieldText) ?? String(p.index)).utf8)
                b.idEnds.append(UInt32(b.idBytes.count))
                b.lines.append(Int32(truncatingIfNeeded: p.line))
                b.featureIndices.append(Int32(truncatingIfNeeded: p.index))
                if let weight { b.weights.append(weight) }
                b.features?.values.append(contentsOf: features)
            } catch {
                guard options.skipBadRows else { throw error }
                skip(error)
            }
        }
        // Every feature bad: the first one's error, as for a CSV file of bad rows.
        if b.lines.isEmpty && b.skipped == b.total, let first = b.firstSkipped { throw first }
        b.header = ["lon", "lat"] + keys.filter { $0 != "lon" && $0 != "lat" }
        b.hasID = true
        b.hasWeights = options.weight != nil
        return b
    }

    /// Where each `--features` name comes from in a GeoJSON file: the coordinates (`lon`,
    /// `lat` for the geometry, or the x and y properties), else a property of its own; nil
    /// when no features are asked for.
    /// - Throws: `.invalidOption` for a name given twice.
    private static func geoJSONFeatureSources(
        _ names: [String], kind: CoordinateKind, x: String, y: String, path: String
    ) throws(DatasetError) -> [FeatureColumns.Source]? {
        guard !names.isEmpty else { return nil }
        let (first, second) = kind == .xy ? (x, y) : ("lon", "lat")
        var sources: [FeatureColumns.Source] = [], columns = 0
        for name in names {
            let source: FeatureColumns.Source
            switch name {
            case first: source = .coordinate(0)
            case second: source = .coordinate(1)
            default: source = .column(columns); columns += 1
            }
            guard !sources.contains(source), names.filter({ $0 == name }).count == 1 else {
                throw .invalidOption(option: "--features", value: name, reason: "\(path): '\(name)' is given twice; name each feature once")
            }
            sources.append(source)
        }
        return sources
    }
}
