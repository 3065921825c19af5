import CZlib

/// gzip compression (RFC 1952) by the system's zlib, for answers a client accepts gzipped.
enum Gzip {
    /// `bytes` as one gzip member, at zlib's default level.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
        guard deflateInit2_(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            preconditionFailure("zlib's deflateInit2 failed (out of memory)")
        }
        defer { deflateEnd(&stream) }
        let bound = Int(deflateBound(&stream, UInt(bytes.count)))
        var out = [UInt8](repeating: 0, count: bound)
        let status = bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(output.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        precondition(status == Z_STREAM_END, "zlib's deflate did not finish within deflateBound (status \(status))")
        out.removeLast(out.count - Int(stream.total_out))
        return out
    }
}
