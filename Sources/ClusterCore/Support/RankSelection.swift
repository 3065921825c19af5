// Selection by rank, shared by the k-d trees' builders (planar and on the sphere).

/// Puts the element of rank `k` at position `k` of a range, none before it greater and none
/// after it smaller (the k-d trees' median split; the maps' quantiles).
package enum RankSelection {
    /// The elements of `ranks` (ascending, each in `values.indices`) of `values`: what
    /// `values.sorted()[r]` gives for each rank r, without sorting. Finite values only.
    /// - Complexity: O(n) for each rank.
    package static func ranked(_ values: [Double], _ ranks: [Int]) -> [Double] {
        var copy = values
        return copy.withUnsafeMutableBufferPointer { b in
            var lo = 0
            return ranks.map { k in
                precondition(k >= lo && k < b.count, "ranks ascending within the values")
                // What is after rank `lo` is no smaller than it: the next rank is found there.
                select(b.baseAddress!, lo: lo, hi: b.count, k: k) { $0 }
                lo = k
                return b[k]
            }
        }
    }

    /// Floyd and Rivest's selection (SELECT, CACM 1975): on a large range it first selects
    /// within a small sample around the expected rank, so the pivot lands next to rank `k` and
    /// one partition pass nearly finishes the job; the partition is branch-free (below).
    /// Both the sampling and the branch-free partition made the build faster than the
    /// quickselect it replaced (median-of-three pivot, Hoare partition; docs/performance.md).
    /// Keys equal to the pivot are gathered in one extra pass, so runs of duplicate coordinates
    /// cannot make it quadratic. Pure IEEE arithmetic (no libm), so the tree is the same on
    /// every platform.
    @inline(__always)
    static func select<E>(_ e: UnsafeMutablePointer<E>, lo: Int, hi: Int, k: Int, key: (E) -> Double) {
        var left = lo, right = hi - 1  // inclusive bounds
        while right > left {
            if right - left > 600 {
                // Recurse on a sample of about n^(2/3)/2 entries whose expected ranks bracket k.
                let n = Double(right - left + 1)
                let i = Double(k - left + 1)
                let z = Double(Int.bitWidth - (right - left + 1).leadingZeroBitCount) * 0.6931471805599453
                // n^(2/3) as n^(1/2 + 1/8 + 1/32 + 1/128) = n^0.664, from square roots alone.
                let r2 = n.squareRoot(), r8 = r2.squareRoot().squareRoot()
                let r32 = r8.squareRoot().squareRoot(), r128 = r32.squareRoot().squareRoot()
                let s = 0.5 * r2 * r8 * r32 * r128
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i < n / 2 ? -1 : 1)
                let newLeft = max(left, Int(Double(k) - i * s / n + sd))
                let newRight = min(right, Int(Double(k) + (n - i) * s / n + sd))
                select(e, lo: newLeft, hi: newRight + 1, k: k, key: key)
            }
            // Branch-free Lomuto partition around the pivot t = key(e[k]), parked at `left`:
            // every entry is swapped and the boundary advances by the comparison's result, so
            // there are no mispredicted branches (a compare-and-branch partition mispredicts
            // about half of them on coordinates).
            (e[left], e[k]) = (e[k], e[left])
            let t = key(e[left])
            var j = left + 1, equal = 0
            for i in (left + 1)...right {
                let x = e[i]
                let kx = key(x)
                e[i] = e[j]
                e[j] = x
                j += kx < t ? 1 : 0
                equal += kx == t ? 1 : 0
            }
            let p = j - 1
            (e[left], e[p]) = (e[p], e[left])
            // Now keys in left..<p are < t, key(e[p]) == t, keys in p+1...right are >= t.
            if k == p { return }
            if k < p { right = p - 1; continue }
            if equal == 0 { left = p + 1; continue }
            // Keys equal to the pivot come next, so a run of duplicates is settled at once.
            var m = p + 1
            for i in (p + 1)...right {
                let x = e[i]
                let same = key(x) == t
                e[i] = e[m]
                e[m] = x
                m += same ? 1 : 0
            }
            if k < m { return }
            left = m
        }
    }
}
