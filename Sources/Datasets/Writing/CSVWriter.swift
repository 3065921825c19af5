#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

/// Streams CSV output into a temporary file beside the destination and renames it into place
/// on `commit()`, so a failed run never leaves a half-written file; if the writer is dropped
/// without `commit()`, the temporary file is removed.
///
/// Fields are appended through a 1 MiB buffer without creating strings for numbers: string
/// interpolation made writing label rows several times slower (measured:
/// docs/performance.md). Rows end with LF.
///
/// A non-copyable struct rather than a class: its hot appends then need no runtime exclusivity
/// checks (a class version spent a third of its time in them).
public struct CSVWriter: ~Copyable {
    private var output: AtomicOutput
    private var atRowStart = true
    /// The field separator: a comma unless the writer was opened with another.
    public let delimiter: UInt8

    /// The destination, as given.
    public var path: String { output.path }

    /// Opens the temporary file. `delimiter` separates the fields (a comma by default; a
    /// semicolon or tab to write as the input was, see `PointFile.writeRows`); a field holding
    /// it is quoted.
    /// - Throws: `.outputFolderMissing` when the destination's folder does not exist,
    ///   `.writeFailed` when the file cannot be created.
    /// - Parameter text: the file's encoding, byte-order mark and decimal mark (for the numbers
    ///   the writer formats); UTF-8, no mark and decimal points by default.
    /// - Throws: also `.invalidOption` for a byte-order mark on an encoding that has none.
    public init(path: String, delimiter: UInt8 = UInt8(ascii: ","), text: OutputText = OutputText()) throws(DatasetError) {
        precondition(delimiter != UInt8(ascii: "\"") && delimiter != 0x0A && delimiter != 0x0D,
                     "a CSV separator cannot be a quote or a line break")
        precondition(!(text.decimalComma && delimiter == UInt8(ascii: ",")), "a decimal comma needs another separator")
        let text = try text.validated()
        let encoder = text.encoding == .utf8 ? nil : try TextEncoder(text.encoding, path: path)
        output = try AtomicOutput(path: path)
        output.encoder = encoder
        if text.byteOrderMark { for b: UInt8 in [0xEF, 0xBB, 0xBF] { output.append(b) } }
        self.delimiter = delimiter
        decimalComma = text.decimalComma
    }

    /// Numbers are written with a decimal comma.
    private var decimalComma = false

    /// A writer that only formats into memory (see `writeRows`).
    private init(inMemoryCapacity: Int, delimiter: UInt8) {
        output = AtomicOutput(inMemoryCapacity: inMemoryCapacity)
        self.delimiter = delimiter
    }

