// Grid clustering: the baseline that map SDKs use for marker clustering (e.g. a "grid-based
// clusterer"). Square cells of a fixed size; a cell with enough points is a cluster.
//
// - Cells have side `cellSize` metres in the projected plane and are anchored at its origin:
//   cell (i, j) is [i·s, (i+1)·s) × [j·s, (j+1)·s), a point's cell is
//   (floor(x / s), floor(y / s)) computed in Double arithmetic. Anchoring at the origin and
//   not at the data means that adding or removing points never moves the cells.
// - A cell with at least `minPoints` points is *dense*; each dense cell is one cluster, or with
//   `mergeAdjacent`, dense cells that touch at a side or a corner (8-adjacency) form one
//   cluster together. Points in other cells are noise (-1).
// - Clusters are numbered 0, 1, … in the order of their lowest input row (the convention of
//   DBSCAN and scikit-learn), so the numbering depends on the rows, never on the cell layout.

/// The parameters of grid clustering.
public struct GridParameters: Sendable, Equatable {
    /// Cell side in metres (the points' unit); finite and > 0.
    public var cellSize: Double
    /// Points that make a cell dense; at least 1.
    public var minPoints: Int
    /// Whether 8-adjacent dense cells form one cluster.
    public var mergeAdjacent: Bool

    /// The default `minPoints`, for every caller (the command line's `--min-points` included).
    public static let defaultMinPoints = 2

    /// Parameters; each sets the property of its name, `validate()` checks them.
    public init(cellSize: Double, minPoints: Int = GridParameters.defaultMinPoints, mergeAdjacent: Bool = false) {
        self.cellSize = cellSize
        self.minPoints = minPoints
        self.mergeAdjacent = mergeAdjacent
    }

    /// Checks every parameter's range.
    public func validate() throws(ClusterCoreError) {
        guard cellSize > 0 && cellSize.isFinite else {
            throw .invalidParameter(name: "cellSize", value: "\(cellSize)", requirement: "must be a finite distance > 0")
        }
        guard minPoints >= 1 else {
            throw .invalidParameter(name: "minPoints", value: "\(minPoints)", requirement: "must be at least 1")
        }
    }
}

/// What one grid clustering run produces, indexed by input row.
public struct GridResult: Sendable, Equatable {
    /// Cluster of each row, `0..<clusterCount` in the order of each cluster's lowest row, or -1.
    public var labels: [Int32]
    /// The number of clusters.
    public var clusterCount: Int
}

/// Clustering by square cells of a fixed size, the map SDKs' baseline (see the file's header).
public enum GridClustering: Sendable {
    /// Clusters planar points by grid cells.
    /// - Throws: `ClusterCoreError.invalidParameter` for an out-of-range parameter, or when the
    ///   points span more than 2³¹ cells along an axis (a cell size far too small for the data).
    /// - Complexity: O(n) time (a counting or radix sort by cell, one sweep over the cells, one
    ///   pass over the rows) and O(n) memory.
    public static func fit(
        _ points: PointSet, parameters: GridParameters, observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> GridResult {
        try parameters.validate()
        return try observer.run(GridStage.grid) { () throws(ClusterCoreError) in try cluster(points, parameters) }
    }

    private static func cluster(_ points: PointSet, _ parameters: GridParameters) throws(ClusterCoreError) -> GridResult {
        let n = points.count
        let grid = try CellIndex(xs: points.xs, ys: points.ys, side: parameters.cellSize, originX: 0, originY: 0,
                                 parameterName: "cellSize")
        let cells = grid.cellCount
        var dense = [Bool](repeating: false, count: cells)
        for c in 0..<cells { dense[c] = grid.size(c) >= parameters.minPoints }

        // Components of dense cells (each its own unless merging).
        var uf = UnionFind(count: cells)
        if parameters.mergeAdjacent {
            // Each adjacent pair once: the right neighbour, and the three cells of the next row.
            var cursors = grid.cursors(startingAt: 0, rowOffsets: 0...1, reach: 1)
            for c in 0..<cells where dense[c] {
                let i = grid.column(c), j = grid.row(c)
                for d in grid.cells(row: j, columns: i + 1, i + 1, cursor: &cursors[0]) where dense[d] {
                    uf.union(c, d)
                }
                for d in grid.cells(row: j + 1, columns: i - 1, i + 1, cursor: &cursors[1]) where dense[d] {
                    uf.union(c, d)
                }
            }
        }
        // Number the components in the order of their lowest input row: one pass over the rows.
        var cellOfRow = [Int32](repeating: 0, count: n)
        for c in 0..<cells {
            for p in Int(grid.cellStart[c])..<Int(grid.cellStart[c + 1]) { cellOfRow[Int(grid.rows[p])] = Int32(c) }
        }
        var labelOfRoot = [Int32](repeating: -1, count: cells)
        var labels = [Int32](repeating: -1, count: n)
        var clusterCount: Int32 = 0
        for i in 0..<n {
            let c = Int(cellOfRow[i])
            guard dense[c] else { continue }
            let root = uf.find(c)
            if labelOfRoot[root] < 0 { labelOfRoot[root] = clusterCount; clusterCount += 1 }
            labels[i] = labelOfRoot[root]
        }
        return GridResult(labels: labels, clusterCount: Int(clusterCount))
    }
}
