#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import ListingVocabulary

// The CSV side of `PointFile.read`.
//
// A regular file is memory-mapped and read in parts, one per thread: the header first, then
// the rows split at line ends (`CSVScanning.split`), each part into its own `Builder`, the
// parts joined in file order. Within a part, a row without quotes is read by a fast loop that
// walks the columns, finds each field's end eight bytes at a time and parses numbers while
// scanning them (`scanDecimal`); any row the loop is not sure of (a quote, a bare CR, a wrong
// number of fields) is handed, whole, to the general RFC 4180 state machine of
// `CSVStreamParser`, so every row means what it always meant. Files that cannot be mapped
// (pipes, devices) are streamed through that state machine alone.
//
// Line numbers and row numbers depend on the parts before: a part after the first counts from
// zero and is shifted when joined. An error (or the first skipped row, under --skip-bad-rows)
// found in such a part names a line, so that part is read again with its true first line
// (errors stop the run, so this costs nothing on good files). A split that fell inside a quoted
// field (the part before it ends inside quotes) is undone: the rest of the file is read as one
// part.
//
// On one thread this reads about twice as fast as the previous streaming reader, with a
// third of its instructions a row (docs/performance.md, "Reading"). Joining the parts
// element by element cost a large share of a two-thread read, hence the whole-array copies
// of `join`.

extension PointFile {
    /// Reads a CSV file for `read`.
    static func readCSV(
        path: String, prefer: CoordinateKind?, filter: ListingFilter?, options: ReadOptions
    ) throws(DatasetError) -> Builder {
        var v = CSVPointVisitor(path: path, prefer: prefer, filter: filter, options: options)
        guard isRegularFile(path) else {
            let summary = try CSVStreamParser.parse(path: path, delimiter: options.delimiter, encoding: options.encoding,
                                                    decimalComma: options.decimalComma, into: &v)
            return try v.finished(delimiter: summary.delimiter)
        }
        let file = try MappedFile(path: path, encoding: options.encoding, threads: max(1, options.threads ?? onlineProcessors()))
        v.releasesPages = file.isMapped
        return try file.withBytes { (all) throws(DatasetError) -> Builder in
            guard let base = all.baseAddress, all.count > 0 else {
                throw DatasetError.empty(path: path)
            }
            var start = 0
            if all.count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF { start = 3 }
            let end = all.count
            let delimiter = options.delimiter ?? CSVStreamParser.detectDelimiter(UnsafeBufferPointer(rebasing: all[start...]))
            try options.checkSeparator(delimiter, path: path)
            v.delimiter = delimiter
            let (p, firstLine) = try readHeader(base, start, end, path: path, into: &v)

            let threads = max(1, options.threads ?? onlineProcessors())
            let parts = CSVScanning.split(base, p, end, parts: (end - p) >= 1 << 21 ? threads : 1)
            let estimate = CSVScanning.estimatedRows(base, p, end, total: end - p)
            let results = readParts(base, parts, template: v, firstLine: firstLine, estimate: estimate)
            let joined = try joinParts(results, parts, base: base, end: end, template: v, firstLine: firstLine)
            return try joined.finished(delimiter: delimiter)
        }
    }

    /// The header: records up to the first that is not blank, through the state machine.
    /// Returns where the rows start and the line they start on.
    private static func readHeader(
        _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, path: String, into v: inout CSVPointVisitor
    ) throws(DatasetError) -> (start: Int, line: Int) {
        var state = CSVStreamParser.State()
        state.delimiter = v.delimiter
        var p = start
        while p < end && !v.sawHeader {
            let r = CSVScanning.recordEnd(base, p, end)
            try state.consume(UnsafeBufferPointer(start: base + p, count: r.end - p), into: &v)
            p = r.end
        }
        if !v.sawHeader { try state.finish(path: path, into: &v) }
        guard v.sawHeader else { throw DatasetError.empty(path: path) }
        return (p, state.line)
    }

