// HDBSCAN over distinct locations: core distances and the MST computed once per location,
// then the MST over the input points put back together (see `Locations` for why it is exact).

extension HDBSCAN {
    /// Core distances and the MST over the weighted locations in `tree` (see `LocatedMST`).
    static func locatedMST(
        _ locations: Locations, tree: KDTree, pointCount n: Int, parameters: HDBSCANParameters, threads: Int,
        observer: some StageObserver
    ) throws(ClusterCoreError) -> LocatedMST {
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
            return LocatedMST(located.mst.weight, positionA: located.positionA, positionB: located.positionB,
                              locations: locations, tree: tree, weightAt: weightAt, core2: core2,
                              pointCount: n, threads: threads)
        }
    }
}

/// The MST over distinct locations and what turns it back into the MST over the points: the
/// locations' edges between their first rows, and inside each location of m points a star of
/// m - 1 edges of its core distance from its first row (see `Locations` for why this is an
/// MST of the points). Locations are numbered by tree position; *point positions* number the
/// points with each location's rows in one run, locations in tree order, so the union-find of
/// a linkage over the points works in spatial order.
struct LocatedMST {
    /// The locations' MST edges (tree positions) and weights, ascending.
    let weight: [Double]
    let positionA: [Int32]
    let positionB: [Int32]
    /// Weight, core distance, rows (by point position) of each location: the linkage's leaves.
    let leaves: LocatedLeaves
    /// Core distance of each input row.
    let coreByRow: [Double]
    /// Locations of more than one point, in ascending order of core distance (stable: tree
    /// order), and that distance: their inner edges, merged with the locations' edges.
    let multi: [Int32]
    let multiWeight: [Double]

    var pointCount: Int { leaves.pointCount }

    init(_ weight: [Double], positionA: [Int32], positionB: [Int32], locations: Locations, tree: KDTree,
         weightAt: [Int32], core2: [Double], pointCount n: Int, threads: Int) {
        self.weight = weight
        self.positionA = positionA
        self.positionB = positionB
        let count = locations.count
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
        let inner = [Double].filled(count: count, threads: threads) { core2[$0].squareRoot() }
        coreByRow = [Double].initialized(count: n) { out in
            let shared = SharedBuffer(base: out)
            Parallel.forEachChunk(count: count, grain: 1 << 14, threads: threads) { chunk, _ in
                for t in chunk {
                    for p in Int(offset[t])..<Int(offset[t + 1]) { shared[Int(rowOf[p])] = inner[t] }
                }
            }
        }
        var multi: [Int32] = []
        for t in 0..<count where weightAt[t] > 1 { multi.append(Int32(t)) }
        let order = RadixSort.stableOrder(of: multi.map { inner[Int($0)] }, threads: threads)
        self.multi = order.map { multi[Int($0)] }
        multiWeight = self.multi.map { inner[Int($0)] }
        leaves = LocatedLeaves(pointCount: n, weight: weightAt, inner: inner, rowStart: offset, rows: rowOf)
    }

    /// Calls `inner(location)` for each location's inner edges and `between(i)` for each
    /// edge between locations, in ascending order of weight (inner edges first at a tie).
    @inline(__always)
    private func merged(inner: (Int) -> Void, between: (Int) -> Void) {
        var i = 0, j = 0
        while i < weight.count || j < multi.count {
            if j < multi.count && (i == weight.count || multiWeight[j] <= weight[i]) {
                inner(j); j += 1
            } else {
                between(i); i += 1
            }
        }
    }

    /// The leaf (location, by tree position) of each input row.
    func leafOfRow(threads: Int) -> [Int32] {
        let count = leaves.weight.count
        return [Int32].initialized(count: pointCount) { out in
            let shared = SharedBuffer(base: out)
            Parallel.forEachChunk(count: count, grain: 1 << 14, threads: threads) { chunk, _ in
                for t in chunk {
                    for p in Int(leaves.rowStart[t])..<Int(leaves.rowStart[t + 1]) { shared[Int(leaves.rows[p])] = Int32(t) }
                }
            }
        }
    }

    /// The total weight of the MST over the points, summed in ascending order of weight, as
    /// `MinimumSpanningTree.totalWeight` sums it: bit for bit the same.
    var totalWeight: Double {
        var total = 0.0
        merged(inner: { j in
            let t = Int(multi[j]), w = multiWeight[j]
            for _ in 1..<Int(leaves.weight[t]) { total += w }
        }, between: { i in total += weight[i] })
        return total
    }

    /// The MST over the points, with each edge's ends as point positions and the rows of the
    /// positions (what `SingleLinkageTree` takes).
    func expanded() -> (mst: MinimumSpanningTree, positionA: [Int32], positionB: [Int32], rowOf: [Int32]) {
        let m = pointCount - 1
        var a = [Int32](repeating: 0, count: m), b = [Int32](repeating: 0, count: m)
        var pa = [Int32](repeating: 0, count: m), pb = [Int32](repeating: 0, count: m)
        var w = [Double](repeating: 0, count: m)
        let offset = leaves.rowStart
        a.withUnsafeMutableBufferPointer { a in
        b.withUnsafeMutableBufferPointer { b in
        pa.withUnsafeMutableBufferPointer { pa in
        pb.withUnsafeMutableBufferPointer { pb in
        w.withUnsafeMutableBufferPointer { w in
        leaves.rows.withUnsafeBufferPointer { rowOf in
            var out = 0
            merged(inner: { j in
                let t = Int(multi[j]), first = Int(offset[t])
                for p in (first + 1)..<Int(offset[t + 1]) {
                    // Rows are ascending within a location: the first is the smallest.
                    a[out] = rowOf[first]; b[out] = rowOf[p]; pa[out] = Int32(first); pb[out] = Int32(p)
                    w[out] = multiWeight[j]
                    out += 1
                }
            }, between: { i in
                let p = offset[Int(positionA[i])], q = offset[Int(positionB[i])]
                let x = rowOf[Int(p)], y = rowOf[Int(q)]
                if x < y {
                    a[out] = x; b[out] = y; pa[out] = p; pb[out] = q
                } else {
                    a[out] = y; b[out] = x; pa[out] = q; pb[out] = p
                }
                w[out] = weight[i]
                out += 1
            })
            precondition(out == m, "the expanded MST has n - 1 edges")
        }}}}}}
        return (MinimumSpanningTree(a: a, b: b, weight: w), pa, pb, leaves.rows)
    }
}
