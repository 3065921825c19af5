/// A static 2-D k-d tree over a `PointSet`, stored in flat arrays (after kdbush/flatbush).
///
/// Layout: the points are permuted into *tree order* (`xs`, `ys`, with `index[p]` giving the
/// original row of tree position `p`). Nodes form a complete binary tree in heap order
/// (node 0 is the root, the children of `i` are `2i+1` and `2i+2`); node `i` owns the
/// contiguous tree positions `start[i]..<end[i]`, split at the middle position after a
/// median selection along the wider side of the node's bounding box. All leaves are at the
/// same depth and hold at most `leafSize` points. Each node stores its tight bounding box.
///
/// The tree depends only on the input coordinates and their order, never on the thread count.
public struct KDTree: Sendable {
    /// The default leaf size, chosen by measuring the whole HDBSCAN pipeline: 16 beat 8 and 32
    /// (docs/performance.md).
    public static let defaultLeafSize = 16

    /// Number of points.
    public let count: Int
    /// Maximum number of points in a leaf.
    public let leafSize: Int
    /// Point x coordinates in tree order.
    public let xs: [Double]
    /// Point y coordinates in tree order.
    public let ys: [Double]
    /// `index[p]` is the original row of the point at tree position `p`.
    public let index: [Int32]
    /// The tree position of every original row (the inverse of `index`), computed on demand:
    /// the pipeline never needs it, so the tree does not keep it.
    /// - Complexity: O(n).
    public func positions() -> [Int32] {
        var position = [Int32](repeating: 0, count: count)
        for p in 0..<count { position[Int(index[p])] = Int32(p) }
        return position
    }
    /// Node ranges and bounding boxes, in heap order.
    let start: [Int32]
    let end: [Int32]
    let minX: [Double]
    let maxX: [Double]
    let minY: [Double]
    let maxY: [Double]
    /// Heap index of the first leaf; leaves are `firstLeaf..<nodeCount`. `package`, as the
    /// node ranges: the layout is this package's, not API.
    package let firstLeaf: Int

    /// Number of nodes (internal and leaves).
    public var nodeCount: Int { start.count }

    /// Builds the tree.
    /// - Parameters:
    ///   - points: the points (already validated finite by `PointSet`).
    ///   - leafSize: maximum points per leaf, at least 1.
    ///   - threads: worker threads for the build (the result is identical for any value).
    /// - Complexity: O(n log n) time, O(n) memory.
    /// - Parameter canonical: build from the points in `CanonicalOrder` instead of row order,
    ///   so that the tree's positions depend on the points alone, not on the rows' order.
    public init(points: PointSet, leafSize: Int = KDTree.defaultLeafSize, threads: Int = 1, canonical: Bool = false) {
        let n = points.count
        let leafSize = max(1, leafSize)
        self.count = n
        self.leafSize = leafSize
        var leaves = 1
        while leaves * leafSize < n { leaves *= 2 }
        let nodeCount = 2 * leaves - 1
        self.firstLeaf = leaves - 1

        // Build on one array of (x, y, row) entries: a swap during selection then touches one
        // cache line instead of three, which measured much faster than three parallel arrays.
        let order = canonical ? CanonicalOrder.rows(points.xs, points.ys) : nil
        var entries = [Entry].filled(count: n, threads: threads) { i in
            let row = order.map { Int($0[i]) } ?? i
            return Entry(x: points.xs[row], y: points.ys[row], row: Int32(row))
        }
        var start = [Int32](repeating: 0, count: nodeCount)
        var end = [Int32](repeating: 0, count: nodeCount)
        var minX = [Double](repeating: .infinity, count: nodeCount)
        var maxX = [Double](repeating: -.infinity, count: nodeCount)
        var minY = [Double](repeating: .infinity, count: nodeCount)
        var maxY = [Double](repeating: -.infinity, count: nodeCount)

        if n > 0 {
            var x0 = Double.infinity, x1 = -Double.infinity, y0 = Double.infinity, y1 = -Double.infinity
            for i in 0..<n {
                x0 = min(x0, points.xs[i]); x1 = max(x1, points.xs[i])
                y0 = min(y0, points.ys[i]); y1 = max(y1, points.ys[i])
            }
            entries.withUnsafeMutableBufferPointer { pe in
            start.withUnsafeMutableBufferPointer { ps in
            end.withUnsafeMutableBufferPointer { pn in
                let b = Builder(entries: pe.baseAddress!, start: ps.baseAddress!, end: pn.baseAddress!,
                                nodeCount: nodeCount)
                b.build(node: 0, lo: 0, hi: n, cell: (x0, x1, y0, y1),
                        parallelDepth: threads > 1 ? 1 : 0, threads: threads)
            }}}
        }
        let xs = entries.withUnsafeBufferPointer { e in [Double].filled(count: n, threads: threads) { e[$0].x } }
        let ys = entries.withUnsafeBufferPointer { e in [Double].filled(count: n, threads: threads) { e[$0].y } }
        let index = entries.withUnsafeBufferPointer { e in [Int32].filled(count: n, threads: threads) { e[$0].row } }
        entries = []
        // Tight boxes: leaves from their points, internal nodes from their children.
        for leaf in firstLeaf..<nodeCount {
            for p in Int(start[leaf])..<Int(end[leaf]) {
                minX[leaf] = min(minX[leaf], xs[p]); maxX[leaf] = max(maxX[leaf], xs[p])
                minY[leaf] = min(minY[leaf], ys[p]); maxY[leaf] = max(maxY[leaf], ys[p])
            }
        }
        if firstLeaf > 0 {
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                let (l, r) = KDTree.children(of: node)
                minX[node] = min(minX[l], minX[r]); maxX[node] = max(maxX[l], maxX[r])
                minY[node] = min(minY[l], minY[r]); maxY[node] = max(maxY[l], maxY[r])
            }
        }


