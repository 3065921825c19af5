// HDBSCAN's hierarchy over a spanning tree between locations computed elsewhere: points that
// share coordinates stand as one leaf, as the single-process fit groups them, so a caller
// holding many points at few places (listings in buildings) hands over the locations' tree.

extension HDBSCAN {
    /// The stages after the MST over a spanning tree between *locations* (groups of points at
    /// one place, which part from each other all at once at the location's core distance):
    /// what `fit(spanningTree:)` gives on the points' tree made of `tree` and, in each location,
    /// its points joined at `inner` — computed over the locations.
    /// - Parameters:
    ///   - tree: `inner.count - 1` edges between locations `0..<inner.count`, in any order,
    ///     joining every location; weights finite, not negative, and not below the `inner` of
    ///     an end that holds several points.
    ///   - locationOf: each point's location; every location holds a point.
    ///   - inner: each location's core distance: finite and not negative where the location
    ///     holds several points, not used where it holds one.
    ///   - parameters: as `fit(spanningTree:)`'s, ties `.allAtOnce`.
    ///   - threads: worker threads; the output is identical for any value.
    ///   - keeping: which intermediate trees to return.
    /// - Returns: the fit's result without core distances.
    /// - Throws: `ClusterCoreError.invalidParameter` for invalid parameters, or naming the
    ///   first point, location or edge that is wrong.
    public static func fit(
        locationTree tree: MinimumSpanningTree, locationOf: [Int32], inner: [Double], parameters: HDBSCANParameters,
        threads: Int = 1, keeping: HDBSCANOutputs = .all
    ) throws(ClusterCoreError) -> HDBSCANResult {
        try parameters.validate()
        guard parameters.ties == .allAtOnce else {
            throw .invalidParameter(name: "ties", value: "oneAtATime", requirement: "allAtOnce over locations")
        }
        let grouped = try LocatedRows(locationOf: locationOf, count: inner.count)
        let inner = try grouped.checkedInner(inner)
        if inner.count < 2 {
            var result = try fit(spanningTree: grouped.starTree(inner), pointCount: locationOf.count,
                                 parameters: parameters, threads: threads, keeping: keeping)
            result.coreDistances = []
            return result
        }
        let edges = try sortedLocationEdges(tree, inner: inner, grouped: grouped)
        let spanning = SpanningTree(weight: edges.map(\.weight), positionA: edges.map(\.a), positionB: edges.map(\.b),
                                    offset: grouped.offset, rowOf: grouped.rows, weightAt: grouped.weights,
                                    inner: inner, rowWeight: nil, coreByRow: false, threads: threads)
        return hierarchy(spanning, parameters: parameters, threads: threads, keeping: keeping, observer: NoStageObserver())
    }

    /// The location edges checked (ends, weights, no cycle) and sorted in (weight, smaller
    /// end, larger end) order.
    static func sortedLocationEdges(
        _ tree: MinimumSpanningTree, inner: [Double], grouped: LocatedRows
    ) throws(ClusterCoreError) -> [WeightedEdge] {
        let count = inner.count, m = tree.weight.count
        guard tree.a.count == m, tree.b.count == m, m == count - 1 else {
            throw .invalidParameter(name: "tree", value: "\(m) edges (\(tree.a.count), \(tree.b.count) ends)",
                                    requirement: "one fewer than the \(count) locations, two ends each")
        }
        var sets = UnionFind(count: count)
        var edges = [WeightedEdge]()
        edges.reserveCapacity(m)
        for i in 0..<m {
            let a = Int(tree.a[i]), b = Int(tree.b[i]), w = tree.weight[i]
            guard a >= 0, a < count, b >= 0, b < count else {
                throw .invalidParameter(name: "tree", value: "edge \(i) joins \(a) and \(b)", requirement: "ends in 0 ..< \(count)")
            }
            // A one-point location's inner is infinite: no bound.
            guard w.isFinite, w >= 0, grouped.weights[a] < 2 || w >= inner[a], grouped.weights[b] < 2 || w >= inner[b] else {
                throw .invalidParameter(name: "tree", value: "edge \(i) weighs \(w)",
                                        requirement: "finite, >= 0 and >= the core distance of an end of several points")
            }
            guard sets.union(a, b) != nil else {
                throw .invalidParameter(name: "tree", value: "edge \(i) joins \(a) and \(b), already joined",
                                        requirement: "a spanning tree of the locations (no cycle)")
            }
            // + 0 turns -0 into 0.
            edges.append(WeightedEdge(weight: w + 0, a: Int32(min(a, b)), b: Int32(max(a, b))))
        }
        WeightedEdge.sort(&edges)
        return edges
    }
}

/// Points grouped by location: location l's points are `rows[offset[l] ..< offset[l + 1]]`,
/// ascending, and `weights[l]` of them.
struct LocatedRows {
    let offset: [Int32]
    let rows: [Int32]
    let weights: [Int32]

    /// Checks each point's location (in `0..<count`) and that every location holds one.
    init(locationOf: [Int32], count: Int) throws(ClusterCoreError) {
        guard locationOf.count <= Int(Int32.max) else {
            throw .invalidParameter(name: "locationOf", value: "\(locationOf.count) points", requirement: "at most \(Int32.max)")
        }
        var weights = [Int32](repeating: 0, count: count)
        for (row, l) in locationOf.enumerated() {
            guard l >= 0, Int(l) < count else {
                throw .invalidParameter(name: "locationOf", value: "point \(row) at location \(l)",
                                        requirement: "locations in 0 ..< \(count)")
            }
            weights[Int(l)] += 1
        }
        if let empty = weights.firstIndex(of: 0) {
            throw .invalidParameter(name: "locationOf", value: "location \(empty) holds no point",
                                    requirement: "every location holds a point")
        }
        var offset = [Int32](repeating: 0, count: count + 1)
        for l in 0..<count { offset[l + 1] = offset[l] + weights[l] }
        var next = offset
        var rows = [Int32](repeating: 0, count: locationOf.count)
        for (row, l) in locationOf.enumerated() {
            rows[Int(next[Int(l)])] = Int32(row)
            next[Int(l)] += 1
        }
        self.offset = offset; self.rows = rows; self.weights = weights
    }

    /// `inner` checked where a location holds several points (-0 as 0), infinite where it
    /// holds one.
    func checkedInner(_ inner: [Double]) throws(ClusterCoreError) -> [Double] {
        var out = inner
        for l in inner.indices {
            if weights[l] < 2 { out[l] = .infinity; continue }
            guard inner[l].isFinite, inner[l] >= 0 else {
                throw .invalidParameter(name: "inner", value: "location \(l): \(inner[l])",
                                        requirement: "a finite core distance >= 0 for a location of several points")
            }
            out[l] = inner[l] + 0
        }
        return out
    }

    /// The points' tree of one location (or none): its first point joined to each other one.
    func starTree(_ inner: [Double]) -> MinimumSpanningTree {
        guard let first = rows.first else { return MinimumSpanningTree(a: [], b: [], weight: []) }
        let others = Array(rows.dropFirst())
        return MinimumSpanningTree(a: [Int32](repeating: first, count: others.count), b: others,
                                   weight: [Double](repeating: inner.first ?? 0, count: others.count))
    }
}
