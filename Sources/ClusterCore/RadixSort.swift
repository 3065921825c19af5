/// Stable least-significant-digit radix sort of non-negative doubles (edge weights).
///
/// Hand-written because the standard library's comparison sort took about 150 ms for the 1M
/// edges of a million-point MST. For non-negative IEEE doubles the bit pattern read as an
/// unsigned integer orders exactly like the value. Measured on 1M weights (release, one
/// thread): 8-bit digits 66 ms, 11-bit 44 ms, 16-bit 35 ms — four passes win even though their
/// 65,536 counters spill out of the L1 cache. All four histograms are built in one read of the
/// keys, and a pass whose digit is the same for every key is skipped.
enum RadixSort {
    /// The permutation that sorts `values` ascending, equal values keeping their order.
    /// - Precondition: every value is >= 0 and not NaN.
    /// - Complexity: O(n) time (at most 4 passes), O(n) memory.
    static func stableOrder(of values: [Double]) -> [Int32] {
        let n = values.count
        var order = [Int32](unsafeUninitializedCapacity: n) { b, c in
            for i in 0..<n { b[i] = Int32(i) }
            c = n
        }
        if n < 2 { return order }
        var keys = values.map { $0.bitPattern }
        var keys2 = [UInt64](repeating: 0, count: n)
        var order2 = [Int32](repeating: 0, count: n)
        let bits = 16, buckets = 1 << bits, mask = UInt64(buckets - 1), passes = 64 / bits
        var counts = [Int](repeating: 0, count: buckets * passes)
        keys.withUnsafeBufferPointer { k in
        counts.withUnsafeMutableBufferPointer { h in
            for key in k {
                var shifted = key
                for p in 0..<passes { h[p * buckets + Int(shifted & mask)] += 1; shifted >>= UInt64(bits) }
            }
        }}
        for p in 0..<passes {
            let base = p * buckets
            if counts[base..<(base + buckets)].contains(n) { continue }  // one digit for all keys
            var sum = 0
            for i in base..<(base + buckets) { let c = counts[i]; counts[i] = sum; sum += c }
            let shift = UInt64(p * bits)
            keys.withUnsafeBufferPointer { k in
            order.withUnsafeBufferPointer { o in
            keys2.withUnsafeMutableBufferPointer { k2 in
            order2.withUnsafeMutableBufferPointer { o2 in
            counts.withUnsafeMutableBufferPointer { h in
                for i in 0..<n {
                    let b = base + Int((k[i] >> shift) & mask)
                    let dst = h[b]
                    h[b] = dst + 1
                    k2[dst] = k[i]
                    o2[dst] = o[i]
                }
            }}}}}
            swap(&keys, &keys2)
            swap(&order, &order2)
        }
        return order
    }
}
