// A static 3-D k-d tree over the unit vectors of `SpherePoints`, with the k-nearest and
// radius queries of great-circle clustering (in squared chord lengths).

/// The 3-D k-d tree: points permuted into tree order (`x`, `y`, `z`; `index[p]` the input row
/// of tree position p); nodes in heap order over contiguous position ranges, all leaves at one
/// depth with at most `leafSize` points, each split at the middle position along the widest
/// side of the node's cell, each node with its tight bounding box (`box[6·node ..< 6·node+6]`:
/// min x, max x, min y, max y, min z, max z) and its cell (`cell`, the same layout: the
/// root's cube cut at the split values above the node). Every point outside a node lies on the
/// far side of (or on) one of its cell's faces, so the distance from a point inside to the
/// nearest face bounds every outside distance; the tight box would give about 0 there, the
/// points lying on a surface that the leaves' boxes hug. Depends only on the set of points,
/// never on their order or the thread count: the build starts from their canonical order
/// (`SpherePoints.canonicalOrder`), so tree positions, and every tie broken by position, are
/// the same for any order of the rows.
struct SphereTree: Sendable {
    let count: Int
    let x: [Double]
    let y: [Double]
    let z: [Double]
    let index: [Int32]
    let start: [Int32]
    let end: [Int32]
    let box: [Double]
    let cell: [Double]
    let firstLeaf: Int
    var nodeCount: Int { start.count }

    init(_ points: SpherePoints, leafSize: Int = KDTree.defaultLeafSize, threads: Int) {
        let n = points.count
        var leaves = 1
        while leaves * leafSize < n { leaves *= 2 }
        let nodeCount = 2 * leaves - 1
        firstLeaf = leaves - 1
        count = n
        let v = points.unitVectors(threads: threads)
        let order = points.canonicalOrder()
        var entries = [SphereEntry].filled(count: n, threads: threads) {
            let row = Int(order[$0])
            return SphereEntry(c: (v.x[row], v.y[row], v.z[row]), row: Int32(row))
        }
        var start = [Int32](repeating: 0, count: nodeCount), end = start
        var cell = [Double](repeating: 0, count: 6 * nodeCount)
        entries.withUnsafeMutableBufferPointer { e in
        start.withUnsafeMutableBufferPointer { s in
        end.withUnsafeMutableBufferPointer { t in
        cell.withUnsafeMutableBufferPointer { c in
            let builder = SphereBuilder(entries: e.baseAddress, start: s.baseAddress!, end: t.baseAddress!,
                                        cell: c.baseAddress!, nodeCount: nodeCount)
            builder.build(node: 0, lo: 0, hi: n, cell: SphereCell(around: v),
                          parallelDepth: threads > 1 ? 1 : 0, threads: threads)
        }}}}
        self.cell = cell
        x = entries.withUnsafeBufferPointer { e in [Double].filled(count: n, threads: threads) { e[$0].c.0 } }
        y = entries.withUnsafeBufferPointer { e in [Double].filled(count: n, threads: threads) { e[$0].c.1 } }
        z = entries.withUnsafeBufferPointer { e in [Double].filled(count: n, threads: threads) { e[$0].c.2 } }
        index = entries.withUnsafeBufferPointer { e in [Int32].filled(count: n, threads: threads) { e[$0].row } }
        self.start = start
        self.end = end
        box = SphereTree.boxes(x: x, y: y, z: z, start: start, end: end, firstLeaf: firstLeaf)
    }

