#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CSV file read whole: a header row and data rows of string fields, with the file line on
/// which each row starts (for error messages).
public struct CSVTable: Sendable, Equatable {
    /// The path it was read from, as given (used in messages).
    public var path: String
    public var header: [String]
    public var rows: [[String]]
    /// 1-based file line of each data row's first character.
    public var lines: [Int]
    /// The field separator the file had (a comma for GeoJSON and tables made in memory).
    public var delimiter: UInt8

    public init(path: String, header: [String], rows: [[String]], lines: [Int], delimiter: UInt8 = UInt8(ascii: ",")) {
        self.path = path
        self.header = header
        self.rows = rows
        self.lines = lines
        self.delimiter = delimiter
    }

    /// The index of the first header column whose name (trimmed, case-insensitive) is one of
    /// `names`, tried in the order given.
    public func column(named names: [String]) -> Int? {
        let normalized = header.map { $0.trimmingWhitespace().lowercased() }
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
        for r in rows.indices { out.append(try double(row: r, column: col)) }
        return out
    }

    /// Parses one field as a finite Double (split out of `doubles(column:)` so that
    /// `coordinates(prefer:)` can check values in file order).
    /// - Throws: `.invalidNumber` or `.nonFinite` naming the file, line and column.
    func double(row r: Int, column col: Int, decimalComma: Bool = false) throws(DatasetError) -> Double {
        let text = rows[r][col].trimmingWhitespace()
        var t = text
        guard let v = Double(text) ?? (decimalComma ? t.withUTF8({ parseDecimalComma($0) }) : nil) else {
            throw .invalidNumber(path: path, line: lines[r], column: header[col], text: text)
        }
        guard v.isFinite else {
            throw .nonFinite(path: path, line: lines[r], column: header[col], text: text)
        }
        return v
    }
}

/// RFC 4180 CSV: comma-separated, fields optionally in double quotes (`""` is a quote inside
/// them, and quoted fields may hold commas and line breaks); LF or CRLF line ends; a UTF-8
/// byte-order mark and blank lines at the end are ignored.
public enum CSV {
    /// Reads a whole file into a table of strings (checked as UTF-8, or converted from
    /// `encoding`; `decimalComma` refuses a comma separator). For small files and tests; large point
    /// files go through `PointFile`, which keeps only the columns it needs.
    /// - Throws: `DatasetError` naming the file (and line) for a missing, unreadable or empty
    ///   file, a header without rows, an unterminated quote or a ragged row.
    public static func read(path: String, delimiter: UInt8? = nil, encoding: TextEncoding = .utf8,
                            decimalComma: Bool = false) throws(DatasetError) -> CSVTable {
        var collector = TableCollector(path: path)
        let summary = try CSVStreamParser.parse(path: path, delimiter: delimiter, encoding: encoding,
                                                decimalComma: decimalComma, into: &collector)
        var table = try collector.table()
        table.delimiter = summary.delimiter
        return table
    }

    /// Parses CSV bytes; `path` is used only in messages.
    public static func parse(_ bytes: [UInt8], path: String) throws(DatasetError) -> CSVTable {
        var collector = TableCollector(path: path)
        try CSVStreamParser.parse(bytes: bytes, path: path, into: &collector)
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

        mutating func endRecord(line: Int, fieldCount: Int, hasData: Bool) throws(DatasetError) {
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
        // Test scalars, not Characters: "\r\n" is one Character, equal to neither "\n" nor
        // "\r", so a field holding a CRLF was written unquoted and split the row on reading.
        if field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) {
            var quoted = "\""
            for c in field.unicodeScalars {
                if c == "\"" { quoted.unicodeScalars.append("\"") }
                quoted.unicodeScalars.append(c)
            }
            return quoted + "\""
        }
        return field
    }

    /// Formats a header and rows as CSV text (LF line ends).
    public static func format(header: [String], rows: [[String]]) -> String {
        var out = line(header)
        for row in rows { out += line(row) }
        return out
    }

    /// One record and its line end. A record that is a single empty field is written as `""`:
    /// written bare it would be a blank line, which readers skip, so the row would be lost.
    private static func line(_ fields: [String]) -> String {
        if fields.count == 1, fields[0].isEmpty { return "\"\"\n" }
        return fields.map(escape).joined(separator: ",") + "\n"
    }
}
