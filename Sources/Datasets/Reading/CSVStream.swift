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

/// Receives the fields of a CSV file as the streaming parser finds them.
public protocol CSVVisitor {
    /// Field `index` (0-based) of the record starting on 1-based file line `line`; the bytes
    /// are valid only during the call.
    mutating func field(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, line: Int) throws(DatasetError)
    /// The current record ended; it started on 1-based file line `line` and had `fieldCount`
    /// fields, of which at least one is not empty when `hasData` (`;;;`, as spreadsheet
    /// exports leave at the end, has none). Record 0 is the header.
    mutating func endRecord(line: Int, fieldCount: Int, hasData: Bool) throws(DatasetError)
}

/// A streaming RFC 4180 parser: reads the file in fixed-size blocks, so memory stays at one
/// block plus what the visitor keeps, whatever the file size (10M-row files included).
/// Dialect: fields separated by a comma, semicolon or tab (given, or detected from the header
/// line: the one of the three it holds most of outside quotes, a comma when it holds none);
/// fields optionally in double quotes, `""` a quote inside them, quoted fields may hold
/// separators and line breaks; LF or CRLF line ends; a UTF-8 byte-order mark is skipped;
/// blank lines (including a trailing one) are not records.
///
/// Hand-written rather than CSV.swift: the reader must not hold the file in memory and must
/// hand coordinate fields to the number parser without creating strings.
public struct CSVStreamParser {
    public static let blockSize = 1 << 20