    /// Reads every part into a copy of `template`, the parts on all threads.
    private static func readParts(
        _ base: UnsafePointer<UInt8>, _ parts: [Range<Int>], template: CSVPointVisitor, firstLine: Int, estimate: Int
    ) -> [Part] {
        var results = [Part](repeating: Part(), count: parts.count)
        results.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let slots = out
            let read = { (k: Int) in
                var part = template
                // The first part reserves for the whole file: the others are appended to it.
                part.rows.reserve(k == 0 ? estimate : estimate / parts.count + 16, id: part.idCol >= 0)
                let range = parts[k]
                slots[k].result = Result { () throws(DatasetError) in
                    try part.readPart(base, range.lowerBound, range.upperBound, line: k == 0 ? firstLine : 0,
                                      atFileEnd: k == parts.count - 1)
                }
                slots[k].visitor = part
            }
            if parts.count == 1 {
                read(0)
            } else {
                // concurrentPerform returns when every part is read, so sharing `read` is safe.
                withoutActuallyEscaping(read) { read in
                    nonisolated(unsafe) let work = read
                    DispatchQueue.concurrentPerform(iterations: parts.count) { k in work(k) }
                }
            }
        }
        return results
    }

    /// Joins the parts in order, reading again a part whose numbers or outcome depend on the
    /// parts before (see the notes at the top of this file). `line` is the true line on which
    /// part k starts.
    private static func joinParts(
        _ results: [Part], _ parts: [Range<Int>], base: UnsafePointer<UInt8>, end: Int, template: CSVPointVisitor,
        firstLine: Int
    ) throws(DatasetError) -> CSVPointVisitor {
        var joined = template
        var line = firstLine
        for k in 0..<parts.count {
            var part = results[k].visitor!
            var result = results[k].result!
            var relative = k > 0
            var hi = parts[k].upperBound, atEnd = k == parts.count - 1
            var cutInQuotes = false
            if case .success(let outcome) = result { cutInQuotes = !outcome.complete }
            var redo = cutInQuotes
            if relative {
                switch result {
                case .failure: redo = true
                case .success: redo = redo || (part.rows.firstSkipped != nil && joined.rows.firstSkipped == nil)
                }
            }
            if redo {
                // Read again with its true first line; after a split inside quotes, to the end.
                if cutInQuotes { hi = end; atEnd = true }
                part = template
                result = Result { () throws(DatasetError) in
                    try part.readPart(base, parts[k].lowerBound, hi, line: line, atFileEnd: atEnd)
                }
                relative = false
            }
            let outcome = try result.get()
            if k == 0 { joined = part } else { join(part, into: &joined, lineShift: relative ? line : 0) }
            line = relative ? line + outcome.line : outcome.line
            if atEnd { break }
        }
        return joined
    }

    /// Appends `part`'s rows to `joined`'s, shifting the part's line and row numbers.
    private static func join(_ part: CSVPointVisitor, into j: inout CSVPointVisitor, lineShift: Int) {
        let rowShift = j.rows.total
        let idShift = UInt32(j.rows.idBytes.count)
        j.rows.xOrLongitude.append(contentsOf: part.rows.xOrLongitude)
        j.rows.yOrLatitude.append(contentsOf: part.rows.yOrLatitude)
        // Copied whole, then shifted in place: appending element by element took most of
        // the join's time.
        func appendShifted<T: FixedWidthInteger>(_ from: [T], to array: inout [T], by shift: T) {
            let start = array.count
            array.append(contentsOf: from)
            guard shift != 0 else { return }
            array.withUnsafeMutableBufferPointer { a in
                for i in start..<a.count { a[i] &+= shift }
            }
        }
        appendShifted(part.rows.lines, to: &j.rows.lines, by: Int32(truncatingIfNeeded: lineShift))
        j.rows.idBytes.append(contentsOf: part.rows.idBytes)
        appendShifted(part.rows.idEnds, to: &j.rows.idEnds, by: idShift)
        appendShifted(part.rows.rowNumbers, to: &j.rows.rowNumbers, by: rowShift)
        j.rows.regionLon.append(contentsOf: part.rows.regionLon)
        j.rows.regionLat.append(contentsOf: part.rows.regionLat)
        j.rows.weights.append(contentsOf: part.rows.weights)
        j.rows.features?.values.append(contentsOf: part.rows.features?.values ?? [])
        j.rows.total += part.rows.total
        j.rows.skipped += part.rows.skipped
        j.rows.empty += part.rows.empty
        if j.rows.firstSkipped == nil { j.rows.firstSkipped = part.rows.firstSkipped }
    }

    /// What one part's reading produced.
    private struct Part {
        var visitor: CSVPointVisitor?
        var result: Result<CSVPointVisitor.PartEnd, DatasetError>?
    }
}

