/// The points of a CSV file, read column by column: coordinates as numbers, ids compactly,
/// and nothing else kept, so a million-row file costs about 30 bytes a row in memory.
public struct PointFile: Sendable {
    /// The path read, as given.
    public var path: String
    public var header: [String]
    /// Coordinates in row order (x,y or lon,lat).
    public var coordinates: TableCoordinates
    /// 1-based file line of each row.
    public var lines: [Int32]
    /// Whether the file has an `id` column (otherwise ids are 0-based row numbers).
    public var hasIDColumn: Bool
    private var idBytes: [UInt8]
    private var idEnds: [UInt32]

    /// Number of points.
    public var count: Int { lines.count }

    /// The id of row `i`: the `id` column's text, or the 0-based row number.
    public func id(_ i: Int) -> String {
        guard hasIDColumn else { return String(i) }
        let lo = i == 0 ? 0 : Int(idEnds[i - 1]), hi = Int(idEnds[i])
        return idBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[lo..<hi]), as: UTF8.self) }
    }

    /// Reads a point file.
    /// - Parameter prefer: which coordinate columns to use when both `x,y` and `lat,lon` exist
    ///   (nil: `x,y`); a kind that is absent is an error.
    /// - Throws: `DatasetError` naming the file, line and column for every malformed input.
    /// - Complexity: O(file size) time; memory for the kept columns only.
    public static func read(path: String, prefer: CoordinateKind? = nil) throws(DatasetError) -> PointFile {
        var v = Visitor(path: path, prefer: prefer)
        _ = try CSVStreamParser.parse(path: path, into: &v)
        guard v.sawHeader else { throw .empty(path: path) }
        guard !v.lines.isEmpty else { throw .headerOnly(path: path) }
        return PointFile(path: path, header: v.header,
                         coordinates: TableCoordinates(kind: v.kind, first: v.first, second: v.second),
                         lines: v.lines, hasIDColumn: v.idCol >= 0, idBytes: v.idBytes, idEnds: v.idEnds)
    }

    private struct Visitor: CSVVisitor {
        let path: String
        let prefer: CoordinateKind?
        var header: [String] = []
        var sawHeader = false
        var kind: CoordinateKind = .xy
        var firstCol = -1, secondCol = -1, idCol = -1
        var first: [Double] = [], second: [Double] = []
        var lines: [Int32] = []
        var idBytes: [UInt8] = [], idEnds: [UInt32] = []

        init(path: String, prefer: CoordinateKind?) { self.path = path; self.prefer = prefer }

        mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
            if !sawHeader { header.append(String(decoding: bytes, as: UTF8.self)); return }
            if index == firstCol || index == secondCol {
                let name = header[index]
                guard let v = parseDouble(bytes) else {
                    throw .invalidNumber(path: path, line: line, column: name, text: String(decoding: bytes, as: UTF8.self))
                }
                guard v.isFinite else {
                    throw .nonFinite(path: path, line: line, column: name, text: String(decoding: bytes, as: UTF8.self))
                }
                if kind == .lonlat {
                    if index == secondCol && abs(v) > 90 {
                        throw .outOfRange(path: path, line: line, column: name, value: v, limit: "latitude must be within ±90")
                    }
                    if index == firstCol && abs(v) > 180 {
                        throw .outOfRange(path: path, line: line, column: name, value: v, limit: "longitude must be within ±180")
                    }
                }
                if index == firstCol { first.append(v) } else { second.append(v) }
            } else if index == idCol {
                idBytes.append(contentsOf: bytes)
                idEnds.append(UInt32(idBytes.count))
            }
        }

        mutating func endRecord(line: Int, fieldCount: Int) throws(DatasetError) {
            if !sawHeader {
                sawHeader = true
                let t = CSVTable(path: path, header: header, rows: [], lines: [])
                let x = t.column(named: ["x"]), y = t.column(named: ["y"])
                let lat = t.column(named: CSVTable.latitudeNames), lon = t.column(named: CSVTable.longitudeNames)
                let hasXY = x != nil && y != nil, hasLonLat = lat != nil && lon != nil
                switch prefer {
                case .xy?:
                    guard hasXY else { throw .missingColumns(path: path, wanted: "x and y", found: header) }
                    kind = .xy
                case .lonlat?:
                    guard hasLonLat else { throw .missingColumns(path: path, wanted: "lat/latitude and lon/lng/longitude", found: header) }
                    kind = .lonlat
                case nil:
                    if hasXY { kind = .xy } else if hasLonLat { kind = .lonlat } else {
                        throw .missingColumns(path: path, wanted: "coordinate (x,y or lat,lon)", found: header)
                    }
                }
                (firstCol, secondCol) = kind == .xy ? (x!, y!) : (lon!, lat!)
                idCol = t.column(named: ["id"]) ?? -1
                return
            }
            guard fieldCount == header.count else {
                throw .raggedRow(path: path, line: line, expected: header.count, found: fieldCount)
            }
            lines.append(Int32(truncatingIfNeeded: line))
        }
    }
}
