#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif

/// A whole file's bytes, for binary formats (a model file), with Datasets' errors for missing
/// and unreadable files; `AtomicFile.write(bytes:to:)` writes them.
public enum BinaryFile {
    /// The bytes of the file at `path`.
    /// - Throws: `.fileNotFound`, `.unreadable` (also for a folder).
    public static func read(path: String) throws(DatasetError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let got = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if got < 0 { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            if got == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<got])
        }
    }
}

extension AtomicFile {
    /// Writes `bytes` to `path` as `write(_:to:)` writes text: whole or not at all.
    public static func write(bytes: [UInt8], to path: String) throws(DatasetError) {
        var out = try AtomicOutput(path: path)
        bytes.withUnsafeBufferPointer { out.append($0) }
        try out.commit()
    }
}
