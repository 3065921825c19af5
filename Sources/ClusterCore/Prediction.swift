// Approximate prediction from a fitted HDBSCAN, with the hdbscan library's semantics
// (`approximate_predict`, `approximate_predict_scores`): a new point is not refitted; it joins
// the fitted point nearest to it by mutual reachability among its 2·minSamples nearest, at
// that distance's lambda, and takes the cluster the condensed tree holds there.
//
// Glossary (see HDBSCAN.swift for the rest)
// - m: the model's minSamples, the hdbscan library's min_samples of the same fit (the fit's
//   neighbour count less the point itself; at least 1): a fitted point's core distance here is
//   the distance to its m-th nearest fitted point, itself included (hdbscan's prediction data
//   counts it so, one short of its fit), and a new point's the distance to its (m+1)-th
//   nearest fitted point.
// - group maximum lambda: the largest lambda among a cluster's own rows (points leaving it and
//   child clusters born from it); hdbscan's `leaf_max_lambdas`.

/// One new point's answer from `PredictionModel.predict`.
public struct Prediction: Sendable, Equatable, BitwiseCopyable {
    /// The cluster label the point joins (a fitted label), or -1 for noise.
    public var label: Int32
    /// Its membership probability in that cluster (0 for noise).
    public var probability: Double
    /// Its GLOSH outlier score against the fitted tree (hdbscan's `approximate_predict_scores`).
    public var outlierScore: Double
    /// The fitted row it joins (hdbscan's connecting point).
    public var connectingRow: Int32
}

/// What prediction and soft clustering need from a fitted HDBSCAN (hdbscan's `prediction_data_`):
/// the fitted points and their index, each point's core distance and where it falls out of the
/// condensed tree, the cluster tree and the selected clusters' exemplars.
public struct PredictionModel: Sendable {
    /// The neighbour number m of the rules: the hdbscan library's `min_samples` of the fit.
    public let minSamples: Int
    /// The fitted points.
    public let points: PointSet
    let tree: KDTree
    /// By row: distance to the m-th nearest fitted point, itself included.
    let core: [Double]
    /// By row: the cluster index (`id - pointCount`) the point falls out of, and the lambda.
    let fallCluster: [Int32]
    let fallLambda: [Double]
    /// By cluster index: parent index (-1 for the root), lambda at birth, depth (root 0).
    let parent: [Int32]
    let birth: [Double]
    let depth: [Int32]
    /// By cluster index: the group maximum lambda, and the largest anywhere in its subtree.
    let groupMaxLambda: [Double]
    let subtreeMaxLambda: [Double]
    /// By cluster index: the label of the selected cluster at or above it, -1 if none.
    let labelOfCluster: [Int32]
    /// By label: its selected cluster's index.
    let selected: [Int32]
    /// By label: the rows of its exemplars (`exemplarRows`).
    public let exemplarRows: [[Int32]]

    /// The number of fitted clusters (labels 0 ..< clusterCount).
    public var clusterCount: Int { selected.count }

    /// The model of a fit.
    /// - Parameters:
    ///   - points: the points `result` was fitted on, in the same rows.
    ///   - result: the fit; it must hold its condensed tree (`HDBSCANOutputs.condensedTree` or
    ///     `.clusterTree`).
    ///   - parameters: the fit's parameters.
    ///   - threads: workers for the index and the core distances; the model is the same for any.
    /// - Throws: `.invalidParameter` when the result has no condensed tree or another number
    ///   of points.
    /// - Complexity: O(n log n): an index and a k-NN pass over the fitted points.
    public init(points: PointSet, result: HDBSCANResult, parameters: HDBSCANParameters,
                threads: Int = 1) throws(ClusterCoreError) {
        guard let condensed = result.condensedTree else {
            throw .invalidParameter(name: "result", value: "a fit without its condensed tree",
                                    requirement: "must keep .condensedTree or .clusterTree")
        }
        guard condensed.pointCount == points.count else {
            throw .invalidParameter(name: "points", value: "\(points.count) points",
                                    requirement: "must be the \(condensed.pointCount) points of the fit")
        }
        let m = max(1, parameters.minSamplesConvention.neighbourCount(minSamples: parameters.effectiveMinSamples) - 1)
        let tree = KDTree(points: points, threads: threads)
        let (fallCluster, fallLambda) = Self.fallingOut(condensed)
        let n = Int32(points.count)
        let parts = Parts(
            minSamples: m, points: points,
            core: points.count == 0 ? [] : try Self.coreDistances(tree, min(m, points.count), threads),
            fallCluster: fallCluster, fallLambda: fallLambda,
            parent: condensed.clusterParent.map { $0 < 0 ? -1 : $0 - n }, birth: condensed.clusterBirth,
            selected: result.selectedClusters.map { $0 - n })
        self.init(parts, tree: tree)
    }

    /// What a model is made of; the rest is derived from it (`init(_:tree:)`).
    struct Parts {
        var minSamples: Int
        var points: PointSet
        var core: [Double]
        var fallCluster: [Int32]
        var fallLambda: [Double]
        /// By cluster index: parent index (-1 for the root), lambda at birth.
        var parent: [Int32]
        var birth: [Double]
        /// By label: the selected cluster's index.
        var selected: [Int32]
    }

