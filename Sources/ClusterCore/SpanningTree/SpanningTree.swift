// The MST stage's output: the minimum spanning tree over the hierarchy's leaves (the k-d tree's
// locations, or its points when none share coordinates), and what turns it into the MST over
// the input points (see `Locations` for why that is exact).

/// The leaves of a single-linkage tree over distinct locations (`Locations`), numbered as
/// the linkage numbers them: each leaf's weight (points), core distance (the distance at which
/// its points part), and its rows, ascending, at `rows[rowStart[leaf] ..< rowStart[leaf + 1]]`.
struct LocatedLeaves: Sendable, Equatable {
    let pointCount: Int
    let weight: [Int32]
    let inner: [Double]
    let rowStart: [Int32]
    let rows: [Int32]
    /// The sample weight of each input row (nil: 1 each; then `weight` counts rows).
    var rowWeight: [Int32]? = nil

    /// Calls `body` with the leaves seen through pointers (nil for nil leaves: each leaf a point).
    static func withView<R>(_ leaves: LocatedLeaves?, _ body: (LeafView?) -> R) -> R {
        guard let leaves else { return body(nil) }
        return leaves.weight.withUnsafeBufferPointer { weight in
        leaves.inner.withUnsafeBufferPointer { inner in
        leaves.rowStart.withUnsafeBufferPointer { rowStart in
        leaves.rows.withUnsafeBufferPointer { rows in
        (leaves.rowWeight ?? []).withUnsafeBufferPointer { rowWeight in
            body(LeafView(pointCount: leaves.pointCount, weight: weight.baseAddress!, inner: inner.baseAddress!,
                          rowStart: rowStart.baseAddress!, rows: rows.baseAddress!,
                          rowWeight: leaves.rowWeight == nil ? nil : rowWeight.baseAddress,
                          totalWeight: leaves.rowWeight == nil ? leaves.pointCount : leaves.weight.reduce(0) { $0 + Int($1) }))
        }}}}}
    }

    /// The leaf (location, by tree position) of each input row.
    func leafOfRow(threads: Int) -> [Int32] {
        let count = weight.count
        return [Int32].initialized(count: pointCount) { out in
            let shared = SharedBuffer(base: out)
            Parallel.forEachChunk(count: count, grain: 1 << 14, threads: threads) { chunk, _ in
                for t in chunk {
                    for p in Int(rowStart[t])..<Int(rowStart[t + 1]) { shared[Int(rows[p])] = Int32(t) }
                }
            }
        }
    }
}

/// The MST over the leaves, as tree positions, and what turns it back into the MST over the
/// points. Over points (`leaves` nil) each leaf is one point and the edges are Borůvka's.
/// Over locations, the MST over the points is the locations' edges between their first rows,
/// and inside each location of m points a star of m - 1 edges of its core distance from its
/// first row (see `Locations`). *Point positions* number the points with each location's rows
/// in one run, locations in tree order, so the union-find of a linkage over the points works
/// in spatial order.
struct SpanningTree {
    /// The edges between leaves (tree positions) and their weights, ascending.
    let weight: [Double]
    let positionA: [Int32]
    let positionB: [Int32]
    /// Weight, core distance, rows (by point position) of each location; nil when every leaf
    /// is one point.
    let leaves: LocatedLeaves?
    /// The row of each point position (over points, the k-d tree's permutation).
    let rowOf: [Int32]
    /// Core distance of each input row.
    let coreByRow: [Double]
    /// Locations of more than one point, in ascending order of core distance (stable: tree
    /// order), and that distance: their inner edges, merged with the locations' edges.
    let multi: [Int32]
    let multiWeight: [Double]
    /// Over points, the MST as Borůvka returned it (edges by row); nil over locations.
    let rowMST: MinimumSpanningTree?

    var pointCount: Int { rowOf.count }

    private init(weight: [Double], positionA: [Int32], positionB: [Int32], leaves: LocatedLeaves?, rowOf: [Int32],
                 coreByRow: [Double], multi: [Int32], multiWeight: [Double], rowMST: MinimumSpanningTree?) {
        self.weight = weight; self.positionA = positionA; self.positionB = positionB
        self.leaves = leaves; self.rowOf = rowOf; self.coreByRow = coreByRow
        self.multi = multi; self.multiWeight = multiWeight; self.rowMST = rowMST
    }

