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
    /// The default leaf size, chosen by the `KDTree` benchmark (build + k=5 queries at 1M
    /// estate points: 8 and 16 were within noise of each other, 32 was slower).
    public static let defaultLeafSize = 8

    /// Number of points.
    public let count: Int
    /// Maximum number of points in a leaf.
    public let leafSize: Int
    /// Point coordinates in tree order.
    public let xs: [Double]
    public let ys: [Double]
    /// `index[p]` is the original row of the point at tree position `p`.
    public let index: [Int32]
    /// `position[i]` is the tree position of original row `i` (inverse of `index`).
    public let position: [Int32]
    /// Node ranges and bounding boxes, in heap order.
    let start: [Int32]
    let end: [Int32]
    let minX: [Double]
    let maxX: [Double]
    let minY: [Double]
    let maxY: [Double]
    /// Heap index of the first leaf; leaves are `firstLeaf..<nodeCount`.
    public let firstLeaf: Int

    /// Number of nodes (internal and leaves).
    public var nodeCount: Int { start.count }

    /// Builds the tree.
    /// - Parameters:
    ///   - points: the points (already validated finite by `PointSet`).
    ///   - leafSize: maximum points per leaf, at least 1.
    ///   - threads: worker threads for the build (the result is identical for any value).
    /// - Complexity: O(n log n) time, O(n) memory.
    public init(points: PointSet, leafSize: Int = KDTree.defaultLeafSize, threads: Int = 1) {
        let n = points.count
        let leafSize = max(1, leafSize)
        self.count = n
        self.leafSize = leafSize
        var leaves = 1
        while leaves * leafSize < n { leaves *= 2 }
        let nodeCount = 2 * leaves - 1
        self.firstLeaf = leaves - 1

        var xs = points.xs
        var ys = points.ys
        var index = [Int32](unsafeUninitializedCapacity: n) { buf, c in
            for i in 0..<n { buf[i] = Int32(i) }
            c = n
        }
        var start = [Int32](repeating: 0, count: nodeCount)
        var end = [Int32](repeating: 0, count: nodeCount)
        var minX = [Double](repeating: .infinity, count: nodeCount)
        var maxX = [Double](repeating: -.infinity, count: nodeCount)
        var minY = [Double](repeating: .infinity, count: nodeCount)
        var maxY = [Double](repeating: -.infinity, count: nodeCount)

        xs.withUnsafeMutableBufferPointer { px in
        ys.withUnsafeMutableBufferPointer { py in
        index.withUnsafeMutableBufferPointer { pi in
        start.withUnsafeMutableBufferPointer { ps in
        end.withUnsafeMutableBufferPointer { pe in
        minX.withUnsafeMutableBufferPointer { bx0 in
        maxX.withUnsafeMutableBufferPointer { bx1 in
        minY.withUnsafeMutableBufferPointer { by0 in
        maxY.withUnsafeMutableBufferPointer { by1 in
            let b = Builder(
                x: px.baseAddress!, y: py.baseAddress!, idx: pi.baseAddress!,
                start: ps.baseAddress!, end: pe.baseAddress!,
                minX: bx0.baseAddress!, maxX: bx1.baseAddress!,
                minY: by0.baseAddress!, maxY: by1.baseAddress!,
                nodeCount: nodeCount)
            if n == 0 {
                // Every node is empty: ranges 0..<0 and inverted boxes prune everything.
                return
            }
            // Split the root here, then let the two subtrees build concurrently: they own
            // disjoint position ranges and node slots.
            b.build(node: 0, lo: 0, hi: n, parallelDepth: threads > 1 ? 1 : 0, threads: threads)
        }}}}}}}}}

        var position = [Int32](repeating: 0, count: n)
        for p in 0..<n { position[Int(index[p])] = Int32(p) }

        self.xs = xs
        self.ys = ys
        self.index = index
        self.position = position
        self.start = start
        self.end = end
        self.minX = minX
        self.maxX = maxX
        self.minY = minY
        self.maxY = maxY
    }

    /// The tree positions owned by `node` (a heap index in `0..<nodeCount`).
    public func range(ofNode node: Int) -> Range<Int> { Int(start[node])..<Int(end[node]) }
}

