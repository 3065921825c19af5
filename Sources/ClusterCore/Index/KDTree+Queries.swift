/// Caller-owned scratch space for k-nearest-neighbour queries. Create one per thread and
/// reuse it: queries through it allocate nothing.
public struct KNNBuffer: Sendable {
    /// The number of neighbours a query looks for.
    public let k: Int
    /// Squared distances of the neighbours found, ascending; valid up to `found`.
    public internal(set) var squaredDistances: [Double]
    /// Tree positions of the neighbours found (see `KDTree.index` for original rows).
    public internal(set) var positions: [Int32]
    /// How many neighbours the last query found (`min(k, tree.count)`).
    public internal(set) var found: Int = 0
    var stack: [Int32]
    /// Box distances of the nodes on `stack`, slot for slot.
    var boxes: [Double]

    /// Scratch for queries of `k` neighbours on `tree`.
    public init(k: Int, tree: KDTree) {
        precondition(k >= 1, "KNNBuffer needs k >= 1")
        self.k = k
        squaredDistances = [Double](repeating: .infinity, count: k)
        positions = [Int32](repeating: -1, count: k)
        // An explicit DFS stack: at most one pending sibling per level, plus the root.
        stack = [Int32](repeating: 0, count: 2 * (KDTree.depth(ofNodeCount: tree.nodeCount) + 2))
        boxes = [Double](repeating: 0, count: stack.count)
    }
}

extension KDTree {
    /// Depth of a complete heap-ordered tree with `nodeCount` nodes (root alone: 0).
    static func depth(ofNodeCount nodeCount: Int) -> Int {
        var d = 0, m = nodeCount
        while m > 1 { m /= 2; d += 1 }
        return d
    }

    /// Squared distance from (qx, qy) to the bounding box of `node` (0 inside).
    ///
    /// Written with `max` rather than comparisons so that it compiles without branches: which
    /// side of a box a query lies on is a coin toss, and the mispredicted branches of the
    /// comparison form slowed the k-NN queries and the MST searches (docs/performance.md). The
    /// values are the same bit for bit.
    @inline(__always)
    static func boxDistance2(
        _ qx: Double, _ qy: Double,
        _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double
    ) -> Double {
        let dx = Swift.max(Swift.max(x0 - qx, qx - x1), 0)
        let dy = Swift.max(Swift.max(y0 - qy, qy - y1), 0)
        return dx * dx + dy * dy
    }

    /// Finds the `buffer.k` nearest points to (x, y), the point itself included if it is in
    /// the tree. Results land in `buffer` sorted by distance; equal distances may come in any
    /// order, but the distances themselves are exact.
    /// - Complexity: O(log n + k) expected on well-spread data; allocates nothing.
    public func nearest(x qx: Double, y qy: Double, into buffer: inout KNNBuffer) {
        let k = buffer.k
        var found = 0
        buffer.squaredDistances.withUnsafeMutableBufferPointer { dist in
        buffer.positions.withUnsafeMutableBufferPointer { pos in
        buffer.stack.withUnsafeMutableBufferPointer { stack in
        buffer.boxes.withUnsafeMutableBufferPointer { boxes in
            withNodeArrays { v in
                found = v.knn(qx, qy, k, dist.baseAddress!, pos.baseAddress!, stack.baseAddress!, boxes.baseAddress!)
            }
        }}}}
        buffer.found = found
    }

    /// Calls `body` with the tree position of every point within `radius` of (x, y),
    /// inclusive (squared distance <= radius²), in tree order of leaves.
    /// - Complexity: O(log n + m) for m results on well-spread data; allocates nothing.
    public func forEach(
        within radius: Double, ofX qx: Double, y qy: Double,
        _ body: (Int) -> Void
    ) {
        guard count > 0 else { return }
        let r2 = radius * radius
        withNodeArrays { v in
            // Recursion depth is the tree depth (about 20 at 10M points), so a plain recursive
            // walk is safe here and keeps the code short.
            func visit(_ node: Int) {
                if KDTree.boxDistance2(qx, qy, v.minX[node], v.maxX[node], v.minY[node], v.maxY[node]) > r2 {
                    return
                }
                if node >= v.firstLeaf {
                    for p in Int(v.start[node])..<Int(v.end[node]) {
                        let dx = v.x[p] - qx, dy = v.y[p] - qy
                        if dx * dx + dy * dy <= r2 { body(p) }
                    }
                    return
                }
                let (l, r) = KDTree.children(of: node)
                visit(l)
                visit(r)
            }
            visit(0)
        }
    }

