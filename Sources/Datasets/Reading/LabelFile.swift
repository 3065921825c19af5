// One reader for label files (`id,label,…` as `geocluster cluster` writes them, or any CSV
// with a label column), shared by `score`, `hulls` and `map`, so a label means the same
// thing to every command: an integer, optionally signed and with a zero fraction, -1 noise.

/// One label column of a CSV file, with the ids of its rows when it has an `id` column.
public struct LabelFile: Sendable {
    /// The path read, as given.
    public var path: String
    /// The header name of the label column read.
    public var column: String
    /// One label per data row, in file order; -1 is noise.
    public var labels: [Int32]
    /// Whether the file has an `id` column.
    public var hasIDs: Bool
    /// Row ids as concatenated UTF-8 bytes (`idEnds[i]` is where row i's id ends).
    var idBytes: [UInt8]
    var idEnds: [Int]
    /// 1-based file line of each row.
    public var lines: [Int32]

    /// The id of row `i` (only with an `id` column).
    public func id(_ i: Int) -> String {
        let lo = i == 0 ? 0 : idEnds[i - 1]
        return String(decoding: idBytes[lo..<idEnds[i]], as: UTF8.self)
    }

    /// Reads the first of `columns` that the header has (and `id`, if present), streaming.
    /// - Parameters:
    ///   - columns: label column names to look for, in order of preference (case-insensitive).
    ///   - option: the command-line option that named the column, for the error message.
    /// - Throws: `DatasetError` naming the file, and the line and column of a label that is not
    ///   an integer.
    /// - Complexity: O(file size) time; memory for the labels and ids only.
    public static func read(path: String, columns: [String], option: String) throws(DatasetError) -> LabelFile {
        var v = Visitor(path: path, wanted: columns, option: option)
        _ = try CSVStreamParser.parse(path: path, into: &v)
        guard v.sawHeader else { throw .empty(path: path) }
        guard !v.labels.isEmpty else { throw .headerOnly(path: path) }
        return LabelFile(path: path, column: v.header[v.labelColumn], labels: v.labels, hasIDs: v.idColumn >= 0,
                         idBytes: v.idBytes, idEnds: v.idEnds, lines: v.lines)
    }

    private struct Visitor: CSVVisitor {
        let path: String
        let wanted: [String]
        let option: String
        var header: [String] = []
        var sawHeader = false
        var labelColumn = -1, idColumn = -1
        var labels: [Int32] = [], lines: [Int32] = []
        var idBytes: [UInt8] = [], idEnds: [Int] = []

        init(path: String, wanted: [String], option: String) { self.path = path; self.wanted = wanted; self.option = option }

        mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
            if !sawHeader { header.append(String(decoding: bytes, as: UTF8.self)); return }
            if index == labelColumn {
                guard let l = Self.parseLabel(bytes) else {
                    throw .invalidOption(option: option, value: header[index],
                                         reason: "\(path):\(line): '\(String(decoding: bytes, as: UTF8.self))' is not an integer label (-1 for noise)")
                }
                labels.append(l)
            } else if index == idColumn {
                idBytes.append(contentsOf: bytes)
                idEnds.append(idBytes.count)
            }
        }

        mutating func endRecord(line: Int, fieldCount: Int) throws(DatasetError) {
            if !sawHeader {
                sawHeader = true
                let names = header.map { $0.trimmingWhitespace().lowercased() }
                guard let c = wanted.lazy.compactMap({ names.firstIndex(of: $0.lowercased()) }).first else {
                    throw .missingColumns(path: path, wanted: wanted.map { "'\($0)'" }.joined(separator: " or "), found: header)
                }
                labelColumn = c
                idColumn = names.firstIndex(of: "id") ?? -1
                return
            }
            guard fieldCount == header.count else {
                throw .raggedRow(path: path, line: line, expected: header.count, found: fieldCount)
            }
            lines.append(Int32(truncatingIfNeeded: line))
        }

