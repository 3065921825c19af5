import CDeflate
import Synchronization

/// gzip compression (RFC 1952) of whole answers, by libdeflate at its fastest level.
///
/// libdeflate rather than zlib because it measured several times faster on the server's tiles
/// (docs/performance.md, "Serving pins"), and the answers are whole buffers, which is what it
/// compresses; level 1 because higher levels saved little of a tile's bytes for much more CPU.
/// Compressors are kept for the next answer instead of made anew (each holds its tables).
enum Gzip {
    /// A compressor; used by one answer at a time (taken from `idle`, given back).
    private struct Compressor: @unchecked Sendable {
        let handle: OpaquePointer
    }

    /// Compressors not in use.
    private static let idle = Mutex<[Compressor]>([])

    /// `bytes` as one gzip member.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        let compressor = idle.withLock { $0.popLast() } ?? makeCompressor()
        defer { idle.withLock { $0.append(compressor) } }
        let bound = libdeflate_gzip_compress_bound(compressor.handle, bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let written = bytes.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                libdeflate_gzip_compress(compressor.handle, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        precondition(written > 0, "libdeflate did not fit a gzip member within its own bound")
        out.removeLast(out.count - written)
        return out
    }

    private static func makeCompressor() -> Compressor {
        guard let handle = libdeflate_alloc_compressor(1) else { preconditionFailure("libdeflate_alloc_compressor failed (out of memory)") }
        return Compressor(handle: handle)
    }
}
