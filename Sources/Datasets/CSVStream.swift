import Foundation

/// Receives the fields of a CSV file as the streaming parser finds them.
public protocol CSVVisitor {
    /// Field `index` (0-based) of the record starting on 1-based file line `line`; the bytes
    /// are valid only during the call.
    mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError)
    /// The current record ended; it started on 1-based file line `line` and had `fieldCount`
    /// fields. Record 0 is the header.
    mutating func endRecord(line: Int, fieldCount: Int) throws(DatasetError)
}

/// A streaming RFC 4180 parser: reads the file in fixed-size blocks, so memory stays at one
/// block plus what the visitor keeps, whatever the file size (10M-row files included).
/// Dialect: comma-separated; fields optionally in double quotes, `""` a quote inside them,
/// quoted fields may hold commas and line breaks; LF or CRLF line ends; a UTF-8 byte-order
/// mark is skipped; blank lines (including a trailing one) are not records.
///
/// Hand-written rather than CSV.swift: the reader must not hold the file in memory and must
/// hand coordinate fields to the number parser without creating strings.
public struct CSVStreamParser {
    public static let blockSize = 1 << 20

    /// Parses the file at `path`, feeding `visitor`. Returns the number of records (header
    /// included).
    /// - Throws: `.fileNotFound`, `.unreadable`, `.unterminatedQuote` naming the line, or what
    ///   the visitor throws.
    public static func parse<V: CSVVisitor>(path: String, into visitor: inout V) throws(DatasetError) -> Int {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else { throw .fileNotFound(path: path) }
        if isDir.boolValue { throw .unreadable(path: path, reason: "it is a folder") }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var state = State()
        var block = [UInt8](repeating: 0, count: blockSize)
        var first = true
        while true {
            let got = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, blockSize) }
            if got < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { break }
            try block.withUnsafeBufferPointer { (buf) throws(DatasetError) in
                var slice = UnsafeBufferPointer(rebasing: buf[0..<got])
                if first, got >= 3, slice[0] == 0xEF, slice[1] == 0xBB, slice[2] == 0xBF {
                    slice = UnsafeBufferPointer(rebasing: slice[3...])
                }
                first = false
                try state.consume(slice, into: &visitor)
            }
        }
        try state.finish(path: path, into: &visitor)
        return state.records
    }

    /// Parses bytes held in memory (tests, small inputs).
    public static func parse<V: CSVVisitor>(bytes: [UInt8], path: String, into visitor: inout V) throws(DatasetError) -> Int {
        var state = State()
        try bytes.withUnsafeBufferPointer { (buf) throws(DatasetError) in
            var slice = buf
            if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF {
                slice = UnsafeBufferPointer(rebasing: buf[3...])
            }
            try state.consume(slice, into: &visitor)
        }
        try state.finish(path: path, into: &visitor)
        return state.records
    }

    /// Parser state carried across blocks.
    struct State {
        var field: [UInt8] = []
        var fieldIndex = 0
        var inQuotes = false
        var afterQuote = false   // just closed a quoted section (a "" pair may follow)
        var pendingCR = false
        var recordHasContent = false
        var line = 1
        var recordLine = 1
        var quoteLine = 0
        var records = 0

        init() { field.reserveCapacity(256) }

        mutating func emitField<V: CSVVisitor>(_ visitor: inout V) throws(DatasetError) {
            try field.withUnsafeBufferPointer { (b) throws(DatasetError) in try visitor.field(b, index: fieldIndex, line: recordLine) }
            field.removeAll(keepingCapacity: true)
            fieldIndex += 1
        }

        mutating func endRecord<V: CSVVisitor>(_ visitor: inout V) throws(DatasetError) {
            if recordHasContent {
                try emitField(&visitor)
                try visitor.endRecord(line: recordLine, fieldCount: fieldIndex)
                records += 1
            }
            field.removeAll(keepingCapacity: true)
            fieldIndex = 0
            recordHasContent = false
        }

        mutating func consume<V: CSVVisitor>(_ bytes: UnsafeBufferPointer<UInt8>, into visitor: inout V) throws(DatasetError) {
            let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
            for b in bytes {
                if pendingCR {
                    pendingCR = false
                    if b != lf { field.append(cr); recordHasContent = true }
                }
                if inQuotes {
                    if b == quote { inQuotes = false; afterQuote = true; continue }
                    if b == lf { line += 1 }
                    field.append(b)
                    continue
                }
                if afterQuote {
                    afterQuote = false
                    if b == quote { field.append(quote); inQuotes = true; continue }
                }
                switch b {
                case quote:
                    inQuotes = true; quoteLine = line; recordHasContent = true
                case comma:
                    recordHasContent = true
                    try emitField(&visitor)
                case cr:
                    pendingCR = true
                case lf:
                    try endRecord(&visitor)
                    line += 1
                    recordLine = line
                default:
                    field.append(b); recordHasContent = true
                }
            }
        }

        mutating func finish<V: CSVVisitor>(path: String, into visitor: inout V) throws(DatasetError) {
            if inQuotes { throw .unterminatedQuote(path: path, line: quoteLine) }
            if pendingCR { pendingCR = false }
            try endRecord(&visitor)
        }
    }
}

/// Parses a decimal number from field bytes without creating a String.
@inline(__always)
func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    // Trim spaces; strtod needs a NUL-terminated copy, made on the stack for short fields.
    var lo = 0, hi = bytes.count
    while lo < hi && bytes[lo] == 0x20 { lo += 1 }
    while hi > lo && bytes[hi - 1] == 0x20 { hi -= 1 }
    let len = hi - lo
    if len == 0 || len > 63 { return len == 0 ? nil : Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[lo..<hi]), as: UTF8.self)) }
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { tmp -> Double? in
        for i in 0..<len { tmp[i] = CChar(bitPattern: bytes[lo + i]) }
        tmp[len] = 0
        var end: UnsafeMutablePointer<CChar>? = nil
        let v = strtod(tmp.baseAddress!, &end)
        guard let e = end, e - tmp.baseAddress! == len else { return nil }
        return v
    }
}
