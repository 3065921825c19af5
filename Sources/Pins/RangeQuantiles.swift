/// Exact order statistics (the k-th smallest, hence medians) of any contiguous range of a
/// fixed array of Doubles, in O(log σ) per query for σ distinct values: a wavelet matrix
/// (Claude, Navarro & Ordóñez 2015) over the values' ranks. NaN (a missing value) ranks above
/// every number and is counted apart, so medians are over the values present.
///
/// Memory: about `n · log2(σ) · 1.5 / 8` bytes plus 4 bytes a value for the present count.
struct RangeQuantiles: Sendable {
    /// The distinct values present, ascending (rank → value).
    let values: [Double]
    /// Levels from the top bit down: bits (64 a word) and the 1s before each word.
    let bits: [[UInt64]]
    let ones: [[UInt32]]
    /// Zeros on each level (the 1s of a level start after them on the next).
    let zeros: [Int]
    /// Present (non-NaN) values among the first r.
    let presentPrefix: [UInt32]
    /// Each position's rank in `values` (`values.count` for NaN), for medians over a subset
    /// by counting (`median(counts:present:)`).
    let ranks: [UInt32]
    let count: Int

    /// - Complexity: O(n + σ log σ) expected for the ranks plus O(n log σ).
    init(_ column: [Double]) {
        count = column.count
        let ranked = Self.ranks(of: column)
        values = ranked.values
        ranks = ranked.ranks
        presentPrefix = ranked.presentPrefix
        let sigma = ranked.values.count + 1                // + the rank of NaN
        var width = 1
        while (1 << width) < sigma { width += 1 }
        (bits, ones, zeros) = Self.levels(ranked.ranks, width: width)
    }

    /// The distinct values present, ascending; each position's rank among them (their count
    /// for NaN); and the number of present values before each position.
    /// - Complexity: O(n + σ log σ) expected.
    private static func ranks(of column: [Double]) -> (values: [Double], ranks: [UInt32], presentPrefix: [UInt32]) {
        let n = column.count
        // One pass: each value's first-seen number through a hash table of the distinct
        // values' bit patterns (−0 as +0; a column holds a few thousand distinct values, so the
        // table stays in cache); then the distinct values are sorted and the numbers become
        // ranks. (A radix sort of the whole column and a binary search per value took several
        // times as long.)
        var capacity = 1 << 10
        var tableKeys = [UInt64](repeating: 0, count: capacity)
        var tableSeen = [UInt32](repeating: .max, count: capacity)
        var seen: [UInt64] = []                      // bit patterns by first-seen number
        var prefix = [UInt32](repeating: 0, count: n + 1)
        var codes = [UInt32](repeating: 0, count: n)
        @inline(__always) func slot(_ bits: UInt64, _ mask: Int) -> Int {
            var h = bits &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            return Int(truncatingIfNeeded: h >> 20) & mask
        }
        column.withUnsafeBufferPointer { column in
        prefix.withUnsafeMutableBufferPointer { prefix in
        codes.withUnsafeMutableBufferPointer { codes in
            for i in 0..<n {
                let v = column[i]
                if v.isNaN {
                    codes[i] = .max
                    prefix[i + 1] = prefix[i]
                    continue
                }
                prefix[i + 1] = prefix[i] + 1
                let bits = v == 0 ? 0 : v.bitPattern
                if 2 * seen.count >= capacity {
                    capacity *= 2
                    tableKeys = [UInt64](repeating: 0, count: capacity)
                    tableSeen = [UInt32](repeating: .max, count: capacity)
                    for (k, b) in seen.enumerated() {
                        var s = slot(b, capacity - 1)
                        while tableSeen[s] != .max { s = (s + 1) & (capacity - 1) }
                        tableKeys[s] = b; tableSeen[s] = UInt32(k)
                    }
                }
                let found: UInt32 = tableKeys.withUnsafeMutableBufferPointer { keys in
                    tableSeen.withUnsafeMutableBufferPointer { numbers in
                        var s = slot(bits, capacity - 1)
                        while true {
                            if numbers[s] == .max {
                                keys[s] = bits; numbers[s] = UInt32(seen.count)
                                seen.append(bits)
                                return numbers[s]
                            }
                            if keys[s] == bits { return numbers[s] }
                            s = (s + 1) & (capacity - 1)
                        }
                    }
                }
                codes[i] = found
            }
        }}}
        var byValue = Array(0..<UInt32(seen.count))
        byValue.sort { Double(bitPattern: seen[Int($0)]) < Double(bitPattern: seen[Int($1)]) }
        let distinct = byValue.map { Double(bitPattern: seen[Int($0)]) }
        var rankOf = [UInt32](repeating: 0, count: seen.count + 1)
        for (r, k) in byValue.enumerated() { rankOf[Int(k)] = UInt32(r) }
        rankOf[seen.count] = UInt32(distinct.count)  // NaN ranks above every number
        codes.withUnsafeMutableBufferPointer { codes in
            rankOf.withUnsafeBufferPointer { rankOf in
                let nan = seen.count
                for i in 0..<n { codes[i] = rankOf[codes[i] == .max ? nan : Int(codes[i])] }
            }
        }
        return (distinct, codes, prefix)
    }

