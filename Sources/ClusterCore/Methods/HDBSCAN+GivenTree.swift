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
        if let coreDistances, coreDistances.count != n {
            throw .invalidParameter(name: "coreDistances", value: "\(coreDistances.count) values",
                                    requirement: "one per point (\(n))")
        }
        // The edges are checked as they are sorted and joined; `checkSpanning` then names the
        // first edge that is wrong, in the caller's order.
        guard let sorted = sortedEdges(tree, pointCount: n),
              let linkage = SingleLinkageTree(checkedSpanning: sorted, threads: threads) else {
            try checkSpanning(tree, pointCount: n)
            preconditionFailure("a tree refused by the fast checks passes checkSpanning")
        }
        var result = hierarchy(sorted, linkage: linkage, parameters: parameters, threads: threads, keeping: keeping,
                               observer: NoStageObserver())
        result.coreDistances = coreDistances ?? []
        return result
    }

    /// The spanning tree over the rows with the edges in (weight, smaller end, larger end)
    /// order; nil unless there are `n - 1` edges with ends in `0..<n` and finite weights >= 0
    /// (whether they form a tree is left to the linkage).
    ///
    /// Sorted as records (`WeightedEdge`) rather than through an order array, which the later
    /// passes would read at random.
    static func sortedEdges(_ tree: MinimumSpanningTree, pointCount n: Int) -> SpanningTree? {
        let m = tree.weight.count
        guard n >= 0, n <= Int(Int32.max), m == max(0, n - 1), tree.a.count == m, tree.b.count == m else { return nil }
        var valid = true
        var edges = [WeightedEdge](unsafeUninitializedCapacity: m) { out, count in
            for i in 0..<m {
                let a = tree.a[i], b = tree.b[i], w = tree.weight[i]
                valid = valid && a >= 0 && Int(a) < n && b >= 0 && Int(b) < n && w.isFinite && w >= 0
                // + 0 turns -0 into 0.
                out.initializeElement(at: i, to: WeightedEdge(weight: w + 0, a: min(a, b), b: max(a, b)))
            }
            count = m
        }
        guard valid else { return nil }
        WeightedEdge.sort(&edges)
        let identity = [Int32](unsafeUninitializedCapacity: n) { out, count in
            for i in 0..<n { out.initializeElement(at: i, to: Int32(i)) }
            count = n
        }
        return SpanningTree(weight: edges.map(\.weight), positionA: edges.map(\.a), positionB: edges.map(\.b),
                            rowOf: identity, coreByRow: [Double](repeating: 0, count: n))
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

