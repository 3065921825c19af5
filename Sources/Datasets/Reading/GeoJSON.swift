#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One Point feature of a GeoJSON FeatureCollection, as read.
public struct GeoJSONPoint: Sendable, Equatable {
    /// 0-based index in the `features` array.
    public var index: Int
    /// 1-based file line on which the feature starts.
    public var line: Int
    /// Longitude and latitude in degrees (RFC 7946: WGS 84, longitude first).
    public var lon: Double
    public var lat: Double
    /// The coordinates' text as written, so they can be echoed unchanged.
    public var lonText: String
    public var latText: String
    /// The feature's top-level `id` member, if any.
    public var id: JSONValue?
    /// `properties`, in file order (empty for `null` or a missing member).
    public var properties: [JSONMember]
}

/// GeoJSON (RFC 7946) input and output of point listings.
///
/// Input is a FeatureCollection of Point features; each feature's `properties` are carried
/// through in order. Output (``GeoJSONWriter``) is the same shape, one feature per line.
///
/// As a table (``readTable(path:)``, ``write(_:to:)``) a feature becomes a row with columns
/// `lon`, `lat` (the geometry), then `id` when features have a top-level `id` and no `id`
/// property, then every property key in order of first appearance; a feature without a key
/// has an empty field there. Property values become fields as: strings as they are,
/// numbers as written, `true`/`false`, `null` as an empty field, arrays and objects as
/// compact JSON text. Properties named `lon` or `lat` are dropped: the geometry wins.
public enum GeoJSON {
    /// Whether `path` names a GeoJSON file (extension `.geojson` or `.json`, any case).
    public static func isGeoJSONPath(_ path: String) -> Bool {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        return ext == "geojson" || ext == "json"
    }

    /// Streams the Point features of the FeatureCollection at `path`, in order, validating
    /// each before `body` sees it.
    ///
    /// With `badFeature`, a feature that is well-formed JSON but not a valid Point feature
    /// (the `.invalidGeoJSON` errors below that name a feature: missing, null or non-Point
    /// geometry, bad coordinates, properties that are not an object) is given to it instead
    /// of ending the walk, and `body` does not see that feature (`--skip-bad-rows`); the
    /// following features keep their indices. JSON syntax errors and errors of the
    /// collection itself always end it.
    /// - Throws: `.fileNotFound`, `.unreadable`, `.empty`; `.invalidJSON` with line and
    ///   column; `.invalidGeoJSON` naming the feature index and member for a non-Point
    ///   geometry, bad coordinates (non-numeric, NaN-like overflow, latitude beyond ±90,
    ///   longitude beyond ±180) or a wrong type; `.noFeatures`; or what `body` throws.
    /// - Complexity: O(file size); memory for one feature at a time (the file is mapped).
    public static func forEachPoint(
        path: String, encoding: TextEncoding = .utf8, badFeature: ((DatasetError) -> Void)? = nil,
        _ body: (GeoJSONPoint) throws(DatasetError) -> Void
    ) throws(DatasetError) {
        let file = try MappedFile(path: path, encoding: encoding)
        try file.withBytes { (bytes) throws(DatasetError) in
            var parser = JSONParser(bytes, path: path)
            if parser.atEnd() { throw DatasetError.empty(path: path) }
            try walk(&parser, path: path, badFeature: badFeature, body)
        }
    }

