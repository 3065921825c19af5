#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Content hashes that identify what a benchmark row ran on and what it produced.
public enum Fingerprint {
    /// SHA-256 of the bytes, first 16 hex digits (64 bits: collisions among a user's datasets
    /// and partitions are not a concern at that length).
    static func short(_ digest: [UInt8]) -> String {
        digest.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The hash of a partition that does not depend on how clusters are numbered: clusters are
    /// renumbered 0, 1, … in the order of their first row (noise stays -1), then the labels
    /// are hashed in row order as little-endian 32-bit integers. Two labelings get the same hash
    /// exactly when they put the same rows together and call the same rows noise.
    /// - Complexity: O(n).
    public static func partition(_ labels: [Int32]) -> String {
        var renumbered = [Int32: Int32]()
        var hasher = SHA256Hasher()
        var buffer = [UInt8]()
        buffer.reserveCapacity(1 << 16)
        for l in labels {
            var v: Int32 = -1
            if l >= 0 {
                if let r = renumbered[l] { v = r } else { v = Int32(renumbered.count); renumbered[l] = v }
            }
            let u = UInt32(bitPattern: v)
            buffer.append(UInt8(truncatingIfNeeded: u)); buffer.append(UInt8(truncatingIfNeeded: u >> 8))
            buffer.append(UInt8(truncatingIfNeeded: u >> 16)); buffer.append(UInt8(truncatingIfNeeded: u >> 24))
            if buffer.count >= 1 << 16 { hasher.update(buffer); buffer.removeAll(keepingCapacity: true) }
        }
        hasher.update(buffer)
        return short(hasher.finalize())
    }

    /// The full SHA-256 of `bytes` as 64 hex digits (tests compare it with `sha256sum`).
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var hasher = SHA256Hasher()
        hasher.update(bytes)
        return hasher.finalize().map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// SHA-256 of a text's UTF-8 bytes (first 16 hex digits).
    public static func text(_ s: String) -> String {
        var hasher = SHA256Hasher()
        hasher.update(Array(s.utf8))
        return short(hasher.finalize())
    }

    /// SHA-256 of a file's bytes (first 16 hex digits), read in 1 MiB blocks.
    /// - Throws: `HarnessError.bench` when the file cannot be read.
    public static func file(_ path: String) throws(HarnessError) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw .bench("\(path): cannot be read (\(String(cString: strerror(errno)))); check that it exists and is readable")
        }
        defer { close(fd) }
        var hasher = SHA256Hasher()
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = block.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .bench("\(path): reading failed (\(String(cString: strerror(errno))))")
            }
            if n == 0 { break }
            hasher.update(block[0..<n])
        }
        return short(hasher.finalize())
    }
}
