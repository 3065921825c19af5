/// An order of points along a Z-order (Morton) curve over their bounding box: points near each
/// other in the plane come near each other in the order, so that a batch of index queries
/// answered in it walks the same nodes one query after another, from cache rather than memory.
/// Only the speed depends on it: each query's answer is its own.
enum SpatialOrder {
    /// The rows of (xs[i], ys[i]) along the curve, 16 bits a coordinate; rows in the same cell
    /// keep their order. Coordinates that are not finite count as the box's lower corner.
    /// - Complexity: O(n) time (a radix sort of 32-bit keys), O(n) memory.
    static func zOrder(xs: [Double], ys: [Double]) -> [Int32] {
        let n = xs.count
        guard n > 1 else { return (0..<n).map { Int32($0) } }
        let cellX = quantizer(xs), cellY = quantizer(ys)
        var records = [UInt64](unsafeUninitializedCapacity: n) { buffer, count in
            for i in 0..<n {
                let key = spread(cellX(xs[i])) | spread(cellY(ys[i])) << 1
                buffer[i] = UInt64(key) << 32 | UInt64(i)
            }
            count = n
        }
        var scratch: [UInt64] = []
        RadixSort.sortRecords(&records, scratch: &scratch, bits: 11, width: 32, varying: ~0) { $0 >> 32 }
        return records.map { Int32(truncatingIfNeeded: $0) }
    }

    /// The 16-bit cell of a value, the values' range cut into 65,536 equal parts.
    private static func quantizer(_ values: [Double]) -> (Double) -> UInt32 {
        var low = Double.infinity, high = -Double.infinity
        for v in values where v.isFinite { low = min(low, v); high = max(high, v) }
        let scale = high > low ? 65535 / (high - low) : 0
        return { v in v.isFinite ? UInt32(min(65535, max(0, (v - low) * scale))) : 0 }
    }

    /// The 16 low bits of v moved to the even bit positions of the result.
    private static func spread(_ value: UInt32) -> UInt32 {
        var v = value & 0xFFFF
        v = (v | v << 8) & 0x00FF_00FF
        v = (v | v << 4) & 0x0F0F_0F0F
        v = (v | v << 2) & 0x3333_3333
        return (v | v << 1) & 0x5555_5555
    }
}
