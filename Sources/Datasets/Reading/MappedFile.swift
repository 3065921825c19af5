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

/// A whole file's bytes, memory-mapped (so a large GeoJSON file costs address space, not
/// heap), with the errors of Datasets for missing, unreadable and empty files. The bytes are
/// UTF-8: checked when the file is, converted to it (and then held in memory) when it is in
/// another ``TextEncoding``.
final class MappedFile {
    let path: String
    private let base: UnsafeMutableRawPointer?
    let count: Int
    /// The file converted to UTF-8, when it was in another encoding.
    private let converted: [UInt8]?
    /// Whether `withBytes` hands out the mapped file itself (pages behind a reader can then be
    /// given back with `madvise`, and read again from the file).
    var isMapped: Bool { converted == nil }

    /// Maps `path` read-only; checks it is UTF-8 on `threads` threads, or converts it from
    /// `encoding`.
    /// - Throws: `.fileNotFound`, `.unreadable` (also for a folder); `.notUTF8`,
    ///   `.invalidEncoding` naming the line.
    init(path: String, encoding: TextEncoding = .utf8, threads: Int = 1) throws(DatasetError) {
        let fd = try openForReading(path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        let size = Int(info.st_size)
        if size == 0 { base = nil; count = 0; converted = nil; return }
        // mmap: MAP_FAILED ((void *)-1) on failure, reason in errno.
        guard let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        let bytes = p.assumingMemoryBound(to: UInt8.self)
        if encoding == .utf8 {
            if let offset = UTF8Check.firstInvalid(bytes, size, threads: threads) {
                let error = UTF8Check.notUTF8(bytes, size, offset: offset, path: path)
                munmap(p, size)
                throw error
            }
            base = p; count = size; converted = nil
            return
        }
        defer { munmap(p, size) }
        var out: [UInt8] = []
        switch try Transcoder(encoding).convert(UnsafeBufferPointer(start: bytes, count: size), final: true, into: &out) {
        case .converted: break
        case .invalid(let offset):
            let at = UTF8Check.position(bytes, offset)
            throw .invalidEncoding(path: path, line: at.line, column: at.column, byte: bytes[offset], encoding: encoding)
        }
        base = nil; count = out.count; converted = out
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// Calls `body` with the file's bytes (empty for an empty file), valid during the call.
    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        if let converted { return try converted.withUnsafeBufferPointer { (b) throws(E) -> R in try body(b) } }
        guard let base else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
    }
}
