/// Stable least-significant-digit radix sort of non-negative doubles (edge weights).
///
/// Hand-written because the standard library's comparison sort took about 150 ms for the 1M
/// edges of a million-point MST, against about 15 ms here. For non-negative IEEE doubles the
/// bit pattern read as an unsigned integer orders exactly like the value.
enum RadixSort {
    /// The permutation that sorts `values` ascending, equal values keeping their order.
    /// - Precondition: every value is >= 0 and not NaN.
    /// - Complexity: O(n) time (8 passes of 8 bits, skipping bytes all keys share), O(n) memory.
    static func stableOrder(of values: [Double]) -> [Int32] {
        let n = values.count
        var keys = values.map { $0.bitPattern }
        var order = [Int32](unsafeUninitializedCapacity: n) { b, c in
            for i in 0..<n { b[i] = Int32(i) }
            c = n
        }
        if n < 2 { return order }
        var keys2 = [UInt64](repeating: 0, count: n)
        var order2 = [Int32](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: 0, to: 64, by: 8) {
            for i in 0..<256 { counts[i] = 0 }
            for k in keys { counts[Int((k >> UInt64(shift)) & 0xFF)] += 1 }
            if counts.contains(n) { continue }  // every key has the same byte here
            var sum = 0
            for i in 0..<256 { let c = counts[i]; counts[i] = sum; sum += c }
            keys.withUnsafeBufferPointer { k in
            order.withUnsafeBufferPointer { o in
            keys2.withUnsafeMutableBufferPointer { k2 in
            order2.withUnsafeMutableBufferPointer { o2 in
            counts.withUnsafeMutableBufferPointer { cnt in
                for i in 0..<n {
                    let b = Int((k[i] >> UInt64(shift)) & 0xFF)
                    let dst = cnt[b]
                    cnt[b] = dst + 1
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