    /// Writes `count` rows, row `i` formatted by `row(&writer, i)` (fields only: the row is
    /// ended here), in order. With more than one thread, batches of rows are formatted into
    /// memory, one part per thread, and written in order, so the file is byte for byte the one
    /// a single thread writes. Each thread keeps its buffer from batch to batch (fresh buffers
    /// per part cost more in page faults than the formatting they spread). Two sets of buffers
    /// alternate: while the workers format one batch, one of them writes the previous batch to
    /// the file, so the system calls overlap the formatting instead of following it. (What
    /// the second thread and the overlap each saved: docs/performance.md.)
    public mutating func writeRows(
        count: Int, threads: Int, _ row: @Sendable (inout CSVWriter, Int) -> Void
    ) throws(DatasetError) {
        let rowsPerPart = 1 << 14
        if threads <= 1 || count < 2 * rowsPerPart || !output.isFile || output.encoder != nil || decimalComma {
            for i in 0..<count { row(&self, i); try endRow() }
            return
        }
        // No more workers than parts of rows: per-worker writers are sized by it, and a
        // caller's `threads` may be anything (the file is the same for any count).
        let threads = min(threads, (count + rowsPerPart - 1) / rowsPerPart)
        // What is buffered so far (a header) goes first; after that parts are written through.
        try output.flush()
        let slots = 2 * threads
        let parts = UnsafeMutablePointer<CSVWriter>.allocate(capacity: slots)
        for j in 0..<slots { (parts + j).initialize(to: CSVWriter(inMemoryCapacity: 48 * rowsPerPart, delimiter: delimiter)) }
        defer { parts.deinitialize(count: slots); parts.deallocate() }
        nonisolated(unsafe) let shared = parts
        nonisolated(unsafe) var failure: DatasetError?
        // The file is written through by one work item at a time (and read by no other).
        try withUnsafeMutablePointer(to: &output) { (out: UnsafeMutablePointer<AtomicOutput>) throws(DatasetError) in
        nonisolated(unsafe) let file = out
        var start = 0, set = 0
        var pendingSet = -1, pendingParts = 0
        while start < count || pendingSet >= 0 {
            let batch = min(count - start, rowsPerPart * threads)
            let used = (batch + rowsPerPart - 1) / rowsPerPart
            let first = start, base = set * threads
            let writeSet = pendingSet, writeParts = pendingParts
            let items = used + (writeSet >= 0 ? 1 : 0)
            DispatchQueue.concurrentPerform(iterations: items) { j in
                if j == used {
                    // The previous batch, in order, while this one is formatted.
                    for i in 0..<writeParts {
                        let part = shared + writeSet * threads + i
                        do throws(DatasetError) { try file.pointee.writeThrough(part.pointee.output.bytes) } catch {
                            failure = error
                            return
                        }
                    }
                    return
                }
                let lo = first + j * rowsPerPart, hi = min(first + batch, lo + rowsPerPart)
                // Work on a local copy: the writers sit side by side in memory, and appending
                // through the shared slots made the threads fight over one cache line.
                var part = (shared + base + j).move()
                for i in lo..<hi {
                    row(&part, i)
                    part.endRowInMemory()
                }
                (shared + base + j).initialize(to: part)
            }
            if let failure { throw failure }
            if writeSet >= 0 {
                for i in 0..<writeParts { parts[writeSet * threads + i].output.removeAll() }
            }
            if used > 0 {
                pendingSet = set; pendingParts = used
                set = 1 - set
            } else {
                pendingSet = -1
            }
            start += batch
        }
        }
    }

    /// `endRow` for an in-memory writer, which cannot fail.
    private mutating func endRowInMemory() {
        do { try endRow() } catch { preconditionFailure("an in-memory CSV writer cannot fail: \(error)") }
    }

    /// Writes a header row.
    public mutating func header(_ names: [String]) throws(DatasetError) {
        for name in names { field(name) }
        try endRow()
    }

    /// Appends a text field, quoted when it needs to be.
    public mutating func field(_ text: String) {
        var text = text
        text.withUTF8 { field(bytes: $0) }
    }