    /// The top-level walk: members in any order, `features` streamed one feature at a time.
    private static func walk(
        _ p: inout JSONParser, path: String, badFeature: ((DatasetError) -> Void)?,
        _ body: (GeoJSONPoint) throws(DatasetError) -> Void
    ) throws(DatasetError) {
        func top(_ member: String, _ reason: String) -> DatasetError {
            .invalidGeoJSON(path: path, feature: nil, member: member, reason: reason)
        }
        guard p.peek() == UInt8(ascii: "{") else {
            let what = try p.parseValue().kindDescription
            throw top("type", "the file holds \(what), not a FeatureCollection object")
        }
        p.i += 1
        var type: JSONValue?
        var sawFeatures = false
        var featureCount = 0
        var line = 1, lineCursor = 0
        if p.peek() == UInt8(ascii: "}") {
            p.i += 1
        } else {
            while true {
                let key = try p.parseKey()
                if key == "features" {
                    sawFeatures = true
                    guard p.peek() == UInt8(ascii: "[") else {
                        let v = try p.parseValue()
                        throw top("features", "is \(v.kindDescription); it must be an array of features")
                    }
                    p.i += 1
                    if p.peek() == UInt8(ascii: "]") {
                        p.i += 1
                    } else {
                        while true {
                            _ = p.peek()
                            // Count lines incrementally up to the feature's start: O(file) in all.
                            while lineCursor < p.i {
                                if p.bytes[lineCursor] == 0x0A { line += 1 }
                                lineCursor += 1
                            }
                            let value = try p.parseValue(depth: 2)
                            let feature: GeoJSONPoint?
                            do throws(DatasetError) {
                                feature = try point(from: value, index: featureCount, line: line, path: path)
                            } catch {
                                guard let badFeature else { throw error }
                                badFeature(error)
                                feature = nil
                            }
                            if let feature { try body(feature) }
                            featureCount += 1
                            if try endOfFeature(&p) { break }
                        }
                    }
                } else {
                    let value = try p.parseValue(depth: 1)
                    if key == "type" { type = value }
                }
                guard let next = p.peek() else { throw p.fail("expected ',' or '}', found the end of the file") }
                p.i += 1
                if next == UInt8(ascii: "}") { break }
                if next != UInt8(ascii: ",") { p.i -= 1; throw p.fail("expected ',' or '}', found \(p.found())") }
            }
        }
        guard p.atEnd() else { throw p.fail("unexpected \(p.found()) after the top-level object") }
        guard type == .string("FeatureCollection") else {
            let found: String
            if case .string(let s)? = type { found = "\"\(s)\"" } else { found = type?.kindDescription ?? "missing" }
            let hint = type == .string("Feature") ? "; wrap the feature in a FeatureCollection" : ""
            throw top("type", "is \(found) but must be \"FeatureCollection\"\(hint)")
        }
        guard sawFeatures else { throw top("features", "is missing; a FeatureCollection needs a features array") }
        guard featureCount > 0 else { throw .noFeatures(path: path) }
    }

    /// Consumes the `,` or `]` after a feature; true at the `]` that ends `features`.
    private static func endOfFeature(_ p: inout JSONParser) throws(DatasetError) -> Bool {
        guard let next = p.peek() else { throw p.fail("expected ',' or ']', found the end of the file") }
        p.i += 1
        if next == UInt8(ascii: "]") { return true }
        if next != UInt8(ascii: ",") { p.i -= 1; throw p.fail("expected ',' or ']', found \(p.found())") }
        return false
    }

    /// Validates one feature and extracts its point.
    static func point(
        from value: JSONValue, index: Int, line: Int, path: String
    ) throws(DatasetError) -> GeoJSONPoint {
        func bad(_ member: String, _ reason: String) -> DatasetError {
            .invalidGeoJSON(path: path, feature: index, member: member, reason: reason)
        }
        guard case .object = value else { throw bad("features", "is \(value.kindDescription); each feature must be an object") }
        guard value["type"] == .string("Feature") else {
            let t = value["type"].map { v -> String in if case .string(let s) = v { return "\"\(s)\"" } else { return v.kindDescription } } ?? "missing"
            throw bad("type", "is \(t) but must be \"Feature\"")
        }
        guard let geometry = value["geometry"], geometry != .null else {
            throw bad("geometry", "is missing or null; every feature needs a Point geometry")
        }
        guard case .object = geometry else { throw bad("geometry", "is \(geometry.kindDescription); it must be a geometry object") }
        guard geometry["type"] == .string("Point") else {
            let t: String
            if case .string(let s)? = geometry["type"] { t = s } else { t = "missing" }
            throw bad("geometry.type", "is \(t); only Point features can be read (convert the others to points or drop them)")
        }
        guard case .array(let coordinates)? = geometry["coordinates"] else {
            throw bad("geometry.coordinates", "is missing or not an array; a Point needs [longitude, latitude]")
        }
        guard coordinates.count >= 2 else {
            throw bad("geometry.coordinates", "has \(coordinates.count) value(s); a Point needs [longitude, latitude]")
        }
        func number(_ k: Int, _ name: String) throws(DatasetError) -> (Double, String) {
            guard case .number(let text) = coordinates[k] else {
                throw bad("geometry.coordinates[\(k)]", "the \(name) is \(coordinates[k].kindDescription), not a number")
            }
            var t = text
            guard let v = t.withUTF8({ parseDouble($0) }), v.isFinite else {
                throw bad("geometry.coordinates[\(k)]", "the \(name) \(text) on line \(line) is not a finite number")
            }
            return (v, text)
        }
        let (lon, lonText) = try number(0, "longitude")
        let (lat, latText) = try number(1, "latitude")
        guard abs(lon) <= 180 else {
            let hint = DatasetError.longitudeLimit(lon)
            throw bad("geometry.coordinates[0]", "longitude \(lonText) is out of range on line \(line) (\(hint); GeoJSON puts longitude first)")
        }
        guard abs(lat) <= 90 else {
            throw bad("geometry.coordinates[1]", "latitude \(latText) is out of range on line \(line) (latitude must be within ±90; GeoJSON puts longitude first)")
        }
        var properties: [JSONMember] = []
        switch value["properties"] {
        case nil, .null?: break
        case .object(let members)?: properties = members
        case let other?: throw bad("properties", "is \(other.kindDescription); it must be an object or null")
        }
        return GeoJSONPoint(index: index, line: line, lon: lon, lat: lat, lonText: lonText, latText: latText,
                            id: value["id"], properties: properties)
    }

