/// A single-linkage dendrogram in scipy's linkage form: merge `i` creates node `n + i` from
/// nodes `left[i]` and `right[i]` (ids below `n` are input rows) at `distance[i]`, and the new
/// node holds `size[i]` points. Merges are in ascending distance order.
public struct SingleLinkageTree: Sendable, Equatable {
    /// Number of input points (leaves).
    public let pointCount: Int
    public var left: [Int32]
    public var right: [Int32]
    public var distance: [Double]
    public var size: [Int32]

    /// The root's node id (`2n - 2`), or nil for fewer than two points.
    public var root: Int? { pointCount >= 2 ? 2 * pointCount - 2 : nil }

    /// Builds the tree from MST edges sorted by weight with Kruskal's algorithm: each edge joins
    /// the current clusters of its endpoints (`left` holds edge end `a`'s cluster, `right`
    /// `b`'s).
    /// - Precondition: `mst` spans `pointCount` points and is sorted ascending by weight.
    /// - Complexity: O(n α(n)).
    public init(mst: MinimumSpanningTree, pointCount n: Int) {
        precondition(n == 0 || mst.count == n - 1, "an MST over n points has n - 1 edges")
        pointCount = n
        let m = mst.count
        left = [Int32](repeating: 0, count: m)
        right = [Int32](repeating: 0, count: m)
        distance = mst.weight
        size = [Int32](repeating: 0, count: m)
        var uf = UnionFind(count: n)
        // The dendrogram node currently standing for each union-find root.
        var nodeOfRoot = (0..<Int32(n)).map { $0 }
        for i in 0..<m {
            precondition(i == 0 || mst.weight[i - 1] <= mst.weight[i], "MST edges must be sorted by weight")
            let ra = uf.find(Int(mst.a[i])), rb = uf.find(Int(mst.b[i]))
            precondition(ra != rb, "MST edges must not form a cycle")
            left[i] = nodeOfRoot[ra]
            right[i] = nodeOfRoot[rb]
            size[i] = Int32(uf.setSize(ofRoot: ra) + uf.setSize(ofRoot: rb))
            let r = uf.union(ra, rb)!
            nodeOfRoot[r] = Int32(n + i)
        }
    }

    /// The number of points under node `id`.
    @inlinable
    public func count(ofNode id: Int) -> Int { id < pointCount ? 1 : Int(size[id - pointCount]) }
}
