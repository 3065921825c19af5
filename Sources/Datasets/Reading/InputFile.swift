#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CZlib
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where every reader's bytes come from. A plain file on disk is read where it lies (mapped or
/// read in blocks). Anything else — `-` (standard input), `/dev/stdin`, a pipe, a FIFO, a
/// process substitution — and any gzip-compressed file (told by its first two bytes, not its
/// name) is copied once, decompressed, into a temporary file, which every later read of the
/// same path in this process opens instead: commands that read their input twice (`--append`
/// echoes the rows it read) see the same bytes both times. The copies are removed when the
/// process exits.
public enum InputFile {
    /// The name that stands for standard input.
    public static let standardInput = "-"

    /// The temporary copies made so far, by the path the user gave.
    private static let copies = Mutex<[String: String]>([:])

    /// Opens `path` for reading from its first byte (the caller closes the descriptor).
    /// - Throws: `.fileNotFound`; `.unreadable` for a folder, a file the process may not
    ///   read; `.damagedGzip`; `.inputCopyFailed` when the temporary copy cannot be written.
    static func open(_ path: String) throws(DatasetError) -> Int32 {
        let source = try plainPath(path)
        let fd = systemOpen(source, O_RDONLY)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return fd
    }

    /// A path to a plain, uncompressed file holding `path`'s bytes: `path` itself when it is
    /// one, else its temporary copy (made on first use). For child processes that must read
    /// the same input.
    /// - Throws: as `open`.
    public static func plainPath(_ path: String) throws(DatasetError) -> String {
        if let copy = copies.withLock({ $0[path] }) { return copy }
        let fd = try openSource(path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        let regular = (info.st_mode & S_IFMT) == S_IFREG
        if regular && path != standardInput && !startsWithGzipMagic(fd) { return path }
        let copy = try copyToTemporaryFile(fd, path: path)
        copies.withLock { $0[path] = copy }
        return copy
    }

    /// Whether `path` holds GeoJSON: by its name (`.geojson` or `.json`, before any `.gz`),
    /// else, for a name that says neither (`-`, `/dev/stdin`), by its first byte that is not
    /// white space being `{`.
    public static func isGeoJSON(_ path: String) throws(DatasetError) -> Bool {
        let ext = nameExtension(path)
        if ext == "geojson" || ext == "json" { return true }
        guard ext.isEmpty || path == standardInput else { return false }
        return try firstNonBlankByte(path) == UInt8(ascii: "{")
    }

    /// The extension of `path`'s last component, lowercased, before any `.gz` (`a.CSV.gz`:
    /// `csv`); empty when it has none.
    public static func nameExtension(_ path: String) -> String {
        var name = (path.split(separator: "/").last ?? "").lowercased()[...]
        if name.hasSuffix(".gz") { name = name.dropLast(3) }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// Whether `path` starts with a UTF-8 byte-order mark (false for a file that cannot be read).
    public static func startsWithByteOrderMark(_ path: String) -> Bool {
        guard let fd = try? open(path) else { return false }
        defer { close(fd) }
        var mark: (UInt8, UInt8, UInt8) = (0, 0, 0)
        let got = withUnsafeMutableBytes(of: &mark) { pread(fd, $0.baseAddress, 3, 0) }
        return got == 3 && mark == (0xEF, 0xBB, 0xBF)
    }

    // MARK: - Sources

    private static func openSource(_ path: String) throws(DatasetError) -> Int32 {
        if path == standardInput {
            let fd = dup(0)
            guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            return fd
        }
        let kind = fileKind(atPath: path)
        guard kind.exists else { throw .fileNotFound(path: path) }
        if kind.isFolder { throw .unreadable(path: path, reason: "it is a folder") }
        let fd = systemOpen(path, O_RDONLY)
        guard fd >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return fd
    }

    private static func startsWithGzipMagic(_ fd: Int32) -> Bool {
        var magic: (UInt8, UInt8) = (0, 0)
        let got = withUnsafeMutableBytes(of: &magic) { pread(fd, $0.baseAddress, 2, 0) }
        return got == 2 && magic.0 == 0x1F && magic.1 == 0x8B
    }

    private static func firstNonBlankByte(_ path: String) throws(DatasetError) -> UInt8? {
        let fd = try open(path)
        defer { close(fd) }
        var block = [UInt8](repeating: 0, count: 4096)
        var offset: off_t = 0
        while true {
            let got = block.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 4096, offset) }
            guard got > 0 else { return nil }
            // A UTF-8 byte-order mark is not content.
            if let b = block[0..<got].enumerated().first(where: { i, b in
                !(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D) && !(offset == 0 && i < 3 && (b == 0xEF || b == 0xBB || b == 0xBF))
            }) { return b.element }
            offset += off_t(got)
        }
    }

