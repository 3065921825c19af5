/// An edge and its weight, as the spanning-tree code sorts them: the Euclidean MST's candidate
/// edges (weight: the squared length), a tree handed to `HDBSCAN.fit(spanningTree:)`, the
/// edges of a `BottleneckForest`. Ends a < b.
struct WeightedEdge {
    /// Not negative, and not -0 (its bits would sort last).
    var weight: Double
    var a: Int32, b: Int32

    /// Whether `self` comes before `other` in (weight, a, b) order.
    @inline(__always) func precedes(_ other: WeightedEdge) -> Bool {
        (weight, a, b) < (other.weight, other.a, other.b)
    }

    /// Sorts by (weight, a, b): a least-significant-digit radix sort of the records on the 32
    /// bits of the weight below its highest varying bit (digits as `RadixSort`'s: 11 bits below
    /// 2^20 records, 16 above), then each run equal in those bits by the full key, where it is
    /// not in order already (runs are nearly all exact ties). Records already in weight order
    /// (a Kruskal's output) skip the radix sort. Weights must not be negative (their bit
    /// patterns are sorted).
    static func sort(_ edges: inout [WeightedEdge]) {
        let n = edges.count
        guard n > 1 else { return }
        var allAnd = UInt64.max, allOr: UInt64 = 0, previous: UInt64 = 0, ascending = true
        for e in edges {
            let bits = e.weight.bitPattern
            allAnd &= bits; allOr |= bits
            ascending = ascending && bits >= previous
            previous = bits
        }
        if ascending {
            edges.withUnsafeMutableBufferPointer { orderRuns($0, shift: 0) }
            return
        }
        let varying = allAnd ^ allOr
        let shift = UInt64(max(0, 64 - varying.leadingZeroBitCount - 32))
        if varying != 0 {
            let bits = n < 1 << 20 ? 11 : 16
            var scratch: [WeightedEdge] = []
            RadixSort.sortRecords(&edges, scratch: &scratch, bits: bits, width: 32,
                                  varying: (varying >> shift) & 0xFFFF_FFFF) {
                UInt64(UInt32(truncatingIfNeeded: $0.weight.bitPattern >> shift))
            }
        }
        edges.withUnsafeMutableBufferPointer { orderRuns($0, shift: shift) }
    }

    /// Puts each run of `edges` equal in the weight bits from `shift` up in (weight, a, b)
    /// order; a run already in order is only read.
    private static func orderRuns(_ edges: UnsafeMutableBufferPointer<WeightedEdge>, shift: UInt64) {
        var start = 0
        while start < edges.count {
            let key = edges[start].weight.bitPattern >> shift
            var end = start + 1, ordered = true
            while end < edges.count && edges[end].weight.bitPattern >> shift == key {
                ordered = ordered && !edges[end].precedes(edges[end - 1])
                end += 1
            }
            if !ordered {
                var run = UnsafeMutableBufferPointer(rebasing: edges[start..<end])
                run.sort { $0.precedes($1) }
            }
            start = end
        }
    }
}