    /// Counts the points within `radius` of (x, y), inclusive.
    public func count(within radius: Double, ofX qx: Double, y qy: Double) -> Int {
        var c = 0
        forEach(within: radius, ofX: qx, y: qy) { _ in c += 1 }
        return c
    }

    /// Gives `body` raw read-only views of the node and point arrays for hot loops.
    @inline(__always)
    func withNodeArrays<R>(_ body: (TreeView) -> R) -> R {
        xs.withUnsafeBufferPointer { x in
        ys.withUnsafeBufferPointer { y in
        start.withUnsafeBufferPointer { s in
        end.withUnsafeBufferPointer { e in
        minX.withUnsafeBufferPointer { x0 in
        maxX.withUnsafeBufferPointer { x1 in
        minY.withUnsafeBufferPointer { y0 in
        maxY.withUnsafeBufferPointer { y1 in
            body(TreeView(
                x: x.baseAddress ?? UnsafePointer(bitPattern: 8)!,
                y: y.baseAddress ?? UnsafePointer(bitPattern: 8)!,
                start: s.baseAddress!, end: e.baseAddress!,
                minX: x0.baseAddress!, maxX: x1.baseAddress!,
                minY: y0.baseAddress!, maxY: y1.baseAddress!,
                firstLeaf: firstLeaf, nodeCount: nodeCount, count: count))
        }}}}}}}}
    }
}

/// Unsafe read-only pointers into a `KDTree`, valid only inside `withNodeArrays`.
struct TreeView: BoruvkaTree, @unchecked Sendable {
    let x: UnsafePointer<Double>
    let y: UnsafePointer<Double>
    let start: UnsafePointer<Int32>
    let end: UnsafePointer<Int32>
    let minX: UnsafePointer<Double>
    let maxX: UnsafePointer<Double>
    let minY: UnsafePointer<Double>
    let maxY: UnsafePointer<Double>
    let firstLeaf: Int
    let nodeCount: Int
    let count: Int

    @inline(__always)
    func boxDistance2(_ node: Int, _ qx: Double, _ qy: Double) -> Double {
        KDTree.boxDistance2(qx, qy, minX[node], maxX[node], minY[node], maxY[node])
    }

    @inline(__always) func point(_ p: Int) -> (x: Double, y: Double) { (x[p], y[p]) }

    @inline(__always) func distance2(_ q: Int, _ at: (x: Double, y: Double)) -> Double {
        let dx = x[q] - at.x, dy = y[q] - at.y
        return dx * dx + dy * dy
    }

    @inline(__always) func boxDistance2(_ node: Int, _ at: (x: Double, y: Double)) -> Double {
        boxDistance2(node, at.x, at.y)
    }

    @inline(__always) func insideClearance2(_ node: Int, _ at: (x: Double, y: Double)) -> Double {
        insideClearance2(node, at.x, at.y)
    }

    /// Squared distance from (qx, qy), a point inside `node`'s box, to the nearest side of that
    /// box: every point outside the node is at least this far away.
    @inline(__always)
    func insideClearance2(_ node: Int, _ qx: Double, _ qy: Double) -> Double {
        let a = min(qx - minX[node], maxX[node] - qx), b = min(qy - minY[node], maxY[node] - qy)
        let m = min(a, b)
        return m > 0 ? m * m : 0
    }

    /// Inserts (d2, p) into the sorted list of capacity k holding `found` entries.
    @inline(__always)
    func insert(_ d2: Double, _ p: Int, _ k: Int, _ found: inout Int, _ worst: inout Double,
                _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>) {
        if found < k {
            var j = found
            while j > 0 && dist[j - 1] > d2 { dist[j] = dist[j - 1]; pos[j] = pos[j - 1]; j -= 1 }
            dist[j] = d2; pos[j] = Int32(p)
            found += 1
            if found == k { worst = dist[k - 1] }
        } else if d2 < worst {
            var j = k - 1
            while j > 0 && dist[j - 1] > d2 { dist[j] = dist[j - 1]; pos[j] = pos[j - 1]; j -= 1 }
            dist[j] = d2; pos[j] = Int32(p)
            worst = dist[k - 1]
        }
    }

