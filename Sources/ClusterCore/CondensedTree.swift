/// The condensed cluster tree of HDBSCAN (Campello, Moulavi & Sander 2013), in the row form
/// scikit-learn and the hdbscan library use, plus per-cluster summaries.
///
/// Rows: `(parent, child, lambda, childSize)`. `parent` is a cluster id; `child` is an input
/// row (`< pointCount`, `childSize == 1`: the point falls out of `parent` at `lambda`) or a
/// cluster id (`>= pointCount`: a child cluster born at `lambda`). Cluster ids start at
/// `pointCount` (the root, holding every point) and every child's id is larger than its
/// parent's. `lambda = 1 / distance`, infinite at distance 0.
///
/// **Ties.** Mutual-reachability weights tie often. Following HDBSCAN*'s definition (remove
/// *all* edges of the current weight at once), a run of single-linkage merges at one equal
/// distance is condensed as a single n-ary split: every part that reaches `minClusterSize`
/// becomes a child cluster when at least two do, the smaller parts' points fall out at that
/// lambda. The components at every distance are the same for every MST of the graph, so this
/// tree depends only on the set of points and the parameters, not on their order or on which
/// of several equal edges the MST holds. Where no ties matter it is the tree scikit-learn
/// builds. Sibling clusters get ids in order of the smallest input row they contain.
public struct CondensedTree: Sendable, Equatable {
    /// Number of input points.
    public let pointCount: Int
    public private(set) var parent: [Int32] = []
    public private(set) var child: [Int32] = []
    public private(set) var lambda: [Double] = []
    public private(set) var childSize: [Int32] = []

    /// Per cluster (index `id - pointCount`): parent cluster id (-1 for the root), lambda at
    /// birth (0 for the root), number of points, and stability
    /// `Σ_points (lambda_leave - lambda_birth)`, summed event by event in ascending lambda so
    /// the value does not depend on input order.
    public private(set) var clusterParent: [Int32] = []
    public private(set) var clusterBirth: [Double] = []
    public private(set) var clusterSize: [Int32] = []
    public private(set) var stability: [Double] = []
    /// Largest lambda among a cluster's own rows (its "death"); 0 for a cluster without rows.
    public private(set) var maxLambda: [Double] = []
    /// For each input row, the index of the row in which it falls out.
    public private(set) var rowOfPoint: [Int32] = []

    /// Number of clusters in the tree, the root included.
    public var clusterCount: Int { clusterParent.count }
    /// The root cluster's id.
    public var root: Int { pointCount }

    /// Condenses a single-linkage tree.
    /// - Parameter minClusterSize: the smallest part that counts as a cluster (at least 2).
    /// - Complexity: O(n) time and memory beyond the input.
    public init(linkage: SingleLinkageTree, minClusterSize: Int) {
        let n = linkage.pointCount
        pointCount = n
        precondition(minClusterSize >= 2, "minClusterSize must be at least 2")
        rowOfPoint = [Int32](repeating: -1, count: n)
        addCluster(parent: -1, birth: 0, size: n)
        guard let rootNode = linkage.root else {
            // Zero or one point: the root holds it, and it never leaves (lambda 0 row) —
            // for one point we still record a row so every point has one.
            if n == 1 { addRow(parent: n, child: 0, lambda: 0, size: 1) }
            return
        }

        // Smallest input row below each internal node, to order sibling clusters.
        var minRow = [Int32](repeating: 0, count: n - 1)
        func minRowOf(_ id: Int32) -> Int32 { Int(id) < n ? id : minRow[Int(id) - n] }
        for i in 0..<(n - 1) {
            let m = min(minRowOf(linkage.left[i]), minRowOf(linkage.right[i]))
            minRow[i] = m
        }

        // Breadth-first over (level node, cluster id) pairs.
        var queue: [(node: Int32, cluster: Int32)] = [(Int32(rootNode), Int32(n))]
        var head = 0
        var parts: [Int32] = []       // the level's children
        var stack: [Int32] = []       // scratch for walking tied merges and leaves
        var big: [Int32] = []
        while head < queue.count {
            let (node, cid) = queue[head]
            head += 1
            let d = linkage.distance[Int(node) - n]
            let lam = d > 0 ? 1.0 / d : Double.infinity

            // Collect the parts this cluster splits into when every edge of weight d goes.
            parts.removeAll(keepingCapacity: true)
            stack.removeAll(keepingCapacity: true)
            stack.append(node)
            while let v = stack.popLast() {
                let i = Int(v) - n
                for side in 0..<2 {
                    let c = side == 0 ? linkage.left[i] : linkage.right[i]
                    if Int(c) >= n && linkage.distance[Int(c) - n] == d {
                        stack.append(c)
                    } else {
                        parts.append(c)
                    }
                }
            }
            big.removeAll(keepingCapacity: true)
            var leaving = 0
            for c in parts where linkage.count(ofNode: Int(c)) >= minClusterSize { big.append(c) }

            let c0 = Int(cid) - n
            if big.count >= 2 {
                big.sort { minRowOf($0) < minRowOf($1) }
                for b in big {
                    let size = linkage.count(ofNode: Int(b))
                    let newID = Int32(addCluster(parent: Int(cid), birth: lam, size: size))
                    addRow(parent: Int(cid), child: Int(newID), lambda: lam, size: size)
                    leaving += size
                    queue.append((b, newID))
                }
            } else if big.count == 1 {
                queue.append((big[0], cid))
            }
            // Points of the parts too small to be clusters fall out here.
            for c in parts where linkage.count(ofNode: Int(c)) < minClusterSize {
                leaving += linkage.count(ofNode: Int(c))
                stack.append(c)
                while let v = stack.popLast() {
                    if Int(v) < n {
                        addRow(parent: Int(cid), child: Int(v), lambda: lam, size: 1)
                    } else {
                        stack.append(linkage.right[Int(v) - n])
                        stack.append(linkage.left[Int(v) - n])
                    }
                }
            }
            if leaving > 0 {
                stability[c0] += (lam - clusterBirth[c0]) * Double(leaving)
                if lam > maxLambda[c0] { maxLambda[c0] = lam }
            }
        }
    }

    @discardableResult
    private mutating func addCluster(parent: Int, birth: Double, size: Int) -> Int {
        clusterParent.append(Int32(parent))
        clusterBirth.append(birth)
        clusterSize.append(Int32(size))
        stability.append(0)
        maxLambda.append(0)
        return pointCount + clusterParent.count - 1
    }

    private mutating func addRow(parent p: Int, child c: Int, lambda l: Double, size: Int) {
        if c < pointCount { rowOfPoint[c] = Int32(parent.count) }
        parent.append(Int32(p))
        child.append(Int32(c))
        lambda.append(l)
        childSize.append(Int32(size))
    }

    /// Child cluster ids of every cluster (index `id - pointCount`), in id order.
    public func clusterChildren() -> [[Int32]] {
        var result = [[Int32]](repeating: [], count: clusterCount)
        for k in 1..<max(clusterCount, 1) {
            result[Int(clusterParent[k]) - pointCount].append(Int32(pointCount + k))
        }
        return result
    }
}
