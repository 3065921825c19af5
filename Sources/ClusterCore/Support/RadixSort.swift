/// Stable radix sorts: of non-negative doubles (edge weights) by `stableOrder`, and of records
/// by a 64-bit key by `sortRecords`.
///
/// Hand-written because the standard library's comparison sort was several times slower on
/// an MST's edges (docs/performance.md). For non-negative IEEE doubles the bit pattern read
/// as an unsigned integer orders exactly like the value.
///
/// Only 32 bits of each key are radix-sorted: the 32 bits below the highest bit that varies
/// across the keys (bits above it are the same in every key). Keys equal in those bits then
/// form runs, put in order by their full value afterwards; on MST weights such runs are almost
/// all exact ties (already in order), since 32 bits below the top varying one separate
/// values far below a millimetre. Sorting half the key width halves the passes, which with
/// the fix-up is faster than sorting 64-bit keys (docs/performance.md). Digits are 11 bits
/// below 2^20 keys, 16 above (65,536 counters cost more to clear and sum than they save on
/// small inputs); a pass whose digit is the same for every key is skipped.
///
/// With several threads the keys are cut into one contiguous block per thread: each thread
/// counts its block, and its block's keys go after those of earlier blocks within every
/// bucket, so the scatter runs in parallel and the result is the same stable order.
@_spi(Sorting) public enum RadixSort {
    /// The permutation that sorts `values` ascending, equal values keeping their order.
    /// - Precondition: every value is >= 0 and not NaN.
    /// - Complexity: O(n) time for the radix passes (at most 3), plus the ordering of runs
    ///   equal in the 32 sorted bits (O(m log m) for a run of m; runs of distinct values are
    ///   rare on real weights); O(n) memory; identical for any `threads`.
    static func stableOrder(of values: [Double], threads: Int = 1) -> [Int32] {
        let n = values.count
        // Inputs below 2^18 are not worth a second thread (measured no faster on two).
        let blocks = n < 1 << 18 ? 1 : Parallel.workers(threads)
        if n < 2 { return (0..<n).map { Int32($0) } }
        // The bits that vary: where AND and OR of all keys differ.
        var allAnd = UInt64.max, allOr: UInt64 = 0
        for v in values { let b = v.bitPattern; allAnd &= b; allOr |= b }
        let varying = allAnd ^ allOr
        if varying == 0 { return [Int32].filled(count: n, threads: blocks) { Int32($0) } }
        let top = 63 - varying.leadingZeroBitCount
        let shift = UInt64(max(0, top + 1 - 32))
        var keys = [UInt32].filled(count: n, threads: blocks) {
            UInt32(truncatingIfNeeded: values[$0].bitPattern >> shift)
        }
        var order = [Int32].filled(count: n, threads: blocks) { Int32($0) }
        // Scatter targets: every pass writes them whole before they are read (and at least
        // one pass runs, the one holding the top varying bit), so they start uninitialised.
        var keys2 = [UInt32](unsafeUninitializedCapacity: n) { _, count in count = n }
        var order2 = [Int32](unsafeUninitializedCapacity: n) { _, count in count = n }
        let varying32 = UInt32(truncatingIfNeeded: varying >> shift)
        let bits = n < 1 << 20 ? 11 : 16
        let buckets = 1 << bits, mask = UInt32(buckets - 1), passes = (32 + bits - 1) / bits
        let blockSize = (n + blocks - 1) / blocks
        func block(_ b: Int) -> Range<Int> { min(n, b * blockSize)..<min(n, (b + 1) * blockSize) }
        // counts[block * buckets + digit], recounted for every pass: a block's keys change
        // from pass to pass.
        var counts = [Int32](repeating: 0, count: blocks * buckets)
        for p in 0..<passes {
            let shift = UInt32(p * bits)
            if (varying32 >> shift) & mask == 0 { continue }
            keys.withUnsafeBufferPointer { k in
            counts.withUnsafeMutableBufferPointer { h in
                let hs = SharedBuffer(base: h.baseAddress!)
                Parallel.forEachChunk(count: blocks, grain: 1, threads: blocks) { chunk, _ in
                    for b in chunk {
                        let base = b * buckets
                        for d in 0..<buckets { hs[base + d] = 0 }
                        for i in block(b) { hs[base + Int((k[i] >> shift) & mask)] += 1 }
                    }
                }
            }}
            // Exclusive offsets: bucket-major, then block order.
            var sum: Int32 = 0
            for d in 0..<buckets {
                for b in 0..<blocks {
                    let i = b * buckets + d
                    let c = counts[i]; counts[i] = sum; sum += c
                }
            }
            keys.withUnsafeBufferPointer { k in
            order.withUnsafeBufferPointer { o in
            keys2.withUnsafeMutableBufferPointer { k2 in
            order2.withUnsafeMutableBufferPointer { o2 in
            counts.withUnsafeMutableBufferPointer { h in
                let ks = SharedBuffer(base: k2.baseAddress!), os = SharedBuffer(base: o2.baseAddress!)
                let hs = SharedBuffer(base: h.baseAddress!)
                Parallel.forEachChunk(count: blocks, grain: 1, threads: blocks) { chunk, _ in
                    for b in chunk {
                        let base = b * buckets
                        for i in block(b) {
                            let slot = base + Int((k[i] >> shift) & mask)
                            let dst = Int(hs[slot])
                            hs[slot] = Int32(dst + 1)
                            ks[dst] = k[i]
                            os[dst] = o[i]
                        }
                    }
                }
            }}}}}
            swap(&keys, &keys2)
            swap(&order, &order2)
        }
        if shift == 0 { return order }
        // Runs equal in the sorted bits, put in order by full value; within a run the indices
        // are ascending (the passes are stable), so (value, index) is the stable order.
        // (Carrying the low bits through the passes instead, to avoid reading `values` here,
        // measured slower.)
        keys.withUnsafeBufferPointer { k in
        order.withUnsafeMutableBufferPointer { o in
            var i = 0
            while i < n {
                var j = i + 1
                while j < n && k[j] == k[i] { j += 1 }
                if j - i > 1 { orderRun(o, i..<j, values) }
                i = j
            }
        }}
        return order
    }