    /// Tight boxes: leaves from their points, internal nodes from their children.
    private static func boxes(x: [Double], y: [Double], z: [Double], start: [Int32], end: [Int32],
                              firstLeaf: Int) -> [Double] {
        let nodeCount = start.count
        var box = [Double](repeating: 0, count: 6 * nodeCount)
        for node in 0..<nodeCount { for a in 0..<3 { box[6 * node + 2 * a] = .infinity; box[6 * node + 2 * a + 1] = -.infinity } }
        for leaf in firstLeaf..<nodeCount {
            for p in Int(start[leaf])..<Int(end[leaf]) {
                box[6 * leaf] = min(box[6 * leaf], x[p]); box[6 * leaf + 1] = max(box[6 * leaf + 1], x[p])
                box[6 * leaf + 2] = min(box[6 * leaf + 2], y[p]); box[6 * leaf + 3] = max(box[6 * leaf + 3], y[p])
                box[6 * leaf + 4] = min(box[6 * leaf + 4], z[p]); box[6 * leaf + 5] = max(box[6 * leaf + 5], z[p])
            }
        }
        for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
            let (l, r) = KDTree.children(of: node)
            for a in 0..<3 {
                box[6 * node + 2 * a] = min(box[6 * l + 2 * a], box[6 * r + 2 * a])
                box[6 * node + 2 * a + 1] = max(box[6 * l + 2 * a + 1], box[6 * r + 2 * a + 1])
            }
        }
        return box
    }

    /// Gives `body` raw read-only views of the arrays, for hot loops.
    func withView<R>(_ body: (SphereView) -> R) -> R {
        x.withUnsafeBufferPointer { x in
        y.withUnsafeBufferPointer { y in
        z.withUnsafeBufferPointer { z in
        start.withUnsafeBufferPointer { s in
        end.withUnsafeBufferPointer { e in
        box.withUnsafeBufferPointer { b in
        cell.withUnsafeBufferPointer { c in
            let dummy = UnsafePointer<Double>(bitPattern: 8)!
            return body(SphereView(x: x.baseAddress ?? dummy, y: y.baseAddress ?? dummy, z: z.baseAddress ?? dummy,
                                   start: s.baseAddress!, end: e.baseAddress!, box: b.baseAddress!, cell: c.baseAddress!,
                                   firstLeaf: firstLeaf, nodeCount: nodeCount, count: count))
        }}}}}}}
    }
}

/// A point during the build.
private struct SphereEntry {
    var c: (Double, Double, Double)
    var row: Int32
    @inline(__always) func coordinate(_ axis: Int) -> Double { axis == 0 ? c.0 : (axis == 1 ? c.1 : c.2) }
}

/// A node's cell during the build: the parent's cell cut at the split value.
private struct SphereCell {
    var lo: (Double, Double, Double)
    var hi: (Double, Double, Double)

    /// The bounding box of the points: the root's cell.
    init(around v: (x: [Double], y: [Double], z: [Double])) {
        lo = (v.x.min() ?? 0, v.y.min() ?? 0, v.z.min() ?? 0)
        hi = (v.x.max() ?? 0, v.y.max() ?? 0, v.z.max() ?? 0)
    }
    var widestAxis: Int {
        let w = (hi.0 - lo.0, hi.1 - lo.1, hi.2 - lo.2)
        return w.0 >= w.1 && w.0 >= w.2 ? 0 : (w.1 >= w.2 ? 1 : 2)
    }
    func cut(axis: Int, at v: Double) -> (SphereCell, SphereCell) {
        var l = self, r = self
        switch axis {
        case 0: l.hi.0 = v; r.lo.0 = v
        case 1: l.hi.1 = v; r.lo.1 = v
        default: l.hi.2 = v; r.lo.2 = v
        }
        return (l, r)
    }
}

/// Median-split builder (recursion depth = tree depth).
private struct SphereBuilder: @unchecked Sendable {
    let entries: UnsafeMutablePointer<SphereEntry>?
    let start: UnsafeMutablePointer<Int32>
    let end: UnsafeMutablePointer<Int32>
    let cell: UnsafeMutablePointer<Double>
    let nodeCount: Int

