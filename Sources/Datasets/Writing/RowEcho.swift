/// A column written after the input's own by ``PointFile/writeRows(appending:to:options:)``:
/// one value per kept row.
public struct AppendedColumn: Sendable {
    public enum Values: Sendable {
        /// Integers (labels, 0/1 flags).
        case integers([Int32])
        /// Numbers in [0, 1] (probabilities, outlier scores), written with 10 decimals at most.
        case fractions([Double])
    }

    public var name: String
    public var values: Values

    public init(_ name: String, _ values: Values) {
        self.name = name
        self.values = values
    }

    func write(_ row: Int, to out: inout CSVWriter) {
        switch values {
        case .integers(let v): out.field(Int(v[row]))
        case .fractions(let v): out.field(unitInterval: v[row])
        }
    }

    func write(_ row: Int, to out: inout GeoJSONWriter) {
        switch values {
        case .integers(let v): out.property(name, Int(v[row]))
        case .fractions(let v): out.property(name, v[row], decimals: 10)
        }
    }
}

extension PointFile {
    /// Writes the kept rows as the input has them, with `columns` added, in the format the
    /// output's name gives (``ListingFormat``: `.csv` or `-` CSV, `.geojson`/`.json` GeoJSON):
    /// `geocluster cluster --append` (the label columns) and `geocluster filter` (none).
    ///
    /// CSV to CSV: every field as read (re-quoted where CSV needs it), separated by the
    /// input's own separator (comma, semicolon or tab, as given or detected), so a
    /// spreadsheet opens the output as it opened the input; an input column named like an
    /// appended one left out. GeoJSON to GeoJSON: each kept feature's coordinates and
    /// properties as written, the columns added as properties. CSV to GeoJSON: Point features
    /// at the latitude/longitude columns (found as `options` says), the other fields as
    /// properties (numbers as numbers). GeoJSON to CSV: `lon,lat`, then the properties, as
    /// ``GeoJSON/readTable(path:)`` lays them out.
    /// CSV output from a CSV input is written in the input's encoding (or `encoding`), with a
    /// byte-order mark when the input has one (or as `byteOrderMark` says: UTF-8 only) and the
    /// appended numbers with the input's decimal mark, so it opens where the input opened; from
    /// GeoJSON it is UTF-8 unless `encoding` says otherwise.
    /// - Throws: `DatasetError` reading the input again or writing; `.missingColumns` for
    ///   GeoJSON output from a CSV without latitude/longitude; `.unencodable` for a character
    ///   `encoding` lacks; `.invalidOption` for a byte-order mark on another encoding than
    ///   UTF-8. Nothing is left at `output` on failure.
    /// - Complexity: O(input size); the kept rows' bytes are held in memory.
    public func writeRows(appending columns: [AppendedColumn], to output: String, options: ReadOptions = ReadOptions(),
                          encoding: TextEncoding? = nil, byteOrderMark: Bool? = nil) throws(DatasetError) {
        let geoJSONOutput = GeoJSON.isGeoJSONPath(output)
        let appended = Set(columns.map { $0.name.lowercased() })
        if try InputFile.isGeoJSON(path) && geoJSONOutput {
            var kept: [GeoJSONPoint] = []
            var k = 0
            // Features the reader skipped as bad (--skip-bad-rows) are not among the kept ones.
            try GeoJSON.forEachPoint(path: path, encoding: options.encoding, badFeature: { _ in }) { (p) throws(DatasetError) in
                guard k < featureIndices.count, Int(featureIndices[k]) == p.index else { return }
                kept.append(p)
                k += 1
            }
            var out = try GeoJSONWriter(path: output)
            for (r, p) in kept.enumerated() {
                out.beginFeature(lonText: p.lonText, latText: p.latText, lon: p.lon, lat: p.lat)
                if let id = p.id, !p.properties.contains(where: { $0.key == "id" }) { out.property("id", json: id) }
                for m in p.properties where !appended.contains(m.key.lowercased()) { out.property(m.key, json: m.value) }
                for c in columns { c.write(r, to: &out) }
                try out.endFeature()
            }
            try out.commit()
            return
        }
        let rows = try keptRows(options.encoding)
        let keep = rows.header.indices.filter { !appended.contains(rows.header[$0].trimmingWhitespace().lowercased()) }
        if geoJSONOutput {
            let c = try ResolvedColumns.resolve(header: rows.header, path: path, prefer: .lonlat, options: options)
            var out = try GeoJSONWriter(path: output)
            for r in 0..<rows.count {
                let lonText = rows.text(r, c.first), latText = rows.text(r, c.second)
                var (lt, at) = (lonText, latText)
                let comma = options.decimalComma
                let lon = lt.withUTF8 { parseDouble($0, decimalComma: comma) } ?? .nan, lat = at.withUTF8 { parseDouble($0, decimalComma: comma) } ?? .nan
                out.beginFeature(lonText: lonText, latText: latText, lon: lon, lat: lat)
                for i in keep where i != c.first && i != c.second {
                    if i == c.id { out.property(rows.header[i], id: rows.text(r, i)) } else { out.property(rows.header[i], inferring: rows.text(r, i)) }
                }
                for col in columns { col.write(r, to: &out) }
                try out.endFeature()
            }
            try out.commit()
        } else {
            // A CSV goes back as it came; GeoJSON (UTF-8 by RFC 7946) becomes UTF-8 CSV.
            let fromCSV = try !InputFile.isGeoJSON(path)
            let written = encoding ?? (fromCSV ? options.encoding : .utf8)
            let text = OutputText(encoding: written,
                                  byteOrderMark: byteOrderMark ?? (fromCSV && written == .utf8 && InputFile.startsWithByteOrderMark(path)),
                                  decimalComma: fromCSV && options.decimalComma)
            var out = try CSVWriter(path: output, delimiter: delimiter, text: text)
            try out.header(keep.map { rows.header[$0] } + columns.map(\.name))
            for r in 0..<rows.count {
                for i in keep { rows.withField(r, i) { out.field(bytes: $0) } }
                for col in columns { col.write(r, to: &out) }
                try out.endRow()
            }
            try out.commit()
        }
    }