    /// k-NN of the point at tree position `p` (itself included), searching bottom-up from its
    /// leaf (`leaf`, the leaf holding `p`): siblings are searched only while they could hold a
    /// closer point, and the climb stops once the k-th distance ball lies inside the current
    /// node. Returns the k-th squared distance. Requires `k <= count`. The core distances use
    /// it where `leafNeighbours` cannot share one walk among a leaf's points.
    @inline(__always)
    func kthDistance2(ofPosition p: Int, inLeaf leaf: Int, _ k: Int,
                      _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
                      _ stack: UnsafeMutablePointer<Int32>, _ boxes: UnsafeMutablePointer<Double>) -> Double {
        let qx = x[p], qy = y[p]
        var found = 0
        var worst = Double.infinity
        var node = leaf
        scanLeaf(node, qx, qy, k, &found, &worst, dist, pos)
        while node > 0 {
            if found == k && insideClearance2(node, qx, qy) >= worst { break }
            searchSubtree(KDTree.sibling(of: node), qx, qy, k, &found, &worst, dist, pos, stack, boxes)
            node = KDTree.parent(of: node)
        }
        return worst
    }

    /// k-NN into a sorted insertion list (`dist`, `pos`, capacity k); returns how many found.
    @inline(__always)
    func knn(
        _ qx: Double, _ qy: Double, _ k: Int,
        _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
        _ stack: UnsafeMutablePointer<Int32>, _ boxes: UnsafeMutablePointer<Double>
    ) -> Int {
        if count == 0 { return 0 }
        var found = 0
        var worst = Double.infinity  // k-th squared distance once the list is full
        searchSubtree(0, qx, qy, k, &found, &worst, dist, pos, stack, boxes)
        return found
    }

    /// Adds the points of the subtree at `root` to a k-NN list, top-down: nodes are visited
    /// nearer child first, and a node is skipped once the list is full and the node's box is
    /// no closer than the current k-th distance.
    @inline(__always)
    func searchSubtree(
        _ root: Int, _ qx: Double, _ qy: Double, _ k: Int, _ found: inout Int, _ worst: inout Double,
        _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>,
        _ stack: UnsafeMutablePointer<Int32>, _ boxes: UnsafeMutablePointer<Double>
    ) {
        // Box distances ride beside their nodes on the stack (`boxes`), so a popped node is
        // checked against the current k-th distance without measuring it again.
        var sp = 1
        stack[0] = Int32(root); boxes[0] = boxDistance2(root, qx, qy)
        outer: while sp > 0 {
            sp -= 1
            var node = Int(stack[sp])
            if found == k && boxes[sp] >= worst { continue }
            // Descend to a leaf, pushing the farther child of each level; stop where even the
            // nearer child is out of reach.
            while node < firstLeaf {
                let (l, r) = KDTree.children(of: node)
                let dl = boxDistance2(l, qx, qy), dr = boxDistance2(r, qx, qy)
                if dl <= dr {
                    if found == k && dl >= worst { continue outer }
                    if found < k || dr < worst { stack[sp] = Int32(r); boxes[sp] = dr; sp += 1 }
                    node = l
                } else {
                    if found == k && dr >= worst { continue outer }
                    if found < k || dl < worst { stack[sp] = Int32(l); boxes[sp] = dl; sp += 1 }
                    node = r
                }
            }
            scanLeaf(node, qx, qy, k, &found, &worst, dist, pos)
        }
    }

    /// Offers every point of a leaf to the k-NN list: first all the squared distances, in a
    /// loop the compiler vectorises, then the offers, most of which one comparison rejects
    /// (faster than offering each point as it is computed: docs/performance.md).
    @inline(__always)
    func scanLeaf(_ node: Int, _ qx: Double, _ qy: Double, _ k: Int, _ found: inout Int, _ worst: inout Double,
                  _ dist: UnsafeMutablePointer<Double>, _ pos: UnsafeMutablePointer<Int32>) {
        let s = Int(start[node]), e = Int(end[node])
        let m = e - s
        if m > 64 {  // only with a leaf size above 64
            for q in s..<e {
                let dx = x[q] - qx, dy = y[q] - qy
                insert(dx * dx + dy * dy, q, k, &found, &worst, dist, pos)
            }
            return
        }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 64) { d in
            let d = d.baseAddress!, xs = x + s, ys = y + s
            for j in 0..<m { let dx = xs[j] - qx, dy = ys[j] - qy; d[j] = dx * dx + dy * dy }
            for j in 0..<m where d[j] < worst { insert(d[j], s + j, k, &found, &worst, dist, pos) }
        }
    }
}
