/// The condensed cluster tree of HDBSCAN (Campello, Moulavi & Sander 2013), in the row form
/// scikit-learn and the hdbscan library use, plus per-cluster summaries.
///
/// Rows: `(parent, child, lambda, childSize)`. `parent` is a cluster id; `child` is an input
/// row (`< pointCount`, `childSize` 1, or the row's sample weight: the point falls out of
/// `parent` at `lambda`) or a cluster id (`>= pointCount`: a child cluster born at `lambda`).
/// With sample weights, sizes and stabilities count weight: a row of weight w counts as w
/// points. Cluster ids start at
/// `pointCount` (the root, holding every point) and every child's id is larger than its
/// parent's. `lambda = 1 / distance`, infinite at distance 0.
///
/// **Ties.** Mutual-reachability weights tie often. By default (`TieRule.allAtOnce`, HDBSCAN*'s
/// definition: remove *all* edges of the current weight at once), a run of single-linkage
/// merges at one equal distance is condensed as a single n-ary split: every part that reaches
/// `minClusterSize` becomes a child cluster when at least two do, the smaller parts' points
/// fall out at that lambda. The components at every distance are the same for every MST of the
/// graph, so this tree depends only on the set of points and the parameters, not on their
/// order or on which of several equal edges the MST holds. `TieRule.oneAtATime` condenses each
/// merge on its own, as scikit-learn and the hdbscan library do. Where no ties matter both are
/// the tree scikit-learn builds. Sibling clusters get ids in order of the smallest input row
/// they contain.
public struct CondensedTree: Sendable, Equatable {
    /// Number of input points.
    public let pointCount: Int
    /// Each row's parent cluster id.
    public private(set) var parent: [Int32] = []
    /// Each row's child: an input row (`< pointCount`) or a cluster id.
    public private(set) var child: [Int32] = []
    /// Each row's lambda (1 / distance) at which the child leaves its parent.
    public private(set) var lambda: [Double] = []
    /// Each row's number of points in the child (1 for a point; with sample weights, weights).
    public private(set) var childSize: [Int32] = []

    /// Per cluster (index `id - pointCount`): parent cluster id (-1 for the root), lambda at
    /// birth (0 for the root), number of points, and stability
    /// `Σ_points (lambda_leave - lambda_birth)`, summed event by event in ascending lambda so
    /// the value does not depend on input order.
    public private(set) var clusterParent: [Int32] = []
    /// Per cluster: lambda at birth (0 for the root).
    public private(set) var clusterBirth: [Double] = []
    /// Per cluster: its number of points.
    public private(set) var clusterSize: [Int32] = []
    /// Per cluster: its stability, `Σ_points (lambda_leave - lambda_birth)`.
    public private(set) var stability: [Double] = []
    /// Largest lambda among a cluster's own rows (its "death"); 0 for a cluster without rows.
    public private(set) var maxLambda: [Double] = []
    /// For each input row, the index of the row in which it falls out.
    public private(set) var rowOfPoint: [Int32] = []
    /// Without point rows (see `init(linkage:minClusterSize:pointRows:threads:)`): by leaf (a
    /// point, or a location), the cluster its points fall out of and the lambda at which they
    /// do; empty otherwise.
    private(set) var leafCluster: [Int32] = []
    private(set) var leafLambda: [Double] = []
    /// Without point rows over locations: the leaf (location) of each input row, which the
    /// labelling reads its values through (see `indexRowsByLeaf`); empty otherwise.
    private(set) var leafOfRow: [Int32] = []

    /// Number of clusters in the tree, the root included.
    public var clusterCount: Int { clusterParent.count }
    /// The root cluster's id.
    public var root: Int { pointCount }

    /// Condenses a single-linkage tree.
    /// - Parameters:
    ///   - linkage: the single-linkage tree of the points.
    ///   - minClusterSize: the smallest part that counts as a cluster (at least 2).
    ///   - ties: how merges at one distance are condensed (`TieRule`).
    ///   - threads: workers that allocate the output arrays (the walk itself is sequential);
    ///     the result is the same for any value.
    /// - Complexity: O(n) time and memory beyond the input.
    public init(linkage: SingleLinkageTree, minClusterSize: Int, ties: TieRule = .allAtOnce, threads: Int = 1) {
        self.init(linkage: linkage, minClusterSize: minClusterSize, ties: ties, pointRows: true, threads: threads)
    }