    /// The kept rows' fields, read again from the input (CSV by `lines`, GeoJSON as
    /// ``GeoJSON/readTable(path:)`` gives them, by feature index).
    private func keptRows(_ encoding: TextEncoding) throws(DatasetError) -> EchoRows {
        if try InputFile.isGeoJSON(path) {
            let (table, indices) = try GeoJSON.readTable(path: path, encoding: encoding, skippingBadFeatures: true)
            var rows = EchoRows(header: table.header)
            // Both ascending: walk the table's rows to each kept feature's.
            var r = 0
            for index in featureIndices {
                while indices[r] != Int(index) { r += 1 }
                for field in table.rows[r] { var f = field; f.withUTF8 { rows.append($0) } }
            }
            return rows
        }
        var collector = EchoRows.Collector(path: path, lines: lines)
        try CSVStreamParser.parse(path: path, delimiter: delimiter, encoding: encoding, into: &collector)
        return collector.rows
    }
}

/// Rows of fields as bytes, one flat buffer: the header's width in fields per row.
struct EchoRows {
    var header: [String]
    var bytes: [UInt8] = []
    var ends: [UInt32] = []

    init(header: [String]) { self.header = header }

    var count: Int { header.isEmpty ? 0 : ends.count / header.count }

    mutating func append(_ field: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: field)
        ends.append(UInt32(bytes.count))
    }

    func withField<R>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let k = row * header.count + column
        let lo = k == 0 ? 0 : Int(ends[k - 1]), hi = Int(ends[k])
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[lo..<hi])) }
    }

    func text(_ row: Int, _ column: Int) -> String {
        withField(row, column) { String(decoding: $0, as: UTF8.self) }
    }

    /// Collects the header and the records that start on `lines` (ascending).
    struct Collector: CSVVisitor {
        let path: String
        let lines: [Int32]
        var rows = EchoRows(header: [])
        var sawHeader = false
        var next = 0
        var keeping = false

        init(path: String, lines: [Int32]) { self.path = path; self.lines = lines }

        mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
            if !sawHeader { rows.header.append(String(decoding: bytes, as: UTF8.self)); return }
            if index == 0 { keeping = next < lines.count && Int(lines[next]) == line }
            if keeping && index < rows.header.count { rows.append(bytes) }
        }

        mutating func endRecord(line: Int, fieldCount: Int, hasData: Bool) throws(DatasetError) {
            if !sawHeader { sawHeader = true; return }
            guard keeping else { return }
            // The reader kept this row, so it has one field per header column.
            precondition(fieldCount == rows.header.count, "\(path):\(line): a kept row has another width than the header")
            next += 1
            keeping = false
        }
    }
}