    /// Puts `order[run]` (ascending indices) in stable order of `values`.
    private static func orderRun(_ order: UnsafeMutableBufferPointer<Int32>, _ run: Range<Int>, _ values: [Double]) {
        // Mostly exact ties: nothing to do when the values never decrease.
        var sorted = true
        for i in run.dropFirst() where values[Int(order[i])] < values[Int(order[i - 1])] { sorted = false; break }
        if sorted { return }
        if run.count <= 16 {
            for i in run.dropFirst() {
                let x = order[i], v = values[Int(x)]
                var j = i
                while j > run.lowerBound && values[Int(order[j - 1])] > v { order[j] = order[j - 1]; j -= 1 }
                order[j] = x
            }
            return
        }
        var slice = UnsafeMutableBufferPointer(rebasing: order[run])
        slice.sort { values[Int($0)] < values[Int($1)] || (values[Int($0)] == values[Int($1)] && $0 < $1) }
    }
}

extension RadixSort {
    /// Sorts `records` by `key(record)`, stably: the passes of a least-significant-digit radix
    /// sort, one per `bits`-bit digit of the key's low `width` bits, skipping a digit where
    /// `varying` (the key bits that differ between records, or all ones) has none. Through
    /// `scratch`: the caller's, possibly kept across calls, grown when shorter than `records`.
    ///
    /// The one record sort behind `WeightedEdge.sort` and the Pins cut's sorts by cell and by
    /// token. `@inlinable` so that each caller's record type and `key` are specialised into the
    /// passes; SPI rather than `package` because Swift does not specialise a `package`
    /// inlinable body holding closures in another module (measured on the Pins build).
    /// Import it with `@_spi(Sorting) import ClusterCore`.
    /// - Complexity: O((n + 2^bits) · width / bits) time; O(n) memory in `scratch`.
    @inlinable @inline(__always)
    public static func sortRecords<T>(_ records: inout [T], scratch: inout [T], bits: Int, width: UInt64,
                                       varying: UInt64, key: (T) -> UInt64) {
        let n = records.count
        if scratch.count < n { scratch = records }
        let mask = UInt64(1 << bits - 1)
        var inScratch = false
        var counts = [Int](repeating: 0, count: 1 << bits)
        records.withUnsafeMutableBufferPointer { keys in
        scratch.withUnsafeMutableBufferPointer { scratch in
        counts.withUnsafeMutableBufferPointer { counts in
            for shift in stride(from: UInt64(0), to: width, by: bits) where (varying >> shift) & mask != 0 {
                let src = inScratch ? UnsafeMutableBufferPointer(rebasing: scratch[0..<n]) : keys
                let dst = inScratch ? keys : UnsafeMutableBufferPointer(rebasing: scratch[0..<n])
                for d in 0..<counts.count { counts[d] = 0 }
                for k in src { counts[Int((key(k) >> shift) & mask)] += 1 }
                var sum = 0
                for d in 0..<counts.count { let c = counts[d]; counts[d] = sum; sum += c }
                for k in src {
                    let d = Int((key(k) >> shift) & mask)
                    dst[counts[d]] = k
                    counts[d] += 1
                }
                inScratch.toggle()
            }
            if inScratch && scratch.count != n { for i in 0..<n { keys[i] = scratch[i] } }
        }}}
        // Sorted into a scratch of the same length: exchanged rather than copied back.
        if inScratch && scratch.count == n { swap(&records, &scratch) }
    }
}