/// What the CSV reader does with each column.
enum CSVColumnRole: UInt8 {
    /// `weightTested`, `featureTested`: the weight or a feature column when `--where` also
    /// tests it (read as text first, so that the condition sees the field as written).
    case skip, x, y, lon, lat, id, category, area, deposit, rent, condition, weight, weightTested, feature, featureTested

    /// Whether the column holds a number the reader parses.
    var isNumber: Bool {
        switch self {
        case .x, .y, .lon, .lat, .area, .deposit, .rent, .weight, .feature: true
        default: false
        }
    }
}

/// Collects a CSV file's points for `PointFile.read`: the header gives each column a role; each
/// row's coordinates, id and filter attributes are kept if the row passes.
struct CSVPointVisitor: CSVVisitor {
    typealias Role = CSVColumnRole
    let path: String
    let prefer: CoordinateKind?
    let filter: ListingFilter?
    let options: ReadOptions
    let categoryNames: [[UInt8]]
    /// Kept rows are named by their row numbers when there is no id column (a filter or
    /// skipped rows would otherwise renumber them).
    let recordsRowNumbers: Bool
    /// Whether rows are filtered, and whether a region test follows (kept as flags: testing the
    /// optional filter in every row copied it).
    let filtering: Bool, keepsRegion: Bool
    var delimiter = UInt8(ascii: ",")
    /// Whether `readPart` gives pages behind it back: only those of a mapped file, which a
    /// read again finds in the file (a converted file's memory would come back as zeros).
    var releasesPages = true
    var header: [String] = []
    var sawHeader = false
    var roles: [Role] = []
    /// The `--where` conditions on each column (empty for most).
    var conditions: [[PropertyCondition]] = []
    /// The slot in `row.features` of each feature column.
    var featureSlot: [Int] = []
    var idCol = -1
    var rows = PointFile.Builder()
    var row = PointFile.RowValues()
    var x = 0.0, y = 0.0
    /// `idBytes.count` when the current row started, to drop its id if the row is dropped.
    var rowIDStart = 0
    /// Whether the current row has an error, and the first one (reported, or counted under
    /// `skipBadRows`, when the row ends; only touched when a row fails, so the hot path
    /// stores one flag).
    var rowFailed = false
    var rowError: DatasetError?

    init(path: String, prefer: CoordinateKind?, filter: ListingFilter?, options: ReadOptions) {
        self.path = path
        self.prefer = prefer
        self.filter = filter
        self.options = options
        categoryNames = filter?.categoryBytes ?? []
        recordsRowNumbers = filter != nil || options.skipBadRows
        filtering = filter != nil
        keepsRegion = filter?.region != nil
    }

    /// The builder of a complete read, or the error of a file without rows.
    func finished(delimiter: UInt8) throws(DatasetError) -> PointFile.Builder {
        guard sawHeader else { throw .empty(path: path) }
        guard rows.total > 0 else {
            if let e = rows.firstSkipped { throw e }
            throw .headerOnly(path: path)
        }
        var b = rows
        b.header = header
        b.hasID = idCol >= 0 || recordsRowNumbers
        b.delimiter = delimiter
        return b
    }

    /// The field as a finite number; otherwise 0, with the row's error noted.
    @inline(__always)
    private mutating func number(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ line: Int) -> Double {
        if let v = parseDouble(bytes), v.isFinite { return v }
        return slowNumber(bytes, index, line)
    }

