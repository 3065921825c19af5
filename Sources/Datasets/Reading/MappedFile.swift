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
/// heap), with the errors of Datasets for missing, unreadable and empty files.
final class MappedFile {
    let path: String
    private let base: UnsafeMutableRawPointer?
    let count: Int

    /// Maps `path` read-only.
    /// - Throws: `.fileNotFound`, `.unreadable` (also for a folder).
    init(path: String) throws(DatasetError) {
        let fd = try openForReading(path)
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        self.path = path
        count = Int(info.st_size)
        if count == 0 { base = nil; return }
        // mmap: MAP_FAILED ((void *)-1) on failure, reason in errno.
        guard let p = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0), p != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw .unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        base = p
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// Calls `body` with the file's bytes (empty for an empty file), valid during the call.
    func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        guard let base else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count))
    }
}