    /// The tree Borůvka found over `indexed`'s leaves, with each row's core distance (`core2`:
    /// squared, by tree position).
    init(_ found: (mst: MinimumSpanningTree, positionA: [Int32], positionB: [Int32]), indexed: IndexedLocations,
         core2: [Double], threads: Int) {
        let tree = indexed.tree
        guard let locations = indexed.locations, let weightAt = indexed.weightAt else {
            let n = tree.count
            let coreByRow = [Double].initialized(count: n) { out in
                let rows = SharedBuffer(base: out)  // tree.index is a permutation: each row once
                Parallel.forEachChunk(count: n, grain: 1 << 16, threads: threads) { chunk, _ in
                    for p in chunk { rows[Int(tree.index[p])] = core2[p].squareRoot() }
                }
            }
            self.init(weight: found.mst.weight, positionA: found.positionA, positionB: found.positionB, leaves: nil,
                      rowOf: tree.index, coreByRow: coreByRow, multi: [], multiWeight: [], rowMST: found.mst)
            return
        }
        let inner = [Double].filled(count: locations.count, threads: threads) { core2[$0].squareRoot() }
        self.init(weight: found.mst.weight, positionA: found.positionA, positionB: found.positionB, index: tree.index,
                  locations: locations, weightAt: weightAt, pointCount: indexed.pointCount, inner: inner, threads: threads)
    }

    /// The tree over locations: edges between tree positions (`index[t]` the location at
    /// position t) with their weights, ascending; each position's points and core distance.
    init(weight: [Double], positionA: [Int32], positionB: [Int32], index: [Int32], locations: Locations,
         weightAt: [Int32], pointCount n: Int, inner: [Double], threads: Int) {
        let count = locations.count
        var offset = [Int32](repeating: 0, count: count + 1)
        // Rows at each position: its weight, unless the rows have sample weights.
        if locations.rowWeight == nil {
            for t in 0..<count { offset[t + 1] = offset[t] + weightAt[t] }
        } else {
            for t in 0..<count { offset[t + 1] = offset[t] + locations.rowCount(Int(index[t])) }
        }
        let rowOf = [Int32].initialized(count: n) { out in
            let shared = SharedBuffer(base: out)
            Parallel.forEachChunk(count: count, grain: 1 << 14, threads: threads) { chunk, _ in
                for t in chunk {
                    let l = Int(index[t])
                    let s = Int(locations.start[l]), o = Int(offset[t])
                    for j in 0..<Int(offset[t + 1] - offset[t]) { shared[o + j] = locations.rows[s + j] }
                }
            }
        }
        self.init(weight: weight, positionA: positionA, positionB: positionB, offset: offset, rowOf: rowOf,
                  weightAt: weightAt, inner: inner, rowWeight: locations.rowWeight, coreByRow: true, threads: threads)
    }

    /// The tree over locations numbered as positions: edges between positions with their
    /// weights, ascending; position t's rows `rowOf[offset[t] ..< offset[t + 1]]` (ascending),
    /// weight and core distance; each row's core distance only when `coreByRow` (else none).
    init(weight: [Double], positionA: [Int32], positionB: [Int32], offset: [Int32], rowOf: [Int32],
         weightAt: [Int32], inner: [Double], rowWeight: [Int32]?, coreByRow keepingCores: Bool, threads: Int) {
        let count = weightAt.count, n = rowOf.count
        let coreByRow = !keepingCores ? [] : [Double].initialized(count: n) { out in
            let shared = SharedBuffer(base: out)
            Parallel.forEachChunk(count: count, grain: 1 << 14, threads: threads) { chunk, _ in
                for t in chunk {
                    for p in Int(offset[t])..<Int(offset[t + 1]) { shared[Int(rowOf[p])] = inner[t] }
                }
            }
        }
        var multi: [Int32] = []
        for t in 0..<count where offset[t + 1] - offset[t] > 1 { multi.append(Int32(t)) }
        let order = RadixSort.stableOrder(of: multi.map { inner[Int($0)] }, threads: threads)
        multi = order.map { multi[Int($0)] }
        self.init(weight: weight, positionA: positionA, positionB: positionB,
                  leaves: LocatedLeaves(pointCount: n, weight: weightAt, inner: inner, rowStart: offset, rows: rowOf,
                                        rowWeight: rowWeight),
                  rowOf: rowOf, coreByRow: coreByRow, multi: multi, multiWeight: multi.map { inner[Int($0)] },
                  rowMST: nil)
    }