    // MARK: - Copies

    /// Copies everything `fd` gives, inflated when it starts with the gzip magic bytes, into a
    /// new temporary file removed at exit; returns its path.
    private static func copyToTemporaryFile(_ fd: Int32, path: String) throws(DatasetError) -> String {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(folder)/geocluster-input-XXXXXX".utf8CString)
        let out = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard out >= 0 else {
            throw .inputCopyFailed(path: path, reason: "\(folder): \(String(cString: strerror(errno)))")
        }
        let copy = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        _ = removalAtExit
        defer { close(out) }
        do {
            let sink = CopySink(fd: out, copy: copy, path: path)
            try GzipAwareReader(fd: fd, path: path).forEachBlock { (bytes) throws(DatasetError) in try sink.write(bytes) }
        } catch {
            unlink(copy)
            throw error
        }
        return copy
    }

    /// Removes the copies when the process exits (registered once, on the first copy).
    private static let removalAtExit: Void = {
        atexit {
            for copy in InputFile.copies.withLock({ Array($0.values) }) { unlink(copy) }
        }
    }()
}

/// Writes a temporary copy, with errors that name the input being copied.
private struct CopySink {
    let fd: Int32, copy: String, path: String

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(DatasetError) {
        var done = 0
        while done < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw .inputCopyFailed(path: path, reason: "\(copy): \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }
}

/// Reads a descriptor to its end in blocks, inflating gzip data (one or more members, as
/// `cat a.gz b.gz` makes) when the first bytes are gzip's magic number.
private struct GzipAwareReader {
    let fd: Int32, path: String
    static let blockSize = 1 << 20

    func forEachBlock(_ body: (UnsafeBufferPointer<UInt8>) throws(DatasetError) -> Void) throws(DatasetError) {
        var input = [UInt8](repeating: 0, count: Self.blockSize)
        var got = try readBlock(&input)
        let gzip = got >= 2 && input[0] == 0x1F && input[1] == 0x8B
        guard gzip else {
            while got > 0 {
                try input.withUnsafeBufferPointer { (b) throws(DatasetError) in try body(UnsafeBufferPointer(rebasing: b[0..<got])) }
                got = try readBlock(&input)
            }
            return
        }
        try inflateAll(first: &input, count: got, body)
    }

    private func readBlock(_ buffer: inout [UInt8]) throws(DatasetError) -> Int {
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, Self.blockSize) }
            if n >= 0 { return n }
            if errno != EINTR { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    private func damaged(_ what: String) -> DatasetError {
        .damagedGzip(path: path, reason: what)
    }

    private func inflateAll(first input: inout [UInt8], count: Int,
                            _ body: (UnsafeBufferPointer<UInt8>) throws(DatasetError) -> Void) throws(DatasetError) {
        var stream = z_stream()
        // 15 + 16: a gzip wrapper and the largest window.
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw damaged("zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Self.blockSize)
        var available = count, ended = false
        while available > 0 {
            try input.withUnsafeMutableBufferPointer { (inBuf) throws(DatasetError) in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = UInt32(available)
                while stream.avail_in > 0 {
                    if ended {
                        // Another member follows (or trailing zeros, which gzip ignores too).
                        if inBuf[available - Int(stream.avail_in)] == 0 { stream.avail_in = 0; break }
                        inflateReset(&stream); ended = false
                    }
                    let status = try output.withUnsafeMutableBufferPointer { (outBuf) throws(DatasetError) -> Int32 in
                        stream.next_out = outBuf.baseAddress
                        stream.avail_out = UInt32(Self.blockSize)
                        let status = inflate(&stream, Z_NO_FLUSH)
                        let produced = Self.blockSize - Int(stream.avail_out)
                        if produced > 0 { try body(UnsafeBufferPointer(rebasing: outBuf[0..<produced])) }
                        return status
                    }
                    switch status {
                    case Z_STREAM_END: ended = true
                    case Z_OK, Z_BUF_ERROR: break
                    default: throw damaged("its data is broken (\(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"))")
                    }
                }
            }
            available = try readBlock(&input)
        }
        guard ended else { throw damaged("it ends before its compressed data does (the file is cut short)") }
    }
}