        /// An integer, optionally signed and with a zero fraction ("3", "-1", "3.0"), spaces around.
        static func parseLabel(_ b: UnsafeBufferPointer<UInt8>) -> Int32? {
            var i = 0, e = b.count
            while i < e && b[i] == 0x20 { i += 1 }
            while e > i && b[e - 1] == 0x20 { e -= 1 }
            var negative = false
            if i < e && (b[i] == 0x2D || b[i] == 0x2B) { negative = b[i] == 0x2D; i += 1 }
            var value: Int64 = 0, digits = 0
            while i < e && b[i] >= 0x30 && b[i] <= 0x39 {
                value = value * 10 + Int64(b[i] - 0x30); digits += 1; i += 1
                if value > Int64(Int32.max) + 1 { return nil }
            }
            if i < e && b[i] == 0x2E {
                i += 1
                while i < e && b[i] == 0x30 { i += 1 }
            }
            guard digits > 0, i == e else { return nil }
            let v = negative ? -value : value
            return v >= Int64(Int32.min) && v <= Int64(Int32.max) ? Int32(v) : nil
        }
    }

    /// The two label arrays in matching order: by id when both files have ids (the truth's
    /// order), else by row.
    /// - Throws: `DatasetError.invalidOption` naming the file and line of the first id that
    ///   is duplicated or missing from the other file, or the row counts when rows are matched
    ///   by order.
    /// - Complexity: O(n) expected (one hash table of the truth's ids unless both files list
    ///   the same ids in the same order).
    public static func align(_ t: LabelFile, _ p: LabelFile) throws(DatasetError) -> ([Int32], [Int32]) {
        func mismatch(_ reason: String) -> DatasetError { .invalidOption(option: "--labels", value: p.path, reason: reason) }
        if t.hasIDs != p.hasIDs {
            let (with, without) = t.hasIDs ? (t.path, p.path) : (p.path, t.path)
            throw mismatch("\(with) has an id column but \(without) does not; give both files ids, or neither (rows are then matched by order)")
        }
        if !t.hasIDs {
            guard t.labels.count == p.labels.count else {
                throw mismatch("\(t.path) has \(t.labels.count) rows but \(p.path) has \(p.labels.count); without id columns rows are matched by order")
            }
            return (t.labels, p.labels)
        }
        // Same ids in the same order (the usual case: both written from one input file): the
        // rows pair up as they are, and no lookup table is needed.
        if t.idBytes == p.idBytes && t.idEnds == p.idEnds { return (t.labels, p.labels) }
        var row = [String: Int](minimumCapacity: t.labels.count)
        for i in 0..<t.labels.count {
            if let j = row.updateValue(i, forKey: t.id(i)) {
                throw mismatch("\(t.path):\(t.lines[i]): id '\(t.id(i))' appears again (first on line \(t.lines[j])); ids must be unique")
            }
        }
        var predicted = [Int32](repeating: 0, count: t.labels.count)
        var seen = [Bool](repeating: false, count: t.labels.count)
        for i in 0..<p.labels.count {
            guard let j = row[p.id(i)] else {
                throw mismatch("\(p.path):\(p.lines[i]): id '\(p.id(i))' is not in \(t.path)")
            }
            if seen[j] { throw mismatch("\(p.path):\(p.lines[i]): id '\(p.id(i))' appears again; ids must be unique") }
            seen[j] = true
            predicted[j] = p.labels[i]
        }
        if let j = seen.firstIndex(of: false) {
            throw mismatch("\(t.path):\(t.lines[j]): id '\(t.id(j))' is not in \(p.path)")
        }
        return (t.labels, predicted)
    }

    /// The labels of `points`, one per kept row: this file's rows must be the point file's
    /// rows in the same order (as `geocluster cluster` writes them), and when this file has
    /// an `id` column each id must equal the point's id (its row number when the point file
    /// has no `id` column).
    /// - Throws: `.labelCountMismatch` or `.labelIDMismatch`, naming both files.
    /// - Complexity: O(n + id bytes).
    public func aligned(to points: PointFile) throws(DatasetError) -> [Int32] {
        guard labels.count == points.count else {
            throw .labelCountMismatch(labels: path, rows: labels.count, points: points.path, count: points.count)
        }
        guard hasIDs else { return labels }
        for r in 0..<labels.count {
            let lo = r == 0 ? 0 : idEnds[r - 1]
            let same = points.hasIDColumn
                ? points.withIDBytes(r) { $0.elementsEqual(idBytes[lo..<idEnds[r]]) }
                : idBytes[lo..<idEnds[r]].elementsEqual(String(r).utf8)
            if !same {
                throw .labelIDMismatch(labels: path, line: Int(lines[r]), id: id(r),
                                       points: points.path, row: r + 1, pointID: points.id(r))
            }
        }
        return labels
    }
}
