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
        let run = FeatureDBSCAN(indexed: indexed, eps2: parameters.eps * parameters.eps, minSamples: parameters.minSamples,
                                sampleWeights: sampleWeight.map { indexed.positionWeights($0) },
                                firstRow: indexed.firstRows(threads: threads), threads: threads, observer: observer)
        return indexed.tree.read(run)
    }
}

/// DBSCAN's stages over a view of any width.
private struct FeatureDBSCAN<Observer: StageObserver>: FeatureViewReader {
    let indexed: FeatureLocations
    let eps2: Double
    let minSamples: Int
    let sampleWeights: [Double]?
    let firstRow: [Int32]
    let threads: Int
    let observer: Observer

    func read<W: FeatureWidth>(_ view: FeatureView<W>) -> DBSCANResult {
        let near = FeatureNeighbourhood(view: view, eps2: eps2, weights: indexed.weightAt, sampleWeights: sampleWeights,
                                        firstRow: firstRow)
        return near.run(minSamples: minSamples, indexed: indexed, threads: threads, observer: observer)
    }
}

/// The neighbour relation of a DBSCAN run in d dimensions, by tree position.
private struct FeatureNeighbourhood<W: FeatureWidth>: NeighbourRelation {
    /// The tree's view (valid while `FeatureTree.read` runs).
    let view: FeatureView<W>
    /// eps², the largest squared distance of two neighbours.
    let eps2: Double
    let weights: [Int32]?
    let sampleWeights: [Double]?
    let firstRow: [Int32]

    var count: Int { view.count }
    func withView<R>(_ body: (FeatureView<W>) -> R) -> R { body(view) }

    @inline(__always) func forEachNeighbour(_ v: FeatureView<W>, of p: Int, _ body: (Int) -> Bool) {
        v.forEach(within: eps2, of: p) { q, _ in body(q) }
    }
}