    /// The model of `parts`, over `tree` (the k-d tree of `parts.points`).
    init(_ parts: Parts, tree: KDTree) {
        minSamples = parts.minSamples
        points = parts.points
        self.tree = tree
        core = parts.core
        (fallCluster, fallLambda) = (parts.fallCluster, parts.fallLambda)
        let shape = ClusterShape(parent: parts.parent, birth: parts.birth, fallCluster: fallCluster, fallLambda: fallLambda)
        (parent, birth, depth) = (shape.parent, shape.birth, shape.depth)
        (groupMaxLambda, subtreeMaxLambda) = (shape.groupMax, shape.subtreeMax)
        selected = parts.selected
        labelOfCluster = shape.labels(selected: selected)
        exemplarRows = shape.exemplars(selected: selected, fallCluster: fallCluster, fallLambda: fallLambda)
    }

    /// The parts this model was made of.
    var parts: Parts {
        Parts(minSamples: minSamples, points: points, core: core, fallCluster: fallCluster, fallLambda: fallLambda,
              parent: parent, birth: birth, selected: selected)
    }

    /// Core distances by row with k = m, the point itself included.
    private static func coreDistances(_ tree: KDTree, _ m: Int, _ threads: Int) throws(ClusterCoreError) -> [Double] {
        let byPosition = try CoreDistances.compute(tree: tree, minSamples: m, convention: .sklearn, threads: threads)
        var byRow = [Double](repeating: 0, count: byPosition.count)
        for p in 0..<byPosition.count { byRow[Int(tree.index[p])] = byPosition[p] }
        return byRow
    }

    /// Where each row falls out, as cluster indices.
    private static func fallingOut(_ tree: CondensedTree) -> ([Int32], [Double]) {
        let (cluster, lambda) = tree.fallingOut()
        let n = Int32(tree.pointCount)
        return (cluster.map { $0 - n }, lambda)
    }
}

extension PredictionModel {
    /// Predicts every point of `newPoints` (hdbscan's `approximate_predict` and
    /// `approximate_predict_scores`, and its connecting points).
    /// - Parameter threads: workers for the queries; the answers are the same for any value.
    /// - Complexity: O(q (log n + m + depth)) for q new points.
    public func predict(_ newPoints: PointSet, threads: Int = 1) -> [Prediction] {
        let blank = Prediction(label: -1, probability: 0, outlierScore: 1, connectingRow: -1)
        guard points.count > 0 else { return [Prediction](repeating: blank, count: newPoints.count) }
        return [Prediction].initialized(count: newPoints.count) { base in
            let out = SharedBuffer(base: base)
            Parallel.forEachChunk(count: newPoints.count, grain: 4096, threads: threads) { chunk, _ in
                var buffer = KNNBuffer(k: min(2 * minSamples, points.count), tree: tree)
                for i in chunk { out[i] = predict(x: newPoints.xs[i], y: newPoints.ys[i], buffer: &buffer) }
            }
        }
    }

    /// One point's answer; `buffer` is scratch (k = min(2m, n)) reused across calls.
    public func predict(x: Double, y: Double, buffer: inout KNNBuffer) -> Prediction {
        let join = joining(x: x, y: y, buffer: &buffer)
        let row = Int(join.row)
        let cluster = clusterAt(row: row, lambda: join.lambda)
        let label = labelOfCluster[cluster]
        var probability = 0.0
        if label >= 0 {
            let top = groupMaxLambda[Int(selected[Int(label)])]
            probability = top > 0 ? min(top, join.lambda) / top : 1
        }
        let lambda = join.nearestDistance == 0 ? fallLambda[row] : join.lambda
        return Prediction(label: label, probability: probability,
                          outlierScore: Self.outlierScore(death: subtreeMaxLambda[Int(fallCluster[row])], lambda: lambda),
                          connectingRow: join.row)
    }

    /// The fitted row a new point joins, the lambda at which it does, and the distance to its
    /// nearest fitted point. Neighbours at equal distance are taken in row order, and the first
    /// of equally reachable neighbours wins (hdbscan takes its tree's order).
    func joining(x: Double, y: Double, buffer: inout KNNBuffer) -> (row: Int32, lambda: Double, nearestDistance: Double) {
        tree.nearest(x: x, y: y, into: &buffer)
        let found = buffer.found
        var neighbours = (0..<found).map { (d: buffer.squaredDistances[$0].squareRoot(), row: tree.index[Int(buffer.positions[$0])]) }
        neighbours.sort { ($0.d, $0.row) < ($1.d, $1.row) }
        let own = neighbours[min(minSamples, found - 1)].d
        var best = Double.infinity, bestRow: Int32 = -1
        for (d, row) in neighbours {
            let reach = max(core[Int(row)], own, d)
            if reach < best { (best, bestRow) = (reach, row) }
        }
        let lambda = best > 0 ? 1 / best : Double.greatestFiniteMagnitude
        return (bestRow, lambda, neighbours[0].d)
    }

    /// The cluster index a point joining `row` at `lambda` lands in: where the row falls out,
    /// or, when the new point joins at a lower lambda, the highest ancestor born at or after it.
    func clusterAt(row: Int, lambda: Double) -> Int {
        var cluster = Int(fallCluster[row])
        guard fallLambda[row] > lambda else { return cluster }
        while cluster > 0 && birth[cluster] >= lambda { cluster = Int(parent[cluster]) }
        return cluster
    }

    /// GLOSH against the largest lambda below where the point joins. Where that lambda is
    /// infinite (points coinciding at least m times) hdbscan returns NaN; here a point at
    /// infinite lambda scores 0 and any other 1, as in the fit's own scores.
    static func outlierScore(death: Double, lambda: Double) -> Double {
        if death.isInfinite { return lambda >= Double.greatestFiniteMagnitude ? 0 : 1 }
        return death > 0 ? (death - lambda) / death : 0
    }
}