    func build(node: Int, lo: Int, hi: Int, cell: SphereCell, parallelDepth: Int, threads: Int) {
        start[node] = Int32(lo)
        end[node] = Int32(hi)
        let c = self.cell + 6 * node
        (c[0], c[1], c[2], c[3], c[4], c[5]) = (cell.lo.0, cell.hi.0, cell.lo.1, cell.hi.1, cell.lo.2, cell.hi.2)
        let (left, right) = KDTree.children(of: node)
        if left >= nodeCount { return }
        let mid = lo + (hi - lo) / 2
        var cells = (cell, cell)
        if hi - lo > 1, let e = entries {
            let axis = cell.widestAxis
            select(e, lo: lo, hi: hi, k: mid, axis: axis)
            cells = cell.cut(axis: axis, at: e[mid].coordinate(axis))
        }
        let (lc, rc) = cells
        if parallelDepth > 0 {
            Parallel.both(threads: threads,
                { self.build(node: left, lo: lo, hi: mid, cell: lc, parallelDepth: parallelDepth - 1, threads: threads) },
                { self.build(node: right, lo: mid, hi: hi, cell: rc, parallelDepth: parallelDepth - 1, threads: threads) })
        } else {
            build(node: left, lo: lo, hi: mid, cell: lc, parallelDepth: 0, threads: threads)
            build(node: right, lo: mid, hi: hi, cell: rc, parallelDepth: 0, threads: threads)
        }
    }

    /// Reorders `lo..<hi` so that position `k` holds the element of rank `k` along the axis,
    /// none before it greater, none after it smaller: the planar builder's selection (Floyd
    /// and Rivest's sampling, a branch-free partition, runs of keys equal to the pivot
    /// settled at once), one specialisation per axis.
    private func select(_ e: UnsafeMutablePointer<SphereEntry>, lo: Int, hi: Int, k: Int, axis: Int) {
        switch axis {
        case 0: RankSelection.select(e, lo: lo, hi: hi, k: k) { $0.c.0 }
        case 1: RankSelection.select(e, lo: lo, hi: hi, k: k) { $0.c.1 }
        default: RankSelection.select(e, lo: lo, hi: hi, k: k) { $0.c.2 }
        }
    }
}

/// Read-only pointers into a `SphereTree`, valid inside `withView`.
struct SphereView: @unchecked Sendable {
    let x: UnsafePointer<Double>
    let y: UnsafePointer<Double>
    let z: UnsafePointer<Double>
    let start: UnsafePointer<Int32>
    let end: UnsafePointer<Int32>
    let box: UnsafePointer<Double>
    let cell: UnsafePointer<Double>
    let firstLeaf: Int
    let nodeCount: Int
    let count: Int

    /// Squared chord between tree positions p and q.
    @inline(__always) func distance2(_ p: Int, _ q: Int) -> Double {
        let dx = x[p] - x[q], dy = y[p] - y[q], dz = z[p] - z[q]
        return dx * dx + dy * dy + dz * dz
    }

    /// Squared distance from the point at tree position p to `node`'s box (0 inside).
    @inline(__always) func boxDistance2(_ node: Int, _ p: Int) -> Double {
        boxDistance2(node, point(p))
    }

    /// Squared distance between the boxes of two nodes (0 when they meet).
    @inline(__always) func boxBoxDistance2(_ a: Int, _ b: Int) -> Double {
        let p = box + 6 * a, q = box + 6 * b
        let dx = Swift.max(Swift.max(q[0] - p[1], p[0] - q[1]), 0)
        let dy = Swift.max(Swift.max(q[2] - p[3], p[2] - q[3]), 0)
        let dz = Swift.max(Swift.max(q[4] - p[5], p[4] - q[5]), 0)
        return dx * dx + dy * dy + dz * dz
    }

    /// Squared distance from p, a point of `node`, to the nearest face of the node's cell:
    /// every point outside the node is at least this far away.
    @inline(__always) func insideClearance2(_ node: Int, _ p: Int) -> Double {
        let b = cell + 6 * node
        let m = Swift.min(Swift.min(Swift.min(x[p] - b[0], b[1] - x[p]), Swift.min(y[p] - b[2], b[3] - y[p])),
                          Swift.min(z[p] - b[4], b[5] - z[p]))
        return m > 0 ? m * m : 0
    }
}