    /// `number` for a field that is no plain number: one with a decimal comma (with
    /// `--decimal-comma`), or an error.
    @inline(never)
    private mutating func slowNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ line: Int) -> Double {
        let comma = options.decimalComma ? parseDecimalComma(bytes) : nil
        if let v = comma, v.isFinite { return v }
        if !rowFailed {
            rowFailed = true
            let text = String(decoding: bytes, as: UTF8.self)
            rowError = parseDouble(bytes) == nil && comma == nil
                ? .invalidNumber(path: path, line: line, column: header[index], text: text)
                : .nonFinite(path: path, line: line, column: header[index], text: text)
        }
        return 0
    }

    private mutating func outOfRange(_ v: Double, _ index: Int, _ line: Int, _ limit: String) {
        if !rowFailed {
            rowFailed = true
            rowError = .outOfRange(path: path, line: line, column: header[index], value: v, limit: limit)
        }
    }

    /// Keeps the number `v` of column `index`, whose role is a number's.
    @inline(__always)
    private mutating func store(_ v: Double, _ role: Role, _ index: Int, _ line: Int) {
        switch role {
        case .x: x = v
        case .y: y = v
        case .lon:
            if abs(v) > 180 { outOfRange(v, index, line, DatasetError.longitudeLimit(v)) }
            row.lon = v
        case .lat:
            if abs(v) > 90 { outOfRange(v, index, line, DatasetError.latitudeLimit(v)) }
            row.lat = v
        case .area: row.area = v
        case .deposit: row.deposit = v
        case .rent: row.rent = v
        case .weight: row.weight = v
        case .feature: row.features[featureSlot[index]] = v
        default: break
        }
    }

    /// Takes the field of column `index` (a data row's).
    @inline(__always)
    private mutating func take(_ bytes: UnsafeBufferPointer<UInt8>, _ role: Role, _ index: Int, _ line: Int) {
        switch role {
        case .skip: return
        case .id: rows.idBytes.append(contentsOf: bytes)
        case .category: row.categoryOK = ListingFilter.categoryMatches(bytes, categoryNames)
        case .condition:
            for c in conditions[index] where !c.holds(bytes, decimalComma: options.decimalComma) { row.conditionsOK = false }
        case .weightTested:
            for c in conditions[index] where !c.holds(bytes, decimalComma: options.decimalComma) { row.conditionsOK = false }
            row.weight = number(bytes, index, line)
        case .featureTested:
            for c in conditions[index] where !c.holds(bytes, decimalComma: options.decimalComma) { row.conditionsOK = false }
            row.features[featureSlot[index]] = number(bytes, index, line)
        default: store(number(bytes, index, line), role, index, line)
        }
    }

    mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError) {
        if !sawHeader { header.append(String(decoding: bytes, as: UTF8.self)); return }
        guard index < roles.count else { return }   // a ragged row; endRecord reports it
        take(bytes, roles[index], index, line)
    }

    /// Forgets the id bytes of a row that is not kept.
    private mutating func dropRowID() {
        if idCol >= 0 { rows.idBytes.removeLast(rows.idBytes.count - rowIDStart) }
    }

    mutating func endRecord(line: Int, fieldCount: Int, hasData: Bool) throws(DatasetError) {
        if !sawHeader {
            sawHeader = true
            try assignRoles()
            return
        }
        defer { row.categoryOK = true; row.conditionsOK = true; rowFailed = false }
        // A row of empty fields (`;;;`), as spreadsheets leave at the end of an export.
        guard hasData else { dropRowID(); rows.empty += 1; return }
        if fieldCount != header.count && !rowFailed {
            rowFailed = true
            rowError = .raggedRow(path: path, line: line, expected: header.count, found: fieldCount)
        }
        rows.total += 1
        if rowFailed, let e = rowError {
            guard options.skipBadRows else { throw e }
            dropRowID()
            rows.skipped += 1
            if rows.firstSkipped == nil { rows.firstSkipped = e }
            return
        }
        if filtering && !PointFile.passes(row, filter.unsafelyUnwrapped) {
            dropRowID()
            return
        }
        if idCol >= 0 {
            rows.idEnds.append(UInt32(rows.idBytes.count))
            rowIDStart = rows.idBytes.count
        } else if recordsRowNumbers {
            // No id column: record the row number, so ids still name input rows.
            rows.rowNumbers.append(rows.total - 1)
        }
        if rows.kind == .xy {
            rows.xOrLongitude.append(x); rows.yOrLatitude.append(y)
        } else {
            rows.xOrLongitude.append(row.lon); rows.yOrLatitude.append(row.lat)
        }
        if keepsRegion { rows.regionLon.append(row.lon); rows.regionLat.append(row.lat) }
        if rows.hasWeights { rows.weights.append(row.weight) }
        if !row.features.isEmpty { rows.features!.values.append(contentsOf: row.features) }
        rows.lines.append(Int32(truncatingIfNeeded: line))
    }

    /// Where a part's reading stopped: the line after its last row, and whether it ended
    /// outside quotes (false: the part was cut inside a quoted field, and nothing after the
    /// last complete row was read).
    struct PartEnd {
        var line: Int
        var complete: Bool
    }

    /// Reads the rows in `b[start..<end]`, which begins a record; `line` is the line it starts
    /// on. `atFileEnd`: the part ends the file (an open quote there is an error, a last row
    /// without a line end still counts).
    mutating func readPart(
        _ b: UnsafePointer<UInt8>, _ start: Int, _ end: Int, line firstLine: Int, atFileEnd: Bool
    ) throws(DatasetError) -> PartEnd {
        let lf = CSVScanning.lf, cr = CSVScanning.cr, delimiter = self.delimiter
        let columns = roles.count
        var line = firstLine
        var p = start
        // Pages behind the reader are given back every 16 MiB: mapped file pages count as
        // resident memory, and a 10M-row file is most of a gigabyte.
        let release = 1 << 24
        var released = start
        // The plan: each needed column with the number of skipped columns before it.
        var steps: [(skip: Int, column: Int, role: Role)] = []
        var lastStep = -1
        for (c, role) in roles.enumerated() where role != .skip {
            steps.append((c - lastStep - 1, c, role))
            lastStep = c
        }
        // Skipped columns after the last needed one, up to (not including) the last column.
        let trailing = max(0, columns - 1 - lastStep - 1)
        var cursor = CSVScanning.FieldCursor(b, end: end, delimiter: delimiter)
        while p < end {
            if releasesPages && p - released >= 2 * release {
                let page = Int(sysconf(Int32(_SC_PAGESIZE)))
                let from = (released + page - 1) / page * page, to = (p - release) / page * page
                if to > from { madvise(UnsafeMutableRawPointer(mutating: b + from), to - from, MADV_DONTNEED) }
                released = max(released, to)
            }
            let c0 = b[p]
            if c0 == lf { line += 1; p += 1; continue }     // a blank line
            if c0 == cr && p + 1 < end && b[p + 1] == lf { line += 1; p += 2; continue }
            let rowStart = p
            var hasData = false
            var fast = true
            // The columns the read needs, in order, each after its run of skipped ones; then the
            // skipped columns after the last, whose last field must end the line.
            for step in steps {
                if step.skip > 0 {
                    let after = cursor.skipFields(p, step.skip)
                    if after < 0 { fast = false; break }
                    if after - p > step.skip { hasData = true }
                    p = after
                }
                let c = step.column, role = step.role
                var q: Int
                if role.isNumber, let (v, next) = scanDecimal(b, p, end),
                   next == end || b[next] == delimiter || b[next] == lf || b[next] == cr {
                    q = next
                    store(v, role, c, line)
                    hasData = true
                } else {
                    q = cursor.next(p)
                    if q > p { hasData = true }
                    if q < end && b[q] == CSVScanning.quote { fast = false; break }
                    take(UnsafeBufferPointer(start: b + p, count: q - p), role, c, line)
                }
                // b[q]: the delimiter, LF, CR, or q == end.
                if c == columns - 1 {
                    p = q
                } else {
                    if q == end || b[q] != delimiter { fast = false; break }   // too few fields
                    p = q + 1
                }
            }
            if fast && lastStep < columns - 1 {
                if trailing > 0 {
                    let after = cursor.skipFields(p, trailing)
                    if after < 0 { fast = false } else {
                        if after - p > trailing { hasData = true }
                        p = after
                    }
                }
                if fast {
                    let q = cursor.next(p)
                    if q > p { hasData = true }
                    p = q
                }
            }
            // p: the end of the last field, which must end the line.
            if fast {
                if p == end {
                } else if b[p] == lf {
                    p += 1
                } else if b[p] == cr && p + 1 < end && b[p + 1] == lf {
                    p += 2
                } else {
                    fast = false   // too many fields, a quote, or a bare CR
                }
            }
            if fast {
                try endRecord(line: line, fieldCount: columns, hasData: hasData)
                if p <= end && b[p - 1] == lf { line += 1 }
                continue
            }
            // Not a plain row: forget what the loop took from it and read it whole with the
            // general state machine.
            if idCol >= 0 { rows.idBytes.removeLast(rows.idBytes.count - rowIDStart) }
            rowFailed = false; rowError = nil; row.categoryOK = true; row.conditionsOK = true
            let r = CSVScanning.recordEnd(b, rowStart, end)
            if r.inQuotes && !atFileEnd { return PartEnd(line: line, complete: false) }
            var state = CSVStreamParser.State()
            state.delimiter = delimiter
            state.line = line; state.recordLine = line
            try state.consume(UnsafeBufferPointer(start: b + rowStart, count: r.end - rowStart), into: &self)
            if r.end == end && atFileEnd { try state.finish(path: path, into: &self) }
            line = state.line
            p = r.end
        }
        return PartEnd(line: line, complete: true)
    }

    /// Finds the columns from the header and gives each its role.
    private mutating func assignRoles() throws(DatasetError) {
        let t = CSVTable(path: path, header: header, rows: [], lines: [])
        let c = try ResolvedColumns.resolve(header: header, path: path, prefer: prefer, options: options)
        rows.kind = c.kind
        roles = [Role](repeating: .skip, count: header.count)
        if rows.kind == .xy { roles[c.first] = .x; roles[c.second] = .y } else { roles[c.first] = .lon; roles[c.second] = .lat }
        idCol = c.id ?? -1
        if idCol >= 0 { roles[idCol] = .id }
        try attachWeight()
        try attachFeatures(c)
        guard let f = filter else { return }
        if f.needsLonLat && rows.kind == .xy {
            guard let lon = c.longitude, let lat = c.latitude else {
                throw .missingFilterColumn(path: path, option: f.bbox != nil ? "--bbox" : "--within",
                                           wanted: "lat/latitude and lon/lng/longitude", found: header)
            }
            roles[lon] = .lon; roles[lat] = .lat
        }
        func attach(_ names: [String], _ role: Role, _ option: String, _ wanted: Bool) throws(DatasetError) {
            guard wanted else { return }
            guard let c = t.column(named: names) else {
                throw .missingFilterColumn(path: path, option: option, wanted: names.joined(separator: "/"), found: header)
            }
            roles[c] = role
        }
        try attach(ListingFilter.categoryNames, .category, "--category", f.attributes.categories != nil)
        try attach(ListingFilter.areaNames, .area, "--area", f.attributes.area != nil)
        try attach(ListingFilter.depositNames, .deposit, "--deposit", f.attributes.deposit != nil)
        try attach(ListingFilter.rentNames, .rent, "--rent", f.attributes.monthlyRent != nil)
        try attachConditions(f.attributes.properties)
    }
}

extension PointFile.Builder {
    /// Reserves room for `rows` kept rows.
    mutating func reserve(_ rows: Int, id: Bool) {
        xOrLongitude.reserveCapacity(rows)
        yOrLatitude.reserveCapacity(rows)
        lines.reserveCapacity(rows)
        if hasWeights { weights.reserveCapacity(rows) }
        if id {
            idEnds.reserveCapacity(rows)
            // Room for ids of up to 8 bytes (row numbers below 10^8); longer ones grow it.
            idBytes.reserveCapacity(8 * rows)
        }
    }
}

/// The number of processors online (at least 1).
func onlineProcessors() -> Int {
    max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
}

/// Whether `path` is a regular file (which the CSV reader maps) rather than a pipe or device.
func isRegularFile(_ path: String) -> Bool {
    var info = stat()
    guard stat(path, &info) == 0 else { return false }
    return (info.st_mode & S_IFMT) == S_IFREG
}
