// HDBSCAN's hierarchy over a spanning tree computed elsewhere: the mutual-reachability MST of
// points the caller holds in pieces (the engines' tiled fit assembles one from many runs).

extension HDBSCAN {
    /// The stages after the MST — single linkage, condense, select, label — over a given
    /// mutual-reachability minimum spanning tree of `pointCount` points.
    ///
    /// The result is the one `fit` gives on the points whose MST this is (any of their MSTs
    /// when weights tie: the edges are taken in (weight, smaller end, larger end) order, and
    /// with `TieRule.allAtOnce` merges at one distance are condensed together, so the labels
    /// depend on the tree's weights and components alone).
    /// - Parameters:
    ///   - tree: `pointCount - 1` edges between rows `0..<pointCount`, in any order, whose
    ///     weights are finite and not negative, joining every row (a spanning tree).
    ///   - n: the number of points (rows).
    ///   - coreDistances: by row, kept as the result's `coreDistances`; nil keeps none.
    ///   - parameters: scikit-learn's parameters; `minSamples` is not used (the weights hold
    ///     the core distances).
    ///   - threads: worker threads; the output is identical for any value.
    ///   - keeping: which intermediate trees to return (all by default).
    /// - Throws: `ClusterCoreError.invalidParameter` for invalid parameters or when `tree` is
    ///   not a spanning tree of the rows (naming the first edge that is wrong).
    public static func fit(
        spanningTree tree: MinimumSpanningTree, pointCount n: Int, coreDistances: [Double]? = nil,
        parameters: HDBSCANParameters, threads: Int = 1, keeping: HDBSCANOutputs = .all
    ) throws(ClusterCoreError) -> HDBSCANResult {
        try parameters.validate()
        try checkSpanning(tree, pointCount: n)
        if let coreDistances, coreDistances.count != n {
            throw .invalidParameter(name: "coreDistances", value: "\(coreDistances.count) values",
                                    requirement: "one per point (\(n))")
        }
        let identity = (0..<Int32(n)).map { $0 }
        let tree = endOrdered(tree)
        let spanning = SpanningTree(edges: tree.a, tree.b, weights: tree.weight, index: identity, locations: nil,
                                    weightAt: nil, pointCount: n, inner: coreDistances ?? [Double](repeating: 0, count: n),
                                    threads: threads)
        var result = hierarchy(spanning, parameters: parameters, threads: threads, keeping: keeping,
                               observer: NoStageObserver())
        if coreDistances == nil { result.coreDistances = [] }
        return result
    }

    /// The edges sorted by (smaller end, larger end), the smaller end first: SpanningTree's
    /// stable sort by weight then leaves each run of tied weights in its final order, where
    /// sorting every run by its ends would cost more than the rest of the hierarchy on trees
    /// whose weights tie in long runs (co-located points' edges all weigh their core distance).
    static func endOrdered(_ tree: MinimumSpanningTree) -> MinimumSpanningTree {
        struct Edge { var ends: UInt64; var weight: Double }
        var varying: UInt64 = 0, first: UInt64? = nil
        var edges = tree.weight.indices.map { i -> Edge in
            let lo = min(tree.a[i], tree.b[i]), hi = max(tree.a[i], tree.b[i])
            let ends = UInt64(UInt32(lo)) << 32 | UInt64(UInt32(hi))
            varying |= ends ^ (first ?? ends)
            if first == nil { first = ends }
            return Edge(ends: ends, weight: tree.weight[i])
        }
        var scratch: [Edge] = []
        RadixSort.sortRecords(&edges, scratch: &scratch, bits: 16, width: 64, varying: varying) { $0.ends }
        return MinimumSpanningTree(a: edges.map { Int32(truncatingIfNeeded: $0.ends >> 32) },
                                   b: edges.map { Int32(truncatingIfNeeded: $0.ends) }, weight: edges.map(\.weight))
    }

    /// Throws unless `tree` has `n - 1` edges of finite, non-negative weight joining all of
    /// `0..<n` without a cycle.
    static func checkSpanning(_ tree: MinimumSpanningTree, pointCount n: Int) throws(ClusterCoreError) {
        guard n >= 0, n <= Int(Int32.max) else {
            throw .invalidParameter(name: "pointCount", value: "\(n)", requirement: "0 ... \(Int32.max)")
        }
        let m = tree.weight.count
        guard tree.a.count == m, tree.b.count == m, m == max(0, n - 1) else {
            throw .invalidParameter(name: "tree", value: "\(m) edges (\(tree.a.count), \(tree.b.count) ends)",
                                    requirement: "n - 1 = \(max(0, n - 1)) edges, two ends each")
        }
        var sets = UnionFind(count: n)
        for i in 0..<m {
            let a = Int(tree.a[i]), b = Int(tree.b[i]), w = tree.weight[i]
            guard a >= 0, a < n, b >= 0, b < n else {
                throw .invalidParameter(name: "tree", value: "edge \(i) joins \(a) and \(b)", requirement: "ends in 0 ..< \(n)")
            }
            guard w.isFinite, w >= 0 else {
                throw .invalidParameter(name: "tree", value: "edge \(i) weighs \(w)", requirement: "finite weights >= 0")
            }
            guard sets.union(a, b) != nil else {
                throw .invalidParameter(name: "tree", value: "edge \(i) joins \(a) and \(b), already joined",
                                        requirement: "a spanning tree (no cycle)")
            }
        }
    }
}