    /// The same tree, over the linkage's leaves (points, or weighted locations: see
    /// `SingleLinkageTree.locations`), the rows naming points; optionally without its point
    /// rows. Then the rows hold the child clusters only, and where each leaf's points fall out
    /// is kept by leaf (`leafCluster`, `leafLambda`: all the points of a location fall out
    /// together), which is all the labelling needs: labelling from the rows reads two rows at
    /// random per point (`rowOfPoint`, then `parent` and `lambda`), and over many points
    /// writing a row per point and reading it back is the larger part of both stages.
    init(linkage: SingleLinkageTree, minClusterSize: Int, ties: TieRule, pointRows: Bool, threads: Int) {
        let leaves = linkage.locations
        let n = leaves?.pointCount ?? linkage.pointCount
        pointCount = n
        precondition(minClusterSize >= 2, "minClusterSize must be at least 2")
        guard let rootNode = linkage.root, n >= 2 else {
            setRootOnly()
            return
        }
        // Every split makes at least two clusters of at least minClusterSize points, so there
        // are at most 2n/minClusterSize clusters besides the root; every point and every
        // non-root cluster has one row. The hot loop writes through raw buffers of those
        // sizes (array appends spent much of this stage's time in uniqueness checks).
        // With sample weights the parts' sizes are weights: every cluster is still a distinct
        // node of the linkage, so there are also fewer than twice as many as its leaves.
        let weightTotal = leaves?.rowWeight == nil ? n : leaves!.weight.reduce(0) { $0 + Int($1) }
        let maxClusters = 2 * min(weightTotal / minClusterSize, max(n, linkage.pointCount)) + 1
        // The per-row arrays (and rowOfPoint) are the final arrays, written through their
        // buffers and cut to length at the end: copying them out of scratch buffers cost time
        // and peak memory.
        let rowCapacity = (pointRows ? n : 0) + maxClusters
        var rowParent = [Int32].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var rowChild = [Int32].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var rowLambda = [Double].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var rowChildSize = [Int32].filled(count: rowCapacity, threads: threads) { _ in 0 }
        var pointRow = [Int32].filled(count: pointRows ? n : 1, threads: threads) { _ in 0 }
        var rowCount = 0, clusterCount = 0
        var leafCluster = [Int32](), leafLambda = [Double]()
        let clusterBuffers = ClusterBuffers(clusters: maxClusters)
        rowParent.withUnsafeMutableBufferPointer { bParent in
        rowChild.withUnsafeMutableBufferPointer { bChild in
        rowLambda.withUnsafeMutableBufferPointer { bLambda in
        rowChildSize.withUnsafeMutableBufferPointer { bChildSize in
        pointRow.withUnsafeMutableBufferPointer { bPointRow in
            let out = RowBuffers(parent: bParent.baseAddress!, child: bChild.baseAddress!, lambda: bLambda.baseAddress!,
                                 childSize: bChildSize.baseAddress!, rowOfPoint: bPointRow.baseAddress!,
                                 byLeaf: !pointRows,
                                 clusters: clusterBuffers)
            LocatedLeaves.withView(leaves) { view in
                var walk = CondenseWalk(linkage, located: view, minClusterSize: minClusterSize, ties: ties,
                                        threads: threads, into: out)
                defer { walk.deallocate() }
                walk.run(rootNode: rootNode)
                (rowCount, clusterCount) = (walk.rowCount, walk.clusterCount)
                (leafCluster, leafLambda) = walk.leafOutputs(linkage)
            }
        }}}}}

        rowParent.removeLast(rowCapacity - rowCount); rowChild.removeLast(rowCapacity - rowCount)
        rowLambda.removeLast(rowCapacity - rowCount); rowChildSize.removeLast(rowCapacity - rowCount)
        parent = rowParent; child = rowChild; lambda = rowLambda; childSize = rowChildSize
        rowOfPoint = pointRows ? pointRow : []
        self.leafCluster = leafCluster
        self.leafLambda = leafLambda
        take(clusterBuffers, count: clusterCount)
    }

    /// Zero or one point: just the root; one point gets a row at lambda 0 so every point has one.
    private mutating func setRootOnly() {
        let n = pointCount
        clusterParent = [-1]; clusterBirth = [0]; clusterSize = [Int32(n)]
        stability = [0]; maxLambda = [0]
        rowOfPoint = n == 1 ? [0] : []
        if n == 1 { parent = [Int32(n)]; child = [0]; lambda = [0]; childSize = [1] }
    }

    /// Moves the walk's clusters into the cluster arrays and frees its buffers.
    private mutating func take(_ buffers: ClusterBuffers, count: Int) {
        func take<T>(_ buffer: UnsafeMutablePointer<T>) -> [T] {
            defer { buffer.deallocate() }
            return Array(UnsafeBufferPointer(start: buffer, count: count))
        }
        clusterParent = take(buffers.clusterParent)
        clusterBirth = take(buffers.clusterBirth)
        clusterSize = take(buffers.clusterSize)
        stability = take(buffers.stability)
        maxLambda = take(buffers.maxLambda)
    }

    /// Notes the leaf of every input row when the leaves are locations and the tree has no
    /// point rows (`leafCluster` by location): the labelling then computes each location's
    /// values once and reads them by row.
    mutating func indexRowsByLeaf(_ leaves: LocatedLeaves?, threads: Int) {
        guard let leaves, rowOfPoint.isEmpty, !leafCluster.isEmpty else { return }
        leafOfRow = leaves.leafOfRow(threads: threads)
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

/// How HDBSCAN condenses single-linkage merges at one equal distance.
public enum TieRule: String, Sendable, CaseIterable {
    /// HDBSCAN*'s definition: every edge of the current weight goes at once, so a cluster
    /// splits into all its parts at that distance in one step (parts below `minClusterSize`
    /// fall out). The result depends only on the set of points, never on their order. The
    /// default.
    case allAtOnce = "all-at-once"
    /// scikit-learn's and the hdbscan library's dendrogram: the merges are condensed one by
    /// one, in the order the spanning tree's edges are sorted in (equal weights in a fixed
    /// order that depends on the points, not on the rows' order). Parts that join at one
    /// distance can form a cluster together where all at once they would fall out, so it
    /// labels fewer points noise where ties decide.
    case oneAtATime = "one-at-a-time"
}
