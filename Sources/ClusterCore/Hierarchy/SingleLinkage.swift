/// A single-linkage dendrogram in scipy's linkage form: merge `i` creates node `n + i` from
/// nodes `left[i]` and `right[i]` (ids below `n` are input rows) at `distance[i]`, and the new
/// node holds `size[i]` points. Merges are in ascending distance order.
public struct SingleLinkageTree: Sendable, Equatable {
    /// Number of leaves: the input points, or over locations the locations (see `locations`).
    public let pointCount: Int
    /// Merge `i`'s first node.
    public var left: [Int32]
    /// Merge `i`'s second node.
    public var right: [Int32]
    /// Merge `i`'s distance (ascending).
    public var distance: [Double]
    /// The number of points under merge `i`'s new node.
    public var size: [Int32]
    /// Over distinct locations (HDBSCAN's own linkage, never returned): the rows each leaf
    /// stands for; `size[i]` then counts points (leaf weights). Nil when leaves are input rows.
    var locations: LocatedLeaves?

    /// The root's node id (`2n - 2`), or nil for fewer than two points.
    public var root: Int? { pointCount >= 2 ? 2 * pointCount - 2 : nil }

    /// Builds the tree from MST edges sorted by weight with Kruskal's algorithm: each edge joins
    /// the current clusters of its endpoints (`left` holds edge end `a`'s cluster, `right`
    /// `b`'s).
    /// - Precondition: `mst` spans `pointCount` points and is sorted ascending by weight.
    /// - Complexity: O(n α(n)).
    public init(mst: MinimumSpanningTree, pointCount n: Int) {
        self.init(weight: mst.weight, positionA: mst.a, positionB: mst.b, rowOf: nil, pointCount: n, threads: 1)
    }

    /// The tree over a spanning tree's leaves: over points, numbered by row again; over
    /// locations, numbered by tree position, with the locations' rows (see `locations`).
    init(spanning s: SpanningTree, threads: Int) {
        if let leaves = s.leaves {
            self.init(locatedWeights: s.weight, positionA: s.positionA, positionB: s.positionB, leaves: leaves,
                      threads: threads)
        } else {
            self.init(weight: s.weight, positionA: s.positionA, positionB: s.positionB, rowOf: s.rowOf,
                      pointCount: s.pointCount, threads: threads)
        }
    }

    /// The tree from MST weights with the edges' ends in other numbers for the points
    /// (`positionA[i]`/`positionB[i]`), `rowOf[position]` giving the row back (nil: they are
    /// rows). HDBSCAN passes k-d tree positions, whose memory order follows space: the
    /// union-find's random accesses then land near each other (see docs/performance.md).
    /// Leaves are mapped back to rows at the end, so the result is identical.
    private init(weight: [Double], positionA: [Int32], positionB: [Int32], rowOf: [Int32]?, pointCount n: Int,
                 threads: Int) {
        guard let tree = SingleLinkageTree(checking: weight, positionA: positionA, positionB: positionB, rowOf: rowOf,
                                           pointCount: n, threads: threads) else {
            preconditionFailure("MST edges must not form a cycle")
        }
        self = tree
    }

    /// The tree over a spanning tree whose every leaf is one point, or nil when an edge joins
    /// two points already joined (the edges then do not form a tree): the check a tree
    /// computed elsewhere needs, made by the union-find the linkage runs anyway.
    init?(checkedSpanning s: SpanningTree, threads: Int) {
        precondition(s.leaves == nil, "a checked linkage is over points")
        self.init(checking: s.weight, positionA: s.positionA, positionB: s.positionB, rowOf: s.rowOf,
                  pointCount: s.pointCount, threads: threads)
    }

