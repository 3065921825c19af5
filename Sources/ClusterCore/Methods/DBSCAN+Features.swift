// DBSCAN in d dimensions, as scikit-learn's `DBSCAN(eps, min_samples)` computes it on the same
// array: two points are neighbours when their squared Euclidean distance is at most eps²
// (scikit-learn's k-d tree's test). Identical rows are grouped into weighted locations, the
// neighbours listed by the d-dimensional tree; core points, clusters (numbered by their lowest
// row) and border points (the lowest-numbered cluster among their core neighbours') follow the
// planar DBSCAN's definitions.

extension DBSCAN {
    /// Runs DBSCAN on points in d dimensions, by Euclidean distance. With `sampleWeight`
    /// (scikit-learn's meaning, as the planar `fit`) a point is core when the weights of the
    /// points within eps, its own included, add up to `minSamples`.
    /// - Throws: `.invalidParameter` for an out-of-range parameter, or weights that are not
    ///   finite or not one per row.
    /// - Complexity: O(n log n) for the tree plus the neighbours of every location, twice; a
    ///   k-d tree helps less as d grows. Identical for any `threads` and order of the rows.
    public static func fit(
        _ points: FeaturePoints, parameters: DBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> DBSCANResult {
        try parameters.validate()
        if let sampleWeight { try SampleWeights.check(sampleWeight, rows: points.count) }
        if points.count == 0 { return DBSCANResult(labels: [], isCore: [], clusterCount: 0) }
        let indexed = observer.run(DBSCANStage.grid) { FeatureLocations(points, threads: threads) }
        let near = FeatureNeighbourhood(tree: indexed.tree, eps2: parameters.eps * parameters.eps,
                                        weights: indexed.weightAt,
                                        sampleWeights: sampleWeight.map { indexed.positionWeights($0) },
                                        firstRow: indexed.firstRows(threads: threads))
        return near.run(minSamples: parameters.minSamples, indexed: indexed, threads: threads, observer: observer)
    }
}

/// The neighbour relation of a DBSCAN run in d dimensions, by tree position.
private struct FeatureNeighbourhood: NeighbourRelation {
    let tree: FeatureTree
    /// eps², the largest squared distance of two neighbours.
    let eps2: Double
    let weights: [Int32]?
    let sampleWeights: [Double]?
    let firstRow: [Int32]

    var count: Int { tree.count }
    func withView<R>(_ body: (FeatureView) -> R) -> R { tree.withView(body) }

    @inline(__always) func forEachNeighbour(_ v: FeatureView, of p: Int, _ body: (Int) -> Bool) {
        v.forEach(within: eps2, of: p) { q, _ in body(q) }
    }
}