    /// Appends a text field given as UTF-8 bytes, quoted when it holds the separator, a quote
    /// or a line break. A record that would be a single empty field is written as `""`, since a
    /// blank line is not a record.
    public mutating func field(bytes: UnsafeBufferPointer<UInt8>) {
        let onlyField = atRowStart
        separator()
        output.reserve(2 * bytes.count + 64)
        let d = delimiter
        if !bytes.contains(where: { $0 == d || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
            output.append(bytes)
            if bytes.isEmpty && onlyField { pendingEmptyOnly = true }
            return
        }
        output.append(0x22)
        for b in bytes {
            if b == 0x22 { output.append(0x22) }
            output.append(b)
        }
        output.append(0x22)
    }

    /// Set when the row so far is one empty field; `endRow` then writes `""`.
    private var pendingEmptyOnly = false

    /// Appends an integer field.
    public mutating func field(_ value: Int) {
        separator()
        output.appendInt(value)
    }

    /// Appends a number in its shortest round-trip form (`Double.description`).
    public mutating func field(_ value: Double) {
        separator()
        let start = output.count
        output.appendShortest(value)
        if decimalComma { output.replace(0x2E, with: 0x2C, since: start) }
    }

    /// Appends a number rounded to `decimals` places (0...9, ties away from zero) with all
    /// places written, e.g. `37.551234` for degrees at 6 places (about 0.1 m) or
    /// `953892.12` for metres at 2. The text is the same on every platform; see
    /// `AtomicOutput.appendFixed`.
    public mutating func field(_ value: Double, decimals: Int) {
        separator()
        let start = output.count
        output.appendFixed(value, decimals: decimals)
        if decimalComma { output.replace(0x2E, with: 0x2C, since: start) }
    }

    /// Appends a number in [0, 1] with at most `decimals` decimals (trailing zeros dropped):
    /// probabilities and scores, where 1e-10 is far below any meaningful difference. Values
    /// outside [0, 1] or non-finite fall back to the shortest round-trip form.
    public mutating func field(unitInterval value: Double, decimals: Int = 10) {
        guard value >= 0 && value <= 1, decimals <= 15 else { field(value); return }
        separator()
        let start = output.count
        // The default has its own path (see AtomicOutput.appendUnitInterval10).
        if decimals == 10 {
            output.appendUnitInterval10(value)
        } else {
            var scale: UInt64 = 1
            for _ in 0..<decimals { scale *= 10 }
            appendUnit(value, scale: scale, decimals: decimals)
        }
        if decimalComma { output.replace(0x2E, with: 0x2C, since: start) }
    }

    @inline(__always)
    private mutating func appendUnit(_ value: Double, scale: UInt64, decimals: Int) {
        let scaled = UInt64((value * Double(scale)).rounded())
        let whole = scaled / scale
        var frac = scaled % scale
        output.append(UInt8(0x30 + whole))
        if frac == 0 { return }
        var digits = decimals
        while frac % 10 == 0 { frac /= 10; digits -= 1 }
        output.append(0x2E)
        // The fraction has `digits` places; pad its leading zeros.
        var t = frac
        var width = 1
        while t >= 10 { t /= 10; width += 1 }
        for _ in 0..<(digits - width) { output.append(0x30) }
        output.appendDigits(frac)
    }

    /// Ends the current row.
    public mutating func endRow() throws(DatasetError) {
        if pendingEmptyOnly {
            output.append(0x22); output.append(0x22)
            pendingEmptyOnly = false
        }
        output.append(0x0A)
        atRowStart = true
        try output.flushIfFull()
    }

    /// Flushes, closes and renames the file into place.
    public mutating func commit() throws(DatasetError) {
        try output.commit()
    }

    @inline(__always) private mutating func separator() {
        if atRowStart {
            atRowStart = false
        } else {
            output.append(delimiter)
            pendingEmptyOnly = false
        }
    }
}

extension CSVTable {
    /// Writes the table to `path` (``CSVWriter``: written whole or not at all) with numeric
    /// `columns` appended to every row, each value rounded to `decimals` places
    /// (``CSVWriter/field(_:decimals:)``), fields separated by the table's own ``delimiter``
    /// (so a tab- or semicolon-separated input gives the same). An input column with the name of an appended one
    /// (the first such, matched as ``column(named:)`` does) is left out, so `x,y` are
    /// replaced rather than written twice. The other fields are written as read, quoted
    /// only where CSV needs it.
    /// - Precondition: every column has one value per row.
    /// - Throws: `.outputFolderMissing`, `.writeFailed`.
    /// - Complexity: O(size of the table).
    public func write(
        to path: String, replacing columns: [(name: String, values: [Double])], decimals: Int
    ) throws(DatasetError) {
        precondition(columns.allSatisfy { $0.values.count == rows.count }, "one value per row in every column")
        let drop = Set(columns.compactMap { column(named: [$0.name]) })
        let keep = header.indices.filter { !drop.contains($0) }
        var out = try CSVWriter(path: path, delimiter: delimiter)
        try out.header(keep.map { header[$0] } + columns.map(\.name))
        for (r, row) in rows.enumerated() {
            for c in keep { out.field(row[c]) }
            for column in columns { out.field(column.values[r], decimals: decimals) }
            try out.endRow()
        }
        try out.commit()
    }
}
