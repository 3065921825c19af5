/// The one error type of Datasets. Every message names the file and, where there is one, the
/// line and column (for GeoJSON: the feature index and member), and says what to do.
///
/// Lines are 1-based file lines (a record spanning lines is named by its first line);
/// JSON columns are 1-based byte offsets within the line; feature indices are 0-based
/// positions in the FeatureCollection's `features` array.
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    case fileNotFound(path: String)
    case unreadable(path: String, reason: String)
    /// Input that starts as gzip data does but cannot be inflated (damaged or cut short).
    case damagedGzip(path: String, reason: String)
    /// Input from a pipe or a gzip file that could not be copied to a temporary file.
    case inputCopyFailed(path: String, reason: String)
    case empty(path: String)
    case headerOnly(path: String)
    case unterminatedQuote(path: String, line: Int)
    case raggedRow(path: String, line: Int, expected: Int, found: Int)
    case missingColumns(path: String, wanted: String, found: [String])
    case invalidNumber(path: String, line: Int, column: String, text: String)
    case nonFinite(path: String, line: Int, column: String, text: String)
    case outOfRange(path: String, line: Int, column: String, value: Double, limit: String)
    case outputFolderMissing(path: String)
    case writeFailed(path: String, reason: String)
    /// Output that holds a character its encoding cannot hold, on a 1-based output line.
    case unencodable(path: String, line: Int, character: String, encoding: TextEncoding)
    /// Bytes that are not JSON, at a 1-based line and column (column in bytes).
    case invalidJSON(path: String, line: Int, column: Int, reason: String)
    /// Well-formed JSON that is not what GeoJSON input needs. `feature` is the 0-based index
    /// in `features` (nil for the top level); `member` the offending member, e.g.
    /// `geometry.type` or `properties.area_m2`.
    case invalidGeoJSON(path: String, feature: Int?, member: String, reason: String)
    /// A FeatureCollection with an empty `features` array.
    case noFeatures(path: String)
    /// A filter option needs a column the file does not have.
    case missingFilterColumn(path: String, option: String, wanted: String, found: [String])
    /// A command-line value that cannot be used (the CLI reports it as a usage mistake).
    case invalidOption(option: String, value: String, reason: String)
    /// A `--within` region file that holds no usable polygon.
    case invalidRegion(path: String, reason: String)
    /// The filters removed every row.
    case noRowsKept(path: String, total: Int)
    /// A `--within` region kept no row, but `swappedMatches` rows would lie in it with its
    /// coordinates read the other way round: it was written latitude first.
    case regionAxesSwapped(path: String, region: String, total: Int, swappedMatches: Int)
    /// A label file with another number of rows than the point file it labels.
    case labelCountMismatch(labels: String, rows: Int, points: String, count: Int)
    /// A label file row whose id is not the id of the point file's row at the same position
    /// (`row` 1-based).
    case labelIDMismatch(labels: String, line: Int, id: String, points: String, row: Int, pointID: String)
    /// A text input that is not UTF-8 (and no `--encoding` said otherwise): the first bad
    /// byte, its 1-based line and byte column, and the encoding the bytes look like.
    case notUTF8(path: String, line: Int, column: Int, byte: UInt8, looksLike: TextEncoding)
    /// A text input read with `--encoding` holding a byte sequence that encoding does not
    /// have.
    case invalidEncoding(path: String, line: Int, column: Int, byte: UInt8, encoding: TextEncoding)
    /// PROJ could not transform the point on `line` (a GeoJSON file's `feature`, 0-based, starts
    /// there) to `crs` (nil when not known); `reason` is PROJ's. `clustering`: the run clusters
    /// the points, so the message also offers the sphere (`--metric geodesic`).
    case projectionFailed(path: String, line: Int, feature: Int?, latitude: Double, longitude: Double, crs: String?,
                          reason: String, clustering: Bool)

    public var description: String {
        switch self {
        case let .fileNotFound(path):
            return "\(path): no such file; check the path"
        case let .unreadable(path, reason):
            return "\(path): cannot be read (\(reason)); check its permissions"
        case let .damagedGzip(path, reason):
            return "\(path): gzip-compressed, but \(reason); check it with gzip -t, or download it again"
        case let .inputCopyFailed(path, reason):
            return "\(path): cannot be copied to a temporary file to be read (\(reason)); set TMPDIR to a folder with room"
        case let .empty(path):
            return "\(path): the file is empty; it needs a header row and at least one data row"
        case let .headerOnly(path):
            return "\(path): the file has a header row but no data rows"
        case let .unterminatedQuote(path, line):
            return "\(path):\(line): a quoted field is never closed; add the closing \""
        case let .raggedRow(path, line, expected, found):
            return "\(path):\(line): row has \(found) field(s) but the header has \(expected); every row needs one field per header column"
        case let .missingColumns(path, wanted, found):
            return "\(path): no \(wanted) column(s); the header has: \(found.joined(separator: ", "))"
        case let .invalidNumber(path, line, column, text):
            return "\(path):\(line): column '\(column)': '\(text)' is not a number"
        case let .nonFinite(path, line, column, text):
            return "\(path):\(line): column '\(column)': '\(text)' is not a finite number"
        case let .outOfRange(path, line, column, value, limit):
            return "\(path):\(line): column '\(column)': \(value) is out of range (\(limit))"
        case let .outputFolderMissing(path):
            return "\(path): the output folder does not exist; create it first"
        case let .writeFailed(path, reason):
            return "\(path): cannot write (\(reason))"
        case let .unencodable(path, line, character, encoding):
            return "\(path):\(line): '\(character)' cannot be written in \(encoding.displayName); write UTF-8 (--output-encoding utf-8)"
        case let .invalidJSON(path, line, column, reason):
            return "\(path):\(line):\(column): invalid JSON: \(reason)"
        case let .invalidGeoJSON(path, feature, member, reason):
            let place = feature.map { "feature \($0): " } ?? ""
            return "\(path): \(place)'\(member)': \(reason)"
        case let .noFeatures(path):
            return "\(path): the FeatureCollection has no features; it needs at least one Point feature"
        case let .missingFilterColumn(path, option, wanted, found):
            return "\(path): \(option) needs the \(wanted) column but the header has: \(found.joined(separator: ", ")); add the column or drop \(option)"
        case let .invalidOption(option, value, reason):
            return "\(option) '\(value)': \(reason)"
        case let .invalidRegion(path, reason):
            return "\(path): \(reason)"
        case let .noRowsKept(path, total):
            return "\(path): none of the \(total) rows passes the filters; loosen them"
        case let .regionAxesSwapped(path, region, total, swappedMatches):
            return "\(path): none of the \(total) rows lies in --within \(region), but \(swappedMatches) would with the region's "
                + "coordinates read the other way round: its axes look swapped (latitude first); WKT and GeoJSON put longitude "
                + "first, e.g. POINT (126.98 37.57) for Seoul"
        case let .labelCountMismatch(labels, rows, points, count):
            return "\(labels): \(rows) label rows for \(count) points in \(points); use the labels written for that file"
        case let .labelIDMismatch(labels, line, id, points, row, pointID):
            return "\(labels):\(line): id '\(id)' but row \(row) of \(points) has id '\(pointID)'; use the labels written for that file, in its row order"
        case let .notUTF8(path, line, column, byte, looksLike):
            return "\(path): line \(line) is not valid UTF-8 (byte \(Self.hex(byte)) at column \(column)); it looks like "
                + "\(looksLike.displayName): read it with --encoding \(looksLike.rawValue), or save it as UTF-8"
        case let .projectionFailed(path, line, feature, latitude, longitude, crs, reason, clustering):
            let place = feature.map { " (feature \($0))" } ?? ""
            return "\(path) line \(line)\(place): PROJ could not transform the point (lat \(latitude), lon \(longitude))"
                + (crs.map { " to \($0)" } ?? "") + ": \(reason); the point lies outside the CRS's area of use: choose a --crs "
                + "that covers every point (auto: the UTM zone of the data's centre)"
                + (clustering ? ", or cluster on the sphere with --metric geodesic" : "")
        case let .invalidEncoding(path, line, column, byte, encoding):
            return "\(path): line \(line) is not valid \(encoding.displayName) (byte \(Self.hex(byte)) at column \(column)); "
                + "check the file's encoding and --encoding (utf-8, latin1 or cp949)"
        }
    }

    /// The rule a longitude beyond ±180 breaks, with the fix when it looks like 0…360 data.
    static func longitudeLimit(_ value: Double) -> String {
        value > 180 && value <= 360
            ? "longitude must be within ±180; if your data uses 0…360, subtract 360 from values above 180"
            : "longitude must be within ±180"
    }

    /// The rule a latitude beyond ±90 breaks.
    static func latitudeLimit(_ value: Double) -> String { "latitude must be within ±90" }

    /// A byte as `0xE4`.
    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 15)])
    }
}
