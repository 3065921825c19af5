// HDBSCAN over distinct locations: core distances and the MST computed once per location,
// then the MST over the input points put back together (see `Locations` for why it is exact).

extension HDBSCAN {
    /// Core distances and the MST over the weighted locations in `tree`, then the MST over the
    /// `pointCount` input points: the locations' edges between their first rows, and inside
    /// each location of m points a star of m - 1 edges of its core distance from its first row.
    /// Returns what `indexAndMST` does: core distance by row, the MST over rows (sorted by
    /// weight; at equal weights a location's inner edges come before the edges between
    /// locations), and for each edge its ends as *point positions* (locations in tree order,
    /// each location's rows in a run) with `rowOf` mapping positions back to rows, so the
    /// linkage's union-find works in spatial order.
    static func locatedMST(
        _ locations: Locations, tree: KDTree, pointCount n: Int, parameters: HDBSCANParameters, threads: Int,
        observer: some StageObserver
    ) throws(ClusterCoreError) -> ([Double], MinimumSpanningTree, positionA: [Int32], positionB: [Int32], rowOf: [Int32]) {
        let count = locations.count
        let weightAt = [Int32].filled(count: count, threads: threads) { locations.weight[Int(tree.index[$0])] }
        let k = parameters.minSamplesConvention.neighbourCount(minSamples: parameters.effectiveMinSamples)
        // The nearest min(k, count) locations hold the core distance; one more, when there is
        // one, lets the MST's first round prove most best edges from the list alone.
        let listed = min(k, count)
        let extra = listed < count ? 1 : 0
        let (core2, neighbours) = try observer.run(HDBSCANStage.coreDistances) { () throws(ClusterCoreError) in
            let r = try CoreDistances.computeWithNeighbours(
                tree: tree, minSamples: parameters.effectiveMinSamples,
                convention: parameters.minSamplesConvention, threads: threads,
                keepNeighbours: true, extra: extra, weights: weightAt)
            return (r.core2, r.neighbours)
        }
        var lists = neighbours
        _ = consume neighbours
        return observer.run(HDBSCANStage.mst) {
            let handed = lists
            lists = []
            // Only a location's own entry (the first, at distance 0) is surely within its core
            // distance: with weights, the core distance may be reached before the k-th entry.
            let located = MinimumSpanningTree.boruvka(tree: tree, squaredCoreDistances: core2,
                                                      neighbours: handed, listLength: listed + extra,
                                                      coreNeighbourCount: 1, threads: threads)
            return expand(located.mst, positionA: located.positionA, positionB: located.positionB,
                          locations: locations, tree: tree, weightAt: weightAt, core2: core2, pointCount: n,
                          threads: threads)
        }
    }

    /// The point-level MST (see `locatedMST`) from the locations' MST.
    private static func expand(
        _ mst: MinimumSpanningTree, positionA: [Int32], positionB: [Int32], locations: Locations, tree: KDTree,
        weightAt: [Int32], core2: [Double], pointCount n: Int, threads: Int
    ) -> ([Double], MinimumSpanningTree, positionA: [Int32], positionB: [Int32], rowOf: [Int32]) {
        let count = locations.count
        // First point position of each location's run (locations in tree order).
        var offset = [Int32](repeating: 0, count: count + 1)
        for t in 0..<count { offset[t + 1] = offset[t] + weightAt[t] }
        let rowOf = [Int32].initialized(count: n) { out in
            let shared = SharedBuffer(base: out)
            Parallel.forEachChunk(count: count, grain: 1 << 14, threads: threads) { chunk, _ in
                for t in chunk {
                    let l = Int(tree.index[t])
                    let s = Int(locations.start[l]), o = Int(offset[t])
                    for j in 0..<Int(weightAt[t]) { shared[o + j] = locations.rows[s + j] }
                }
            }
        }
        let coreByRow = [Double].initialized(count: n) { out in
            let shared = SharedBuffer(base: out)
            Parallel.forEachChunk(count: count, grain: 1 << 14, threads: threads) { chunk, _ in
                for t in chunk {
                    let c = core2[t].squareRoot()
                    for p in Int(offset[t])..<Int(offset[t + 1]) { shared[Int(rowOf[p])] = c }
                }
            }
        }
        // Locations with more than one point, by their core distance (stable: tree order).
        var multi: [Int32] = []
        for t in 0..<count where weightAt[t] > 1 { multi.append(Int32(t)) }
        let multiWeight = multi.map { core2[Int($0)].squareRoot() }
        let multiOrder = RadixSort.stableOrder(of: multiWeight, threads: threads)

        let m = n - 1
        var a = [Int32](repeating: 0, count: m), b = [Int32](repeating: 0, count: m)
        var pa = [Int32](repeating: 0, count: m), pb = [Int32](repeating: 0, count: m)
        var weight = [Double](repeating: 0, count: m)
        a.withUnsafeMutableBufferPointer { a in
        b.withUnsafeMutableBufferPointer { b in
        pa.withUnsafeMutableBufferPointer { pa in
        pb.withUnsafeMutableBufferPointer { pb in
        weight.withUnsafeMutableBufferPointer { weight in
        rowOf.withUnsafeBufferPointer { rowOf in
            var out = 0, i = 0, j = 0
            let edges = mst.count
            while i < edges || j < multi.count {
                let inner = j < multi.count && (i == edges || multiWeight[Int(multiOrder[j])] <= mst.weight[i])
                if inner {
                    let t = Int(multi[Int(multiOrder[j])]), w = multiWeight[Int(multiOrder[j])]
                    let first = Int(offset[t])
                    for p in (first + 1)..<Int(offset[t + 1]) {
                        // Rows are ascending within a location: the first is the smallest.
                        a[out] = rowOf[first]; b[out] = rowOf[p]; pa[out] = Int32(first); pb[out] = Int32(p)
                        weight[out] = w
                        out += 1
                    }
                    j += 1
                } else {
                    let p = offset[Int(positionA[i])], q = offset[Int(positionB[i])]
                    let x = rowOf[Int(p)], y = rowOf[Int(q)]
                    if x < y {
                        a[out] = x; b[out] = y; pa[out] = p; pb[out] = q
                    } else {
                        a[out] = y; b[out] = x; pa[out] = q; pb[out] = p
                    }
                    weight[out] = mst.weight[i]
                    out += 1
                    i += 1
                }
            }
            precondition(out == m, "the expanded MST has n - 1 edges")
        }}}}}}
        return (coreByRow, MinimumSpanningTree(a: a, b: b, weight: weight), pa, pb, rowOf)
    }
}
