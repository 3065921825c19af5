import Foundation

/// The one error type of Datasets. Every message names the file and, where there is one, the
/// line and column, and says what to do.
public enum DatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    case fileNotFound(path: String)
    case unreadable(path: String, reason: String)
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

    public var description: String {
        switch self {
        case let .fileNotFound(path):
            return "\(path): no such file; check the path"
        case let .unreadable(path, reason):
            return "\(path): cannot be read (\(reason)); check its permissions"
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
        }
    }
}

/// A CSV file read whole: a header row and data rows of string fields, with the file line on
/// which each row starts (for error messages).
public struct CSVTable: Sendable, Equatable {
    /// The path it was read from, as given (used in messages).
    public var path: String
    public var header: [String]
    public var rows: [[String]]
    /// 1-based file line of each data row's first character.
    public var lines: [Int]

    public init(path: String, header: [String], rows: [[String]], lines: [Int]) {
        self.path = path
        self.header = header
        self.rows = rows
        self.lines = lines
    }

    /// The index of the first header column whose name (trimmed, case-insensitive) is one of
    /// `names`, tried in the order given.
    public func column(named names: [String]) -> Int? {
        let normalized = header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        for name in names {
            if let i = normalized.firstIndex(of: name) { return i }
        }
        return nil
    }

    /// Parses column `col` of every row as a finite Double.
    /// - Throws: `.invalidNumber` or `.nonFinite` naming the file, line and column.
    public func doubles(column col: Int) throws(DatasetError) -> [Double] {
        var out = [Double]()
        out.reserveCapacity(rows.count)
        for (r, row) in rows.enumerated() {
            let text = row[col].trimmingCharacters(in: .whitespaces)
            guard let v = Double(text) else {
                throw .invalidNumber(path: path, line: lines[r], column: header[col], text: text)
            }
            guard v.isFinite else {
                throw .nonFinite(path: path, line: lines[r], column: header[col], text: text)
            }
            out.append(v)
        }
        return out
    }
}

/// RFC 4180 CSV: comma-separated, fields optionally in double quotes (`""` is a quote inside
/// them, and quoted fields may hold commas and line breaks); LF or CRLF line ends; a UTF-8
/// byte-order mark and blank lines at the end are ignored.
public enum CSV {
    /// Reads a whole file into a table of strings. For small files and tests; large point
    /// files go through `PointFile`, which keeps only the columns it needs.
    /// - Throws: `DatasetError` naming the file (and line) for a missing, unreadable or empty
    ///   file, a header without rows, an unterminated quote or a ragged row.
    public static func read(path: String) throws(DatasetError) -> CSVTable {
        var collector = TableCollector(path: path)
        _ = try CSVStreamParser.parse(path: path, into: &collector)
        return try collector.table()
    }

    /// Parses CSV bytes; `path` is used only in messages.
    public static func parse(_ bytes: [UInt8], path: String) throws(DatasetError) -> CSVTable {
        var collector = TableCollector(path: path)
        _ = try CSVStreamParser.parse(bytes: bytes, path: path, into: &collector)
        return try collector.table()
    }

    private struct TableCollector: CSVVisitor {
        let path: String
        var header: [String] = []
        var rows: [[String]] = []
        var lines: [Int] = []
        var current: [String] = []
        var sawHeader = false

        init(path: String) { self.path = path }

        mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
            current.append(String(decoding: bytes, as: UTF8.self))
        }

        mutating func endRecord(line: Int, fieldCount: Int) throws(DatasetError) {
            if !sawHeader {
                header = current; sawHeader = true
            } else {
                if current.count != header.count {
                    throw .raggedRow(path: path, line: line, expected: header.count, found: current.count)
                }
                rows.append(current); lines.append(line)
            }
            current.removeAll(keepingCapacity: true)
        }

        func table() throws(DatasetError) -> CSVTable {
            guard sawHeader else { throw .empty(path: path) }
            guard !rows.isEmpty else { throw .headerOnly(path: path) }
            return CSVTable(path: path, header: header, rows: rows, lines: lines)
        }
    }

    /// Quotes a field when it holds a comma, quote or line break.
    public static func escape(_ field: String) -> String {
        if field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return field
    }

    /// Formats a header and rows as CSV text (LF line ends).
    public static func format(header: [String], rows: [[String]]) -> String {
        var out = header.map(escape).joined(separator: ",") + "\n"
        for row in rows { out += row.map(escape).joined(separator: ",") + "\n" }
        return out
    }
}

/// Writes output files so that a failure never leaves a half-written file: the bytes go to a
/// temporary file in the same folder, which is then renamed over the destination.
public enum AtomicFile {
    public static func write(_ text: String, to path: String) throws(DatasetError) {
        try write(Data(text.utf8), to: path)
    }

    public static func write(_ data: Data, to path: String) throws(DatasetError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDir), isDir.boolValue else {
            throw .outputFolderMissing(path: path)
        }
        let temp = folder.appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try data.write(to: temp)
            if rename(temp.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: temp)
                throw DatasetError.writeFailed(path: path, reason: reason)
            }
        } catch let e as DatasetError {
            throw e
        } catch {
            try? FileManager.default.removeItem(at: temp)
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
    }
}