    /// A property value as a table field; see the type's documentation.
    public static func fieldText(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .number(let text): return text
        case .string(let s): return s
        case .array, .object: return value.jsonText
        }
    }

    /// Reads a FeatureCollection of Point features as a table (columns as described on the
    /// type). For small files and tests, like `CSV.read`; `PointFile.read` streams.
    /// - Throws: the errors of ``forEachPoint(path:_:)``.
    /// - Complexity: O(file size) time and memory.
    public static func readTable(path: String, encoding: TextEncoding = .utf8) throws(DatasetError) -> CSVTable {
        try readTable(path: path, encoding: encoding, skippingBadFeatures: false).table
    }

    /// ``readTable(path:)``, and the feature index of each row. With `skippingBadFeatures`
    /// the features ``forEachPoint(path:badFeature:_:)`` finds bad have no row (as
    /// `--skip-bad-rows` read them), so rows and feature indices differ from then on.
    static func readTable(
        path: String, encoding: TextEncoding = .utf8, skippingBadFeatures: Bool
    ) throws(DatasetError) -> (table: CSVTable, featureIndices: [Int]) {
        var points: [GeoJSONPoint] = []
        try forEachPoint(path: path, encoding: encoding, badFeature: skippingBadFeatures ? { _ in } : nil) { (p) throws(DatasetError) in points.append(p) }
        let hasPropertyID = points.contains { $0.properties.contains { $0.key == "id" } }
        let useFeatureID = !hasPropertyID && points.contains { $0.id != nil }
        var header = ["lon", "lat"]
        if useFeatureID { header.append("id") }
        var columnOf: [String: Int] = [:]
        for p in points {
            for m in p.properties where m.key != "lon" && m.key != "lat" && columnOf[m.key] == nil {
                columnOf[m.key] = header.count
                header.append(m.key)
            }
        }
        var rows: [[String]] = []
        rows.reserveCapacity(points.count)
        for p in points {
            var row = [String](repeating: "", count: header.count)
            row[0] = p.lonText
            row[1] = p.latText
            if useFeatureID, let id = p.id { row[2] = fieldText(id) }
            for m in p.properties {
                if let c = columnOf[m.key] { row[c] = fieldText(m.value) }
            }
            rows.append(row)
        }
        return (CSVTable(path: path, header: header, rows: rows, lines: points.map(\.line)), points.map(\.index))
    }

    /// Writes a table with latitude and longitude columns as a FeatureCollection of Points:
    /// the coordinates from those columns, every other column a property in header order. A
    /// field that is a JSON number whose value a reader keeps is written as a number, an empty
    /// field as `null`, any other as a string (so a numeric string such as `"12"` comes back
    /// as the number 12); the id column's field is a number only when it is a plain integer
    /// within ±(2^53 − 1) (`GeoJSONWriter.property(_:id:)`).
    /// With `replacing`, numeric columns are added as properties after the others (rounded
    /// to `decimals` places), and a column of the same name is left out, as
    /// ``CSVTable/write(to:replacing:decimals:)`` does for CSV.
    /// - Throws: the coordinate errors of `CSVTable.coordinates(prefer: .lonlat)`,
    ///   `.outputFolderMissing`, `.writeFailed`. Nothing is left at `path` on failure.
    public static func write(
        _ table: CSVTable, to path: String, replacing columns: [(name: String, values: [Double])] = [], decimals: Int = 3,
        options: ReadOptions = ReadOptions()
    ) throws(DatasetError) {
        let coordinates = try table.coordinates(prefer: .lonlat, options: options)
        let c = try ResolvedColumns.resolve(header: table.header, path: table.path, prefer: .lonlat, options: options)
        let drop = Set(columns.compactMap { table.column(named: [$0.name]) })
        let propertyColumns = table.header.indices.filter { $0 != c.first && $0 != c.second && !drop.contains($0) }
        var out = try GeoJSONWriter(path: path)
        for (r, row) in table.rows.enumerated() {
            out.beginFeature(lonText: row[c.first], latText: row[c.second],
                             lon: coordinates.xOrLongitude[r], lat: coordinates.yOrLatitude[r])
            for k in propertyColumns {
                if k == c.id { out.property(table.header[k], id: row[k]) } else { out.property(table.header[k], inferring: row[k]) }
            }
            for column in columns { out.property(column.name, column.values[r], decimals: decimals) }
            try out.endFeature()
        }
        try out.commit()
    }
}