    /// `init(weight:positionA:positionB:rowOf:pointCount:threads:)`, nil where an edge closes
    /// a cycle.
    private init?(checking weight: [Double], positionA: [Int32], positionB: [Int32], rowOf: [Int32]?,
                  pointCount n: Int, threads: Int) {
        precondition(n == 0 || weight.count == n - 1, "an MST over n points has n - 1 edges")
        precondition(positionA.count == weight.count && positionB.count == weight.count, "one position pair per edge")
        pointCount = n
        let m = weight.count
        left = .filled(count: m, threads: threads) { _ in 0 }
        right = .filled(count: m, threads: threads) { _ in 0 }
        distance = weight
        size = .filled(count: m, threads: threads) { _ in 0 }
        for i in 1..<max(m, 1) where weight[i - 1] > weight[i] {
            preconditionFailure("MST edges must be sorted by weight")
        }
        var sets = UnionFind(count: n)
        // The dendrogram node currently standing for each union-find root.
        var nodeOfRoot = [Int32].filled(count: n, threads: threads) { Int32($0) }
        let spanning = positionA.withUnsafeBufferPointer { ea in
        positionB.withUnsafeBufferPointer { eb in
        left.withUnsafeMutableBufferPointer { left in
        right.withUnsafeMutableBufferPointer { right in
        size.withUnsafeMutableBufferPointer { size in
        nodeOfRoot.withUnsafeMutableBufferPointer { nodeOfRoot in
            sets.withRawAccess { uf in
                for i in 0..<m {
                    let ra = uf.find(Int(ea[i])), rb = uf.find(Int(eb[i]))
                    if ra == rb { return false }
                    left[i] = nodeOfRoot[ra]
                    right[i] = nodeOfRoot[rb]
                    size[i] = Int32(uf.setSize(ofRoot: ra) + uf.setSize(ofRoot: rb))
                    nodeOfRoot[uf.unionRoots(ra, rb)] = Int32(n + i)
                }
                return true
            }
        }}}}}}
        guard spanning else { return nil }
        guard let rowOf else { return }
        precondition(rowOf.count == n, "one row per position")
        // Leaves back to rows; every point is a leaf exactly once.
        left.withUnsafeMutableBufferPointer { l in
        right.withUnsafeMutableBufferPointer { r in
            let ls = SharedBuffer(base: l.baseAddress!), rs = SharedBuffer(base: r.baseAddress!)
            Parallel.forEachChunk(count: m, grain: 1 << 15, threads: threads) { chunk, _ in
                for i in chunk {
                    if Int(ls[i]) < n { ls[i] = rowOf[Int(ls[i])] }
                    if Int(rs[i]) < n { rs[i] = rowOf[Int(rs[i])] }
                }
            }
        }}
    }

    /// The number of points under node `id`.
    @inlinable
    public func count(ofNode id: Int) -> Int { id < pointCount ? 1 : Int(size[id - pointCount]) }
}

extension SingleLinkageTree {
    /// The tree over weighted leaves (distinct locations, numbered as `positionA`/`positionB`
    /// number them): `pointCount` counts the leaves and `size[i]` the *points* (leaf weights)
    /// under merge i.
    /// - Precondition: `weight` ascending, the edges spanning `leaves.weight.count` leaves.
    private init(locatedWeights weight: [Double], positionA: [Int32], positionB: [Int32], leaves: LocatedLeaves,
                 threads: Int) {
        let leafWeight = leaves.weight
        let n = leafWeight.count
        locations = leaves
        let m = weight.count
        precondition(m == n - 1, "an MST over n leaves has n - 1 edges")
        pointCount = n
        distance = weight
        left = .filled(count: m, threads: threads) { _ in 0 }
        right = .filled(count: m, threads: threads) { _ in 0 }
        size = .filled(count: m, threads: threads) { _ in 0 }
        var sets = UnionFind(count: n)
        var nodeOfRoot = [Int32].filled(count: n, threads: threads) { Int32($0) }
        var weightOfRoot = leafWeight
        positionA.withUnsafeBufferPointer { ea in
        positionB.withUnsafeBufferPointer { eb in
        left.withUnsafeMutableBufferPointer { left in
        right.withUnsafeMutableBufferPointer { right in
        size.withUnsafeMutableBufferPointer { size in
        weightOfRoot.withUnsafeMutableBufferPointer { weightOfRoot in
        nodeOfRoot.withUnsafeMutableBufferPointer { nodeOfRoot in
            sets.withRawAccess { uf in
                for i in 0..<m {
                    let ra = uf.find(Int(ea[i])), rb = uf.find(Int(eb[i]))
                    precondition(ra != rb, "MST edges must not form a cycle")
                    left[i] = nodeOfRoot[ra]
                    right[i] = nodeOfRoot[rb]
                    let total = weightOfRoot[ra] + weightOfRoot[rb]
                    size[i] = total
                    let r = uf.unionRoots(ra, rb)
                    nodeOfRoot[r] = Int32(n + i)
                    weightOfRoot[r] = total
                }
            }
        }}}}}}}
    }
}