    /// The wavelet matrix's levels over `ranks` (codes of `width` bits), from the top bit
    /// down: each level's bit words, the 1s before each word, and its zeros.
    /// - Complexity: O(n · width).
    private static func levels(_ ranks: [UInt32], width: Int) -> (bits: [[UInt64]], ones: [[UInt32]], zeros: [Int]) {
        let n = ranks.count
        var codes = ranks
        var levelBits: [[UInt64]] = [], levelOnes: [[UInt32]] = [], levelZeros: [Int] = []
        let words = n / 64 + 1
        // The ones on each level do not depend on the order the levels above leave the codes
        // in: counted for all levels in one pass, so that each level is then one pass that
        // writes its bit words and partitions the codes together (three passes a level before).
        var onesAt = [Int](repeating: 0, count: width)
        codes.withUnsafeBufferPointer { codes in
            for c in codes { var c = c, b = 0; while c != 0 { onesAt[b] += Int(c & 1); c >>= 1; b += 1 } }
        }
        var next = [UInt32](repeating: 0, count: n)
        for level in stride(from: width - 1, through: 0, by: -1) {
            var b = [UInt64](repeating: 0, count: words)
            var o = [UInt32](repeating: 0, count: words + 1)
            let z = n - onesAt[level]
            let shift = UInt32(level)
            b.withUnsafeMutableBufferPointer { b in
            o.withUnsafeMutableBufferPointer { o in
            codes.withUnsafeMutableBufferPointer { codes in
            next.withUnsafeMutableBufferPointer { next in
                // Stable partition: zeros first, then ones (without a branch on the bit).
                var zi = 0, oi = z
                for w in 0..<words {
                    var word: UInt64 = 0
                    let lo = w << 6, hi = min(lo + 64, n)
                    for i in lo..<hi {
                        let c = codes[i]
                        let one = Int((c >> shift) & 1)
                        word |= UInt64(one) << UInt64(i & 63)
                        next[one == 1 ? oi : zi] = c
                        oi += one; zi += 1 - one
                    }
                    b[w] = word
                    o[w + 1] = o[w] + UInt32(word.nonzeroBitCount)
                }
                precondition(zi == z && oi == n, "the ones counted per level")
            }}}}
            swap(&codes, &next)
            levelBits.append(b); levelOnes.append(o); levelZeros.append(z)
        }
        return (levelBits, levelOnes, levelZeros)
    }

    @inline(__always)
    private func rank1(_ level: Int, _ i: Int) -> Int {
        let w = i >> 6, r = i & 63
        let word = bits[level][w]
        let below = r == 0 ? 0 : (word << UInt64(64 - r)).nonzeroBitCount
        return Int(ones[level][w]) + below
    }

    /// The k-th smallest code (0-based) among positions s..<e.
    private func kth(_ s0: Int, _ e0: Int, _ k0: Int) -> Int {
        var s = s0, e = e0, k = k0, code = 0
        for level in 0..<bits.count {
            let os = rank1(level, s), oe = rank1(level, e)
            let zerosInRange = (e - s) - (oe - os)
            code <<= 1
            if k < zerosInRange {
                s -= os; e -= oe
            } else {
                k -= zerosInRange
                code |= 1
                s = zeros[level] + os; e = zeros[level] + oe
            }
        }
        return code
    }