    /// The separators detected: comma, semicolon, tab.
    public static let delimiters: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]

    /// What a parse found: the number of records (header included) and the separator used.
    public struct Summary: Sendable {
        public var records: Int
        public var delimiter: UInt8
    }

    /// Parses the file at `path`, feeding `visitor`.
    /// - Parameters:
    ///   - delimiter: the field separator; nil: detected from the header line.
    ///   - encoding: the file's encoding; UTF-8 is checked, the others converted to it.
    ///   - decimalComma: the visitor reads decimal commas, so a comma separator is refused.
    /// - Throws: `.fileNotFound`, `.unreadable`, `.notUTF8` or `.invalidEncoding` naming the
    ///   line, `.unterminatedQuote` naming the line, `.invalidOption` for a comma separator
    ///   with `decimalComma`, or what the visitor throws.
    @discardableResult
    public static func parse<V: CSVVisitor>(
        path: String, delimiter: UInt8? = nil, encoding: TextEncoding = .utf8, decimalComma: Bool = false,
        into visitor: inout V
    ) throws(DatasetError) -> Summary {
        let fd = try openForReading(path)
        defer { close(fd) }
        var state = State()
        var text = try TextBlocks(path: path, encoding: encoding)
        var block = [UInt8](repeating: 0, count: blockSize)
        var first = true
        while true {
            let got = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, blockSize) }
            if got < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            try block.withUnsafeBufferPointer { (buf) throws(DatasetError) in
                try text.feed(UnsafeBufferPointer(rebasing: buf[0..<got]), final: got == 0, line: state.line) { (utf8) throws(DatasetError) in
                    var slice = utf8
                    if slice.isEmpty { return }
                    if first {
                        if slice.count >= 3, slice[0] == 0xEF, slice[1] == 0xBB, slice[2] == 0xBF {
                            slice = UnsafeBufferPointer(rebasing: slice[3...])
                        }
                        state.delimiter = delimiter ?? detectDelimiter(slice)
                        try ReadOptions.checkSeparator(state.delimiter, decimalComma: decimalComma, path: path)
                    }
                    first = false
                    try state.consume(slice, into: &visitor)
                }
            }
            if got == 0 { break }
        }
        try state.finish(path: path, into: &visitor)
        return Summary(records: state.records, delimiter: state.delimiter)
    }

    /// Parses bytes held in memory (tests, small inputs).
    @discardableResult
    public static func parse<V: CSVVisitor>(
        bytes: [UInt8], path: String, delimiter: UInt8? = nil, into visitor: inout V
    ) throws(DatasetError) -> Summary {
        var state = State()
        try bytes.withUnsafeBufferPointer { (buf) throws(DatasetError) in
            var slice = buf
            if buf.count >= 3, buf[0] == 0xEF, buf[1] == 0xBB, buf[2] == 0xBF {
                slice = UnsafeBufferPointer(rebasing: buf[3...])
            }
            state.delimiter = delimiter ?? detectDelimiter(slice)
            try state.consume(slice, into: &visitor)
        }
        try state.finish(path: path, into: &visitor)
        return Summary(records: state.records, delimiter: state.delimiter)
    }

    /// The separator of the first line of `bytes`: whichever of comma, semicolon and tab it
    /// holds most often outside double quotes (a comma on a tie or when it holds none).
    /// - Complexity: O(length of the first line).
    public static func detectDelimiter(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var counts = [0, 0, 0]
        var inQuotes = false
        for b in bytes {
            if b == UInt8(ascii: "\"") { inQuotes.toggle(); continue }
            if inQuotes { continue }
            if b == UInt8(ascii: "\n") { break }
            if let k = delimiters.firstIndex(of: b) { counts[k] += 1 }
        }
        var best = 0
        for k in 1..<counts.count where counts[k] > counts[best] { best = k }
        return delimiters[best]
    }

    /// Parser state carried across blocks.
    ///
    /// The hot loop scans a block for the next special byte (comma, quote, CR, LF) and hands
    /// the field between delimiters to the visitor straight out of the block. Only a field
    /// that spans two blocks, holds quotes or is followed by a bare CR is copied into
    /// `field` first; the previous loop, which appended every byte to `field`, was much
    /// slower (measured: docs/performance.md).
    struct State {
        /// Bytes of the current field held over: a field spanning blocks, or one with quotes.
        var field: [UInt8] = []
        var fieldIndex = 0
        var inQuotes = false
        var afterQuote = false   // just closed a quoted section (a "" pair may follow)
        var pendingCR = false
        var recordHasContent = false
        /// Whether a field of the current record holds a byte (not only separators).
        var recordHasData = false
        var line = 1
        var recordLine = 1
        var quoteLine = 0
        var records = 0
        /// The field separator (a comma unless the caller detected or chose another).
        var delimiter = UInt8(ascii: ",")

        init() { field.reserveCapacity(256) }

        /// Ends the current field, whose last bytes are `tail` (earlier ones, if any, are in
        /// `field`).
        @inline(__always)
        mutating func emitField<V: CSVVisitor>(_ tail: UnsafeBufferPointer<UInt8>, _ visitor: inout V) throws(DatasetError) {
            if field.isEmpty {
                try visitor.field(tail, index: fieldIndex, line: recordLine)
            } else {
                field.append(contentsOf: tail)
                try field.withUnsafeBufferPointer { (b) throws(DatasetError) in try visitor.field(b, index: fieldIndex, line: recordLine) }
                field.removeAll(keepingCapacity: true)
            }
            fieldIndex += 1
        }

        /// Ends the current record (a blank line is none), its last field ending with `tail`.
        @inline(__always)
        mutating func endRecord<V: CSVVisitor>(_ tail: UnsafeBufferPointer<UInt8>, _ visitor: inout V) throws(DatasetError) {
            if recordHasContent || !tail.isEmpty {
                try emitField(tail, &visitor)
                try visitor.endRecord(line: recordLine, fieldCount: fieldIndex, hasData: recordHasData || !tail.isEmpty)
                records += 1
            }
            field.removeAll(keepingCapacity: true)
            fieldIndex = 0
            recordHasContent = false
            recordHasData = false
        }

        mutating func consume<V: CSVVisitor>(_ bytes: UnsafeBufferPointer<UInt8>, into visitor: inout V) throws(DatasetError) {
            let quote = UInt8(ascii: "\""), comma = delimiter, lf = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
            // Every byte above `top` is plain data: for a comma or tab separator that is every
            // digit, letter, '.' and '-', so nearly every byte costs one test.
            let top = max(comma, quote)
            let n = bytes.count
            var i = 0
            while i < n {
                if pendingCR {
                    pendingCR = false
                    if bytes[i] == lf {
                        try endRecord(UnsafeBufferPointer(rebasing: bytes[i..<i]), &visitor)
                        line += 1; recordLine = line; i += 1
                        continue
                    }
                    // A CR not followed by LF is data.
                    field.append(cr); recordHasContent = true; recordHasData = true
                }
                if inQuotes {
                    var j = i
                    while j < n && bytes[j] != quote {
                        if bytes[j] == lf { line += 1 }
                        j += 1
                    }
                    field.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<j]))
                    if j == n { return }
                    inQuotes = false; afterQuote = true; i = j + 1
                    continue
                }
                if afterQuote {
                    afterQuote = false
                    if bytes[i] == quote { field.append(quote); inQuotes = true; i += 1; continue }
                }
                // Unquoted: find the next special byte (see `top`).
                var j = i
                while j < n {
                    let b = bytes[j]
                    if b > top || (b != comma && b != quote && b != lf && b != cr) { j += 1 } else { break }
                }
                let run = UnsafeBufferPointer(rebasing: bytes[i..<j])
                if j == n {
                    // The field goes on in the next block.
                    if !run.isEmpty { field.append(contentsOf: run); recordHasContent = true; recordHasData = true }
                    return
                }
                if !run.isEmpty { recordHasContent = true; recordHasData = true }
                switch bytes[j] {
                case comma:
                    recordHasContent = true
                    try emitField(run, &visitor)
                    i = j + 1
                case lf:
                    try endRecord(run, &visitor)
                    line += 1; recordLine = line; i = j + 1
                case cr:
                    if j + 1 < n && bytes[j + 1] == lf {
                        try endRecord(run, &visitor)
                        line += 1; recordLine = line; i = j + 2
                    } else {
                        field.append(contentsOf: run); pendingCR = true; i = j + 1
                    }
                default: // quote
                    field.append(contentsOf: run)
                    inQuotes = true; quoteLine = line; recordHasContent = true; recordHasData = true
                    i = j + 1
                }
            }
        }

        mutating func finish<V: CSVVisitor>(path: String, into visitor: inout V) throws(DatasetError) {
            if inQuotes { throw .unterminatedQuote(path: path, line: quoteLine) }
            pendingCR = false
            try endRecord(UnsafeBufferPointer(start: nil, count: 0), &visitor)
        }
    }
}
