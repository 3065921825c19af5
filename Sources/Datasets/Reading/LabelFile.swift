// One reader for label files (`id,label,…` as `geocluster cluster` writes them, or any CSV
// with a label column), shared by `score`, `hulls` and `map`, so a label means the same
// thing to every command: an integer, optionally signed and with a zero fraction, -1 noise.
// `score` also reads text labels (a state or country column): see `TextLabels`.

/// How a label column that may hold text is read (`score`). A column whose values are all
/// integers is read as integers, -1 noise, as without this; any other column is read as
/// text: each distinct value (spaces around it ignored, case kept) is a label, and only
/// `noise` is noise.
public struct TextLabels: Sendable, Equatable {
    /// The value that means noise in a text column (`--noise-label`); nil: none.
    public var noise: String?

    public init(noise: String? = nil) { self.noise = noise.map(TextInterner.trimmed) }
}

/// The distinct values of a label column, numbered in order of first appearance, and each
/// row's number: spaces around a value are ignored (as around an integer label).
struct TextInterner {
    var codes: [String: Int32] = [:]
    var texts: [String] = []
    /// The line of each value's first row.
    var firstLines: [Int] = []
    var rows: [Int32] = []

    /// The numbers of the values written as plain integers from -1 to 65534 ("7", not "07",
    /// "+7" or "7.0"), by value + 1 (-1: not seen yet): a cluster output's labels are numbered
    /// without building a string per row.
    private var small = [Int32](repeating: -1, count: 1 << 16)

    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) {
        var lo = 0, hi = bytes.count
        while lo < hi && bytes[lo] == 0x20 { lo += 1 }
        while hi > lo && bytes[hi - 1] == 0x20 { hi -= 1 }
        let value = Self.plainInteger(bytes, lo, hi)
        if let value, small[value + 1] >= 0 { rows.append(small[value + 1]); return }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self)
        if let code = codes[text] { rows.append(code); return }
        let code = Int32(texts.count)
        codes[text] = code
        if let value { small[value + 1] = code }
        texts.append(text)
        firstLines.append(line)
        rows.append(code)
    }

    /// The value of `b[lo..<hi]` when it is "-1" or a number from 0 to 65534 written without
    /// a sign, leading zero or fraction (the one text of its value); else nil.
    private static func plainInteger(_ b: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Int? {
        if hi - lo == 2 && b[lo] == 0x2D && b[lo + 1] == 0x31 { return -1 }
        guard hi > lo, hi - lo <= 5, b[lo] != 0x30 || hi - lo == 1 else { return nil }
        var v = 0
        for i in lo..<hi {
            guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
            v = v * 10 + Int(b[i] - 0x30)
        }
        return v < (1 << 16) - 1 ? v : nil
    }

    /// `text` without the spaces around it.
    static func trimmed(_ text: String) -> String {
        var t = Substring(text)
        while t.first == " " { t.removeFirst() }
        while t.last == " " { t.removeLast() }
        return String(t)
    }
}

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
    /// The number in the `value` column of each row (a probability, a 0/1 core flag), when
    /// one was asked for.
    public var values: [Double] = []
    /// Whether the column was read as text (read with `TextLabels`, and some value is not an
    /// integer); its labels are then numbers standing for the texts, -1 for the noise text.
    public var isText = false
    /// For a text column: the first value that is not an integer, and its line.
    public var firstText: (line: Int, text: String)?
    /// For a text column: whether "-1" is one of its values (a label there, not noise).
    public var hasMinusOneText = false

    /// The id of row `i` (only with an `id` column).
    public func id(_ i: Int) -> String {
        let lo = i == 0 ? 0 : idEnds[i - 1]
        return String(decoding: idBytes[lo..<idEnds[i]], as: UTF8.self)
    }

    /// Reads the first of `columns` that the header has (and the id column, if present), streaming.
    /// - Parameters:
    ///   - columns: label column names to look for, in order of preference (case-insensitive).
    ///   - option: the command-line option that named the column, for the error message.
    ///   - value: a numeric column to read as well (into `values`), e.g. `probability`.
    ///   - idColumn: the id column's name (`--id-column`), tried before `id` and `fid`; with
    ///     `requireIDColumn` a file without it is an error instead.
    ///   - text: read a column that holds text as text labels (see `TextLabels`); without it a
    ///     label that is not an integer is an error.
    ///   - encoding: the file's encoding (UTF-8 is checked, the others converted).
    /// - Throws: `DatasetError` naming the file, and the line and column of a label that is not
    ///   an integer (without `text`).
    /// - Complexity: O(file size) time; memory for the labels and ids only (and one entry per
    ///   distinct value with `text`).
    public static func read(path: String, columns: [String], option: String, value: String? = nil,
                            idColumn: String? = nil, requireIDColumn: Bool = false,
                            text: TextLabels? = nil, encoding: TextEncoding = .utf8) throws(DatasetError) -> LabelFile {
        var v = Visitor(path: path, wanted: columns, option: option)
        v.valueName = value
        v.idName = idColumn.map { ($0, requireIDColumn) }
        v.interner = text.map { _ in TextInterner() }
        if try InputFile.isGeoJSON(path) {
            var file = try readGeoJSON(path: path, encoding: encoding, columns: columns, option: option, value: value, visitor: &v)
            if let text, let interner = v.interner { file.resolve(interner, text) }
            return file
        }
        try CSVStreamParser.parse(path: path, encoding: encoding, into: &v)
        guard v.sawHeader else { throw .empty(path: path) }
        guard !v.lines.isEmpty else { throw .headerOnly(path: path) }
        var file = LabelFile(path: path, column: v.header[v.labelColumn], labels: v.labels, hasIDs: v.idColumn >= 0,
                             idBytes: v.idBytes, idEnds: v.idEnds, lines: v.lines, values: v.values)
        if let text, let interner = v.interner { file.resolve(interner, text) }
        return file
    }

    /// The labels of the values `interner` numbered: their integers when every value is one,
    /// else one number per text (-1 for the noise text).
    private mutating func resolve(_ interner: TextInterner, _ text: TextLabels) {
        let integers = interner.texts.map { t in var t = t; return t.withUTF8 { Visitor.parseLabel($0) } }
        if let first = integers.firstIndex(where: { $0 == nil }) {
            isText = true
            firstText = (interner.firstLines[first], interner.texts[first])
            hasMinusOneText = interner.codes["-1"] != nil
            let table = interner.texts.indices.map { interner.texts[$0] == text.noise ? Int32(-1) : Int32($0) }
            labels = interner.rows.map { table[Int($0)] }
        } else {
            labels = interner.rows.map { integers[Int($0)]! }
        }
    }

    /// The labels of a GeoJSON FeatureCollection (as `cluster -o labels.geojson` writes it):
    /// the first of `columns` among each feature's properties (an integer, or a string holding
    /// one), the id from the `--id-column` property, else the `id` property, else the feature's `id` member.
    private static func readGeoJSON(path: String, encoding: TextEncoding, columns: [String], option: String, value: String?,
                                    visitor v: inout Visitor) throws(DatasetError) -> LabelFile {
        var file = LabelFile(path: path, column: "", labels: [], hasIDs: false, idBytes: [], idEnds: [], lines: [])
        var withIDs = 0
        let idKey = v.idName?.name
        try GeoJSON.forEachPoint(path: path, encoding: encoding) { (p) throws(DatasetError) in
            func bad(_ member: String, _ reason: String) -> DatasetError {
                .invalidGeoJSON(path: path, feature: p.index, member: member, reason: reason)
            }
            guard let member = columns.lazy.compactMap({ name in p.properties.first { $0.key.lowercased() == name.lowercased() } }).first else {
                throw bad("properties", "has no \(columns.map { "'\($0)'" }.joined(separator: " or ")) property (\(option))")
            }
            if file.column.isEmpty { file.column = member.key }
            var text: String
            switch member.value {
            case .number(let t), .string(let t): text = t
            default: throw bad("properties.\(member.key)", "is \(member.value.kindDescription), not \(v.interner == nil ? "an integer label" : "a label") (\(option))")
            }
            if v.interner != nil {
                text.withUTF8 { v.interner!.add($0, line: p.line) }
            } else {
                guard let label = text.withUTF8({ Visitor.parseLabel($0) }) else {
                    throw bad("properties.\(member.key)", "'\(text)' is not an integer label (-1 for noise) (\(option))")
                }
                file.labels.append(label)
            }
            file.lines.append(Int32(truncatingIfNeeded: p.line))
            if let value {
                guard let m = p.properties.first(where: { $0.key == value }) else {
                    throw bad("properties", "has no '\(value)' property")
                }
                guard case .number(var t) = m.value, let v = t.withUTF8({ parseDouble($0) }), v.isFinite else {
                    throw bad("properties.\(value)", "is not a finite number")
                }
                file.values.append(v)
            }
            if let key = idKey, v.idName!.required, !p.properties.contains(where: { $0.key == key }) {
                throw bad("properties", "has no '\(key)' property (--id-column)")
            }
            if let id = idKey.flatMap({ key in p.properties.first { $0.key == key }?.value })
                ?? p.properties.first(where: { $0.key == "id" })?.value ?? p.id {
                withIDs += 1
                file.idBytes.append(contentsOf: GeoJSON.fieldText(id).utf8)
            }
            file.idEnds.append(file.idBytes.count)
        }
        // Ids only when every feature has one; otherwise rows are matched by order.
        file.hasIDs = withIDs == file.lines.count
        return file
    }

    private struct Visitor: CSVVisitor {
        let path: String
        let wanted: [String]
        let option: String
        var header: [String] = []
        var sawHeader = false
        var labelColumn = -1, idColumn = -1, valueColumn = -1
        var valueName: String?
        /// The id column's name, and whether a file without it is an error.
        var idName: (name: String, required: Bool)?
        /// Collects the values as text (`TextLabels`); nil: labels must be integers.
        var interner: TextInterner?
        var values: [Double] = []
        var labels: [Int32] = [], lines: [Int32] = []
        var idBytes: [UInt8] = [], idEnds: [Int] = []

        init(path: String, wanted: [String], option: String) { self.path = path; self.wanted = wanted; self.option = option }

        mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
            if !sawHeader { header.append(String(decoding: bytes, as: UTF8.self)); return }
            if index == labelColumn {
                if interner != nil { interner!.add(bytes, line: line); return }
                guard let l = Self.parseLabel(bytes) else {
                    throw .invalidOption(option: option, value: header[index],
                                         reason: "\(path):\(line): '\(String(decoding: bytes, as: UTF8.self))' is not an integer label (-1 for noise)")
                }
                labels.append(l)
            } else if index == idColumn {
                idBytes.append(contentsOf: bytes)
                idEnds.append(idBytes.count)
            } else if index == valueColumn {
                guard let v = parseDouble(bytes), v.isFinite else {
                    throw .invalidNumber(path: path, line: line, column: header[index], text: String(decoding: bytes, as: UTF8.self))
                }
                values.append(v)
            }
        }

        mutating func endRecord(line: Int, fieldCount: Int, hasData: Bool) throws(DatasetError) {
            if !sawHeader {
                sawHeader = true
                let names = header.map { $0.trimmingWhitespace().lowercased() }
                guard let c = wanted.lazy.compactMap({ names.firstIndex(of: $0.lowercased()) }).first else {
                    throw .missingColumns(path: path, wanted: wanted.map { "'\($0)'" }.joined(separator: " or "), found: header)
                }
                labelColumn = c
                let given = idName.flatMap { names.firstIndex(of: $0.name.trimmingWhitespace().lowercased()) }
                if let idName, idName.required, given == nil {
                    throw .missingColumns(path: path, wanted: "'\(idName.name)' (--id-column)", found: header)
                }
                idColumn = given ?? ReadOptions.idNames.lazy.compactMap { names.firstIndex(of: $0) }.first ?? -1
                if let valueName {
                    guard let v = names.firstIndex(of: valueName.lowercased()) else {
                        throw .missingColumns(path: path, wanted: "'\(valueName)'", found: header)
                    }
                    valueColumn = v
                }
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

    /// Two label files matched row to row (see ``align(_:_:sharedIDs:truthOption:labelsOption:)``).
    public struct Alignment: Sendable {
        /// The labels of the rows matched, in the truth's order.
        public var truth: [Int32]
        public var predicted: [Int32]
        /// Rows left out because their id is only in the truth, or only in the labels (with
        /// `sharedIDs`; otherwise 0).
        public var onlyInTruth = 0
        public var onlyInLabels = 0
        /// Whether rows were matched by id (else by row order).
        public var byID = true
    }

    /// The two label arrays in matching order: by id when both files have ids (the truth's
    /// order), else by row (when either file has no id column: a truth file without ids
    /// against `cluster`'s output, which always has them). With `sharedIDs`, the ids in only
    /// one of the files are left out and counted instead of being an error.
    /// - Parameters:
    ///   - truthOption, labelsOption: the flags that named the two files, for messages.
    /// - Throws: `DatasetError.invalidOption` naming the flag, file and line of the first id
    ///   that is duplicated or (without `sharedIDs`) missing from the other file, the row
    ///   counts of both files when rows are matched by order and differ, or `sharedIDs` when
    ///   a file has no ids.
    /// - Complexity: O(n) expected (one hash table of the truth's ids unless both files list
    ///   the same ids in the same order).
    public static func align(
        _ t: LabelFile, _ p: LabelFile, sharedIDs: Bool = false, truthOption: String = "--truth", labelsOption: String = "--labels"
    ) throws(DatasetError) -> Alignment {
        func inTruth(_ reason: String) -> DatasetError { .invalidOption(option: truthOption, value: t.path, reason: reason) }
        func inLabels(_ reason: String) -> DatasetError { .invalidOption(option: labelsOption, value: p.path, reason: reason) }
        let hint = sharedIDs ? "" : "; add --shared-ids to score only the ids both files have"
        if !t.hasIDs || !p.hasIDs {
            let without = [t, p].filter { !$0.hasIDs }.map(\.path).joined(separator: " and ")
            let has = [t, p].filter { !$0.hasIDs }.count == 1 ? "has" : "have"
            if sharedIDs {
                throw (t.hasIDs ? inLabels : inTruth)("--shared-ids matches rows by id, but \(without) \(has) no id column")
            }
            guard t.labels.count == p.labels.count else {
                throw inLabels("\(t.path) has \(t.labels.count) rows but \(p.path) has \(p.labels.count); \(without) \(has) no id column, so rows are matched by order and both files need the same rows (the labels of the same input, with the same filters)")
            }
            return Alignment(truth: t.labels, predicted: p.labels, byID: false)
        }
        // Same ids in the same order (the usual case: both written from one input file): the
        // rows pair up as they are, and no lookup table is needed.
        if t.idBytes == p.idBytes && t.idEnds == p.idEnds { return Alignment(truth: t.labels, predicted: p.labels) }
        var row = [String: Int](minimumCapacity: t.labels.count)
        for i in 0..<t.labels.count {
            if let j = row.updateValue(i, forKey: t.id(i)) {
                throw inTruth("\(t.path):\(t.lines[i]): id '\(t.id(i))' appears again (first on line \(t.lines[j])); ids must be unique")
            }
        }
        var predicted = [Int32](repeating: 0, count: t.labels.count)
        var seen = [Bool](repeating: false, count: t.labels.count)
        var onlyInLabels = 0
        for i in 0..<p.labels.count {
            guard let j = row[p.id(i)] else {
                if sharedIDs { onlyInLabels += 1; continue }
                throw inLabels("\(p.path):\(p.lines[i]): id '\(p.id(i))' is not in \(t.path)\(hint)")
            }
            if seen[j] { throw inLabels("\(p.path):\(p.lines[i]): id '\(p.id(i))' appears again; ids must be unique") }
            seen[j] = true
            predicted[j] = p.labels[i]
        }
        if !sharedIDs, let j = seen.firstIndex(of: false) {
            throw inTruth("\(t.path):\(t.lines[j]): id '\(t.id(j))' is not in \(p.path)\(hint)")
        }
        guard sharedIDs else { return Alignment(truth: t.labels, predicted: predicted) }
        var a = Alignment(truth: [], predicted: [], onlyInLabels: onlyInLabels)
        for j in 0..<t.labels.count {
            if seen[j] { a.truth.append(t.labels[j]); a.predicted.append(predicted[j]) } else { a.onlyInTruth += 1 }
        }
        return a
    }

    /// The rows whose lines are in `lines` (ascending), as read; with `renumber`, named by
    /// their 0-based row numbers in the file (for a file without ids whose rows a filter
    /// thinned, as `cluster` names them).
    /// - Complexity: O(rows + id bytes).
    public func keeping(lines kept: [Int32], renumber: Bool) -> LabelFile {
        var out = LabelFile(path: path, column: column, labels: [], hasIDs: hasIDs || renumber, idBytes: [], idEnds: [], lines: [])
        out.isText = isText
        out.firstText = firstText
        out.hasMinusOneText = hasMinusOneText
        var k = 0
        for r in 0..<labels.count {
            while k < kept.count && kept[k] < lines[r] { k += 1 }
            guard k < kept.count && kept[k] == lines[r] else { continue }
            out.labels.append(labels[r]); out.lines.append(lines[r])
            if !values.isEmpty { out.values.append(values[r]) }
            if hasIDs {
                let lo = r == 0 ? 0 : idEnds[r - 1]
                out.idBytes.append(contentsOf: idBytes[lo..<idEnds[r]])
            } else {
                out.idBytes.append(contentsOf: String(r).utf8)
            }
            out.idEnds.append(out.idBytes.count)
        }
        return out
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