    /// The median of a multiset given as counts per rank (`counts[k]` values equal to
    /// `values[k]`; `present` of them in all), or nil if empty.
    /// - Complexity: O(σ).
    func median(counts: UnsafeBufferPointer<UInt32>, present: Int) -> Double? {
        if present == 0 { return nil }
        let lowerMiddle = (present - 1) / 2, upperMiddle = present / 2
        var seen = 0, a = -1
        for k in 0..<values.count {
            seen += Int(counts[k])
            if a < 0 && seen > lowerMiddle { a = k }
            if seen > upperMiddle { return values[a] + (values[k] - values[a]) / 2 }
        }
        return nil
    }

    /// The smallest, the median and the largest of the values present in `range`, or nil if
    /// none is.
    /// - Complexity: O(log σ).
    func minMedianMax(_ range: Range<Int>) -> (Double, Double, Double)? {
        let m = Int(presentPrefix[range.upperBound] - presentPrefix[range.lowerBound])
        guard m > 0, let median = median(range) else { return nil }
        return (values[kth(range.lowerBound, range.upperBound, 0)], median, values[kth(range.lowerBound, range.upperBound, m - 1)])
    }

    /// How many positions in `range` hold the value of rank `rank` (`values[rank]`).
    /// - Complexity: O(log σ).
    func occurrences(ofRank rank: Int, in range: Range<Int>) -> Int {
        var s = range.lowerBound, e = range.upperBound
        for level in 0..<bits.count {
            let os = rank1(level, s), oe = rank1(level, e)
            if (rank >> (bits.count - 1 - level)) & 1 == 0 {
                s -= os; e -= oe
            } else {
                s = zeros[level] + os; e = zeros[level] + oe
            }
        }
        return e - s
    }

    /// The median of the values present in `range` (mean of the middle two for an even
    /// count), or nil if none is.
    /// - Complexity: O(log σ).
    func median(_ range: Range<Int>) -> Double? {
        let m = Int(presentPrefix[range.upperBound] - presentPrefix[range.lowerBound])
        if m == 0 { return nil }
        if range.count <= Self.smallRange { return smallMedian(range, present: m) }
        let a = values[kth(range.lowerBound, range.upperBound, (m - 1) / 2)]
        if m % 2 == 1 { return a }
        let b = values[kth(range.lowerBound, range.upperBound, m / 2)]
        return a + (b - a) / 2
    }
}

extension RangeQuantiles {
    /// Ranges this short take their median from the ranks directly: a sort of at most this
    /// many ranks costs less than the wavelet matrix's walk down every level.
    static let smallRange = 24

    /// The median of a short range (`m` values present) from its positions' ranks, sorted.
    func smallMedian(_ range: Range<Int>, present m: Int) -> Double {
        var buffer: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                     UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &buffer) { raw in
            let r = raw.bindMemory(to: UInt32.self)
            var n = 0
            let absent = UInt32(values.count)
            for i in range where ranks[i] != absent {
                // Insertion sort as the ranks arrive.
                var j = n
                while j > 0 && r[j - 1] > ranks[i] { r[j] = r[j - 1]; j -= 1 }
                r[j] = ranks[i]
                n += 1
            }
            let a = values[Int(r[(m - 1) / 2])]
            if m % 2 == 1 { return a }
            let b = values[Int(r[m / 2])]
            return a + (b - a) / 2
        }
    }
}

/// The median of `buffer[0..<count]` (reordered), for filtered aggregates; nil if empty.
/// - Complexity: O(count) expected (quickselect with a deterministic middle pivot).
func medianInPlace(_ buffer: UnsafeMutableBufferPointer<Double>, count: Int) -> Double? {
    if count == 0 { return nil }
    func select(_ k: Int) -> Double {
        var lo = 0, hi = count - 1
        while lo < hi {
            let pivot = buffer[lo + (hi - lo) / 2]
            var i = lo, j = hi
            while i <= j {
                while buffer[i] < pivot { i += 1 }
                while buffer[j] > pivot { j -= 1 }
                if i <= j { buffer.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return buffer[k] }
        }
        return buffer[lo]
    }
    let a = select((count - 1) / 2)
    if count % 2 == 1 { return a }
    // The upper middle is the smallest value above position (count − 1) / 2 after selection.
    var b = Double.infinity
    for i in ((count - 1) / 2 + 1)..<count where buffer[i] < b { b = buffer[i] }
    return a + (b - a) / 2
}
