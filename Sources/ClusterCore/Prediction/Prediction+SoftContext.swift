// What soft clustering reads for every point, prepared once a call: each tree cluster's merge
// heights with the selected clusters, and each label's exemplars, indexed when they are many.

/// Per call of the membership functions (see `PredictionModel`'s soft clustering).
struct SoftContext {
    let model: PredictionModel
    /// By tree cluster × label: the merge height, NaN where one of the two lies under the other
    /// (the point's own lambda is the height then); nil when the table would be too large,
    /// and heights are walked up the tree point by point.
    let merge: [Double]?
    /// By label: its exemplar sites' coordinates, and an index over them when they are many.
    let exemplarXs: [[Double]]
    let exemplarYs: [[Double]]
    let exemplarTrees: [KDTree?]
    /// By label, on the sphere: its exemplars as radians (their coordinates are degrees of
    /// longitude and latitude then; none is indexed).
    let exemplarAngles: [[SphereAngles.Point]]

    /// The most table entries (tree clusters × labels) kept.
    static let tableLimit = 1 << 24
    /// Labels with more exemplars than this look the nearest up in an index.
    static let scanLimit = 32

    init(_ model: PredictionModel) {
        self.model = model
        let c = model.clusterCount, clusters = model.parent.count
        if clusters * c <= Self.tableLimit {
            var table = [Double](repeating: .nan, count: clusters * c)
            for a in 0..<clusters {
                for j in 0..<c { table[a * c + j] = model.mergeHeight(a, .nan, Int(model.selected[j])) }
            }
            merge = table
        } else {
            merge = nil
        }
        let points = model.sites.points
        exemplarXs = model.exemplarSites.map { $0.map { points.xs[Int($0)] } }
        exemplarYs = model.exemplarSites.map { $0.map { points.ys[Int($0)] } }
        if model.isOnSphere {
            exemplarTrees = exemplarXs.map { _ in nil }
            exemplarAngles = zip(exemplarXs, exemplarYs).map { xs, ys in zip(xs, ys).map(SphereAngles.Point.init(degrees:)) }
        } else {
            exemplarTrees = zip(exemplarXs, exemplarYs).map { xs, ys in
                xs.count > Self.scanLimit ? KDTree(points: try! PointSet(xs: xs, ys: ys)) : nil
            }
            exemplarAngles = []
        }
    }

    /// Scratch for `exemplarWeights` (nil when no label has an index).
    func scratch() -> KNNBuffer? {
        exemplarTrees.compactMap { $0 }.max { $0.nodeCount < $1.nodeCount }.map { KNNBuffer(k: 1, tree: $0) }
    }

    /// The merge heights of a point falling out of tree cluster `a` at `lambda` with every
    /// selected cluster, by label (hdbscan's `merge_height`).
    func heights(_ a: Int, _ lambda: Double) -> [Double] {
        let c = model.clusterCount
        guard let merge else { return model.selected.map { model.mergeHeight(a, lambda, Int($0)) } }
        return (0..<c).map { j in
            let h = merge[a * c + j]
            return h.isNaN ? lambda : h
        }
    }

    /// By label, the inverse of the distance to its nearest exemplar, normalised to sum 1
    /// (a point on an exemplar weighs the largest double over the number of clusters).
    func exemplarWeights(x: Double, y: Double, _ scratch: inout KNNBuffer?) -> [Double] {
        let c = model.clusterCount
        var weights = (0..<c).map { nearestExemplar($0, x, y, &scratch) }
        weights.withUnsafeMutableBufferPointer { PredictionModel.exemplarWeights(fromDistances: $0.baseAddress!, c) }
        return weights
    }

    /// The distance from (x, y) to the nearest exemplar of `label` (the largest double when it
    /// has none).
    private func nearestExemplar(_ label: Int, _ x: Double, _ y: Double, _ scratch: inout KNNBuffer?) -> Double {
        if !exemplarAngles.isEmpty {
            let list = exemplarAngles[label]
            return list.withUnsafeBufferPointer { PredictionModel.nearestAngle($0, to: SphereAngles.Point(degrees: (x, y))) }
        }
        if let tree = exemplarTrees[label], scratch != nil {
            tree.nearest(x: x, y: y, into: &scratch!)
            return scratch!.squaredDistances[0].squareRoot()
        }
        var nearest = Double.greatestFiniteMagnitude
        let xs = exemplarXs[label], ys = exemplarYs[label]
        for k in xs.indices {
            let dx = xs[k] - x, dy = ys[k] - y
            nearest = min(nearest, (dx * dx + dy * dy).squareRoot())
        }
        return nearest
    }
}