    /// A tree whose every leaf is one point: edges between point positions with their
    /// weights, ascending; `rowOf[position]` the row of each position.
    init(weight: [Double], positionA: [Int32], positionB: [Int32], rowOf: [Int32], coreByRow: [Double]) {
        let a = zip(positionA, positionB).map { min(rowOf[Int($0)], rowOf[Int($1)]) }
        let b = zip(positionA, positionB).map { max(rowOf[Int($0)], rowOf[Int($1)]) }
        self.init(weight: weight, positionA: positionA, positionB: positionB, leaves: nil, rowOf: rowOf,
                  coreByRow: coreByRow, multi: [], multiWeight: [], rowMST: MinimumSpanningTree(a: a, b: b, weight: weight))
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

    /// The total weight of the MST over the points, summed in ascending order of weight, as
    /// `MinimumSpanningTree.totalWeight` sums it: bit for bit the same.
    var totalWeight: Double {
        var total = 0.0
        merged(inner: { j in
            let t = Int(multi[j]), w = multiWeight[j]
            for _ in 1..<Int(leaves!.rowStart[t + 1] - leaves!.rowStart[t]) { total += w }
        }, between: { i in total += weight[i] })
        return total
    }

    /// The MST over the points, edges by row.
    func pointMST() -> MinimumSpanningTree { rowMST ?? overPoints().rowMST! }

    /// The same tree with every point a leaf of its own (itself over points): the MST over the
    /// points, each edge's ends as point positions, and the rows of the positions.
    func overPoints() -> SpanningTree {
        guard let leaves else { return self }
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
        let rowMST = MinimumSpanningTree(a: a, b: b, weight: w)
        if let rowWeight = leaves.rowWeight {
            return weightedRows(rowMST, rowWeight: rowWeight)
        }
        return SpanningTree(weight: w, positionA: pa, positionB: pb, leaves: nil, rowOf: leaves.rows,
                            coreByRow: coreByRow, multi: [], multiWeight: [], rowMST: rowMST)
    }

    /// Over rows with sample weights: every row a leaf of its own, numbered by row, weighing
    /// its weight and parting into its copies at its core distance.
    private func weightedRows(_ rowMST: MinimumSpanningTree, rowWeight: [Int32]) -> SpanningTree {
        let n = pointCount
        let identity = (0..<Int32(n)).map { $0 }
        let start = (0...Int32(n)).map { $0 }
        return SpanningTree(weight: rowMST.weight, positionA: rowMST.a, positionB: rowMST.b,
                            leaves: LocatedLeaves(pointCount: n, weight: rowWeight, inner: coreByRow, rowStart: start,
                                                  rows: identity, rowWeight: rowWeight),
                            rowOf: identity, coreByRow: coreByRow, multi: [], multiWeight: [], rowMST: rowMST)
    }
}

extension SpanningTree {
    /// The spanning tree of edges `a[i]`–`b[i]` (tree positions) weighing `unsorted[i]`, sorted
    /// by (weight, smaller position, larger position): a function of the points alone, not of
    /// the order Borůvka found the edges in. `index[t]` is the location (or row, without
    /// locations) at position t, `inner[t]` its core distance.
    init(edges a: [Int32], _ b: [Int32], weights unsorted: [Double], index: [Int32], locations: Locations?,
         weightAt: [Int32]?, pointCount: Int, inner: [Double], threads: Int) {
        let lo = [Int32].filled(count: a.count, threads: threads) { Swift.min(a[$0], b[$0]) }
        let hi = [Int32].filled(count: a.count, threads: threads) { Swift.max(a[$0], b[$0]) }
        var order = RadixSort.stableOrder(of: unsorted, threads: threads)
        // Runs of equal weight in key order.
        var start = 0
        while start < order.count {
            var end = start + 1
            while end < order.count && unsorted[Int(order[end])] == unsorted[Int(order[start])] { end += 1 }
            let inOrder = (start + 1..<end).allSatisfy {
                (lo[Int(order[$0 - 1])], hi[Int(order[$0 - 1])]) <= (lo[Int(order[$0])], hi[Int(order[$0])])
            }
            if !inOrder {
                order[start..<end].sort { (lo[Int($0)], hi[Int($0)]) < (lo[Int($1)], hi[Int($1)]) }
            }
            start = end
        }
        let weight = [Double].filled(count: order.count, threads: threads) { unsorted[Int(order[$0])] }
        let positionA = [Int32].filled(count: order.count, threads: threads) { lo[Int(order[$0])] }
        let positionB = [Int32].filled(count: order.count, threads: threads) { hi[Int(order[$0])] }
        if let locations, let weightAt {
            self.init(weight: weight, positionA: positionA, positionB: positionB, index: index, locations: locations,
                      weightAt: weightAt, pointCount: pointCount, inner: inner, threads: threads)
            return
        }
        let coreByRow = [Double].initialized(count: index.count) { out in
            for p in 0..<index.count { out[Int(index[p])] = inner[p] }
        }
        self.init(weight: weight, positionA: positionA, positionB: positionB, rowOf: index, coreByRow: coreByRow)
    }
}