/// Recursive median-split builder over raw pointers (one per array); recursion depth is the
/// tree depth, about log2(n / leafSize).
private struct Builder: @unchecked Sendable {
    let x: UnsafeMutablePointer<Double>
    let y: UnsafeMutablePointer<Double>
    let idx: UnsafeMutablePointer<Int32>
    let start: UnsafeMutablePointer<Int32>
    let end: UnsafeMutablePointer<Int32>
    let minX: UnsafeMutablePointer<Double>
    let maxX: UnsafeMutablePointer<Double>
    let minY: UnsafeMutablePointer<Double>
    let maxY: UnsafeMutablePointer<Double>
    let nodeCount: Int

    func build(node: Int, lo: Int, hi: Int, parallelDepth: Int, threads: Int) {
        start[node] = Int32(lo)
        end[node] = Int32(hi)
        let left = 2 * node + 1
        if left >= nodeCount {
            // Leaf: tight box over its points.
            var x0 = Double.infinity, x1 = -Double.infinity
            var y0 = Double.infinity, y1 = -Double.infinity
            for p in lo..<hi {
                let px = x[p], py = y[p]
                if px < x0 { x0 = px }
                if px > x1 { x1 = px }
                if py < y0 { y0 = py }
                if py > y1 { y1 = py }
            }
            minX[node] = x0; maxX[node] = x1; minY[node] = y0; maxY[node] = y1
            return
        }
        // Split along the wider side of the bounding box of this range.
        var x0 = Double.infinity, x1 = -Double.infinity
        var y0 = Double.infinity, y1 = -Double.infinity
        for p in lo..<hi {
            let px = x[p], py = y[p]
            if px < x0 { x0 = px }
            if px > x1 { x1 = px }
            if py < y0 { y0 = py }
            if py > y1 { y1 = py }
        }
        let mid = lo + (hi - lo) / 2
        if hi - lo > 1 {
            select(lo: lo, hi: hi, k: mid, byX: (x1 - x0) >= (y1 - y0))
        }
        if parallelDepth > 0 {
            Parallel.both(threads: threads,
                { self.build(node: left, lo: lo, hi: mid, parallelDepth: parallelDepth - 1, threads: threads) },
                { self.build(node: left + 1, lo: mid, hi: hi, parallelDepth: parallelDepth - 1, threads: threads) })
        } else {
            build(node: left, lo: lo, hi: mid, parallelDepth: 0, threads: threads)
            build(node: left + 1, lo: mid, hi: hi, parallelDepth: 0, threads: threads)
        }
        minX[node] = min(minX[left], minX[left + 1])
        maxX[node] = max(maxX[left], maxX[left + 1])
        minY[node] = min(minY[left], minY[left + 1])
        maxY[node] = max(maxY[left], maxY[left + 1])
    }

    @inline(__always) private func key(_ p: Int, _ byX: Bool) -> Double { byX ? x[p] : y[p] }

    @inline(__always) private func swapAt(_ a: Int, _ b: Int) {
        let tx = x[a]; x[a] = x[b]; x[b] = tx
        let ty = y[a]; y[a] = y[b]; y[b] = ty
        let ti = idx[a]; idx[a] = idx[b]; idx[b] = ti
    }

    /// Quickselect with a median-of-three pivot and a three-way partition, so that runs of
    /// equal keys (duplicate listings share coordinates) cost linear time, not quadratic.
    /// Afterwards every key in `lo..<k` is <= key(k) <= every key in `k+1..<hi`.
    private func select(lo: Int, hi: Int, k: Int, byX: Bool) {
        var lo = lo, hi = hi
        while hi - lo > 1 {
            let a = key(lo, byX), b = key(lo + (hi - lo) / 2, byX), c = key(hi - 1, byX)
            let pivot = max(min(a, b), min(max(a, b), c))
            // Dutch national flag: [lo, lt) < pivot, [lt, i) == pivot, (gt, hi) > pivot.
            var lt = lo, i = lo, gt = hi - 1
            while i <= gt {
                let v = key(i, byX)
                if v < pivot {
                    swapAt(lt, i); lt += 1; i += 1
                } else if v > pivot {
                    swapAt(i, gt); gt -= 1
                } else {
                    i += 1
                }
            }
            if k < lt { hi = lt } else if k > gt { lo = gt + 1 } else { return }
        }
    }
}