        self.xs = xs
        self.ys = ys
        self.index = index
        self.start = start
        self.end = end
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    /// The tree positions owned by `node` (a heap index in `0..<nodeCount`).
    package func range(ofNode node: Int) -> Range<Int> { Int(start[node])..<Int(end[node]) }
}

// The heap-order navigation every walk over the nodes uses, named once.
extension KDTree {
    /// The parent of `node` (not the root).
    @inline(__always) static func parent(of node: Int) -> Int { (node - 1) / 2 }

    /// The other child of `node`'s parent (`node` not the root): left children are odd.
    @inline(__always) static func sibling(of node: Int) -> Int { (node & 1) == 1 ? node + 1 : node - 1 }

    /// The leaf holding position `p` of a tree whose nodes end at `end` (in heap order,
    /// leaves from `firstLeaf`): the descent by the left children's ends.
    @inline(__always) static func leaf(containing p: Int, end: UnsafePointer<Int32>, firstLeaf: Int) -> Int {
        var node = 0
        while node < firstLeaf {
            let (l, r) = children(of: node)
            node = p < Int(end[l]) ? l : r
        }
        return node
    }

    /// The two children of `node` (which exist when `node` is below `firstLeaf`).
    @inline(__always) static func children(of node: Int) -> (left: Int, right: Int) { (2 * node + 1, 2 * node + 2) }
}

/// A point during the build.
private struct Entry {
    var x: Double
    var y: Double
    var row: Int32
}

/// Recursive median-split builder; recursion depth is the tree depth, about log2(n / leafSize).
/// Each node splits its range at the middle position along the wider side of its *cell* (the
/// parent's cell cut at the split value), which costs no pass over the points; the tight
/// bounding boxes used by queries are computed afterwards.
private struct Builder: @unchecked Sendable {
    let entries: UnsafeMutablePointer<Entry>
    let start: UnsafeMutablePointer<Int32>
    let end: UnsafeMutablePointer<Int32>
    let nodeCount: Int

    func build(node: Int, lo: Int, hi: Int, cell: (Double, Double, Double, Double),
               parallelDepth: Int, threads: Int) {
        start[node] = Int32(lo)
        end[node] = Int32(hi)
        let (left, right) = KDTree.children(of: node)
        if left >= nodeCount { return }
        let mid = lo + (hi - lo) / 2
        let byX = (cell.1 - cell.0) >= (cell.3 - cell.2)
        var leftCell = cell, rightCell = cell
        if hi - lo > 1 {
            select(lo: lo, hi: hi, k: mid, byX: byX)
            let split = byX ? entries[mid].x : entries[mid].y
            if byX { leftCell.1 = split; rightCell.0 = split } else { leftCell.3 = split; rightCell.2 = split }
        }
        if parallelDepth > 0 {
            Parallel.both(threads: threads,
                { self.build(node: left, lo: lo, hi: mid, cell: leftCell, parallelDepth: parallelDepth - 1, threads: threads) },
                { self.build(node: right, lo: mid, hi: hi, cell: rightCell, parallelDepth: parallelDepth - 1, threads: threads) })
        } else {
            build(node: left, lo: lo, hi: mid, cell: leftCell, parallelDepth: 0, threads: threads)
            build(node: right, lo: mid, hi: hi, cell: rightCell, parallelDepth: 0, threads: threads)
        }
    }

    /// Reorders `lo..<hi` so that position `k` holds the element of rank `k` along the axis
    /// and no element before it is greater, none after it smaller.
    private func select(lo: Int, hi: Int, k: Int, byX: Bool) {
        if byX { RankSelection.select(entries, lo: lo, hi: hi, k: k) { $0.x } } else { RankSelection.select(entries, lo: lo, hi: hi, k: k) { $0.y } }
    }
}

private extension UnsafeMutablePointer {
    @inline(__always) func swapAt(_ a: Int, _ b: Int) {
        let t = self[a]; self[a] = self[b]; self[b] = t
    }
}
