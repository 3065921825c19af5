/// Flat labels, membership probabilities and GLOSH outlier scores from a condensed tree and
/// its selected clusters.
public struct Labeling: Sendable, Equatable {
    /// Cluster label of each input row: `0..<clusterCount`, or -1 for noise. Label `i` is the
    /// `i`-th selected cluster in ascending cluster id, as scikit-learn numbers them.
    public var labels: [Int32]
    /// scikit-learn's membership strength: `min(lambda_p, death) / death` where `death` is the
    /// largest lambda among the selected cluster's own rows; 1 for points that leave at
    /// infinite lambda (duplicates) or when `death` is 0; 0 for noise.
    public var probabilities: [Double]
    /// The hdbscan library's GLOSH score: `(death* - lambda_p) / death*` where `death*` is the
    /// largest lambda in the subtree of the cluster the point falls out of; 0 when `death*`
    /// is 0 or the point leaves at infinite lambda. Where `death*` is infinite (the subtree
    /// holds coincident points) and `lambda_p` is finite the library returns NaN; the limit,
    /// 1, is returned instead.
    public var outlierScores: [Double]
    /// The number of clusters.
    public var clusterCount: Int

    /// Labels the points (of a tree with or without point rows).
    /// - Parameters:
    ///   - tree: the condensed tree.
    ///   - selected: selected cluster ids, ascending (from `ClusterSelection.select`).
    ///   - allowSingleCluster: as given to the selection; with `epsilon` it decides which
    ///     points join the root when the root is the one selected cluster (scikit-learn's rule).
    ///   - epsilon: as given to the selection.
    ///   - threads: worker threads for the per-point pass (each point is independent, so the
    ///     result is the same for any value).
    /// - Complexity: O(n + c).
    public init(tree: CondensedTree, selected: [Int32], allowSingleCluster: Bool, epsilon: Double,
                threads: Int = 1) {
        let n = tree.pointCount
        clusterCount = selected.count
        guard n > 0, tree.clusterCount > 0 else {
            labels = .filled(count: n, threads: threads) { _ in -1 }
            probabilities = .filled(count: n, threads: threads) { _ in 0 }
            outlierScores = .filled(count: n, threads: threads) { _ in 0 }
            return
        }
        let rule = LabelRule(tree: tree, selected: selected, allowSingleCluster: allowSingleCluster, epsilon: epsilon)
        // Over locations, each location's values once, packed so a row's lookup reads one
        // cache line (made before the outputs, so they take memory the tree's stages freed).
        let leafCluster = tree.leafCluster, leafLambda = tree.leafLambda
        let perLeaf: [Values] = tree.leafOfRow.isEmpty ? [] : .filled(count: leafCluster.count, threads: threads) { leaf in
            rule.values(Int(leafCluster[leaf]) - n, leafLambda[leaf])
        }
        var labels = [Int32](), probabilities = [Double](), outlierScores = [Double]()
        labels = .initialized(count: n) { lb in
        probabilities = .initialized(count: n) { pb in
        outlierScores = .initialized(count: n) { ob in
            Self.write(tree, rule, perLeaf, into: PointOutputs(labels: SharedBuffer(base: lb), probabilities: SharedBuffer(base: pb),
                                                      outlierScores: SharedBuffer(base: ob)), threads: threads)
        }}}
        self.labels = labels
        self.probabilities = probabilities
        self.outlierScores = outlierScores
    }

    /// Writes every point's values, from where it falls out of the tree: from its row, or
    /// (without point rows) from its leaf, read in order over points, and over locations
    /// from its location's values (`perLeaf`: all the points of a location fall out of the
    /// same cluster at the same lambda), read by row through `leafOfRow`.
    private static func write(
        _ tree: CondensedTree, _ rule: LabelRule, _ perLeaf: [Values], into out: PointOutputs, threads: Int
    ) {
        let n = tree.pointCount
        // The tree's arrays as locals: the loops' stores through raw pointers would otherwise
        // make the compiler reload them from the tree on every point.
        let leafCluster = tree.leafCluster, leafLambda = tree.leafLambda
        if !tree.leafOfRow.isEmpty {
            let leafOfRow = tree.leafOfRow
            Parallel.forEachChunk(count: n, grain: 1 << 15, threads: threads) { chunk, _ in
                for point in chunk { out.write(point, perLeaf[Int(leafOfRow[point])]) }
            }
        } else if !leafCluster.isEmpty {
            // A tree without point rows over the points themselves: read in order.
            Parallel.forEachChunk(count: n, grain: 1 << 15, threads: threads) { chunk, _ in
                for point in chunk { out.write(point, rule.values(Int(leafCluster[point]) - n, leafLambda[point])) }
            }
        } else {
            let rowOfPoint = tree.rowOfPoint, parent = tree.parent, lambda = tree.lambda
            Parallel.forEachChunk(count: n, grain: 1 << 15, threads: threads) { chunk, _ in
                for point in chunk {
                    let row = Int(rowOfPoint[point])
                    out.write(point, rule.values(Int(parent[row]) - n, lambda[row]))
                }
            }
        }
    }
}

/// How a point's values follow from the cluster it falls out of and the lambda at which it
/// does: per cluster, what its points need in one record (the per-point pass read it through
/// three dependent lookups, inherited label, selected cluster, its death, and waited on them),
/// and scikit-learn's rule for the root.
private struct LabelRule {
    let perCluster: [ClusterValues]
    /// scikit-learn: with the root as the only cluster, a point joins it when it leaves at
    /// or above 1/epsilon, or else at or above the largest lambda of the root's own rows.
    let rootThreshold: Double
    let rootAlone: Bool

    init(tree: CondensedTree, selected: [Int32], allowSingleCluster: Bool, epsilon: Double) {
        let n = tree.pointCount, c = tree.clusterCount
        // The label of the nearest selected ancestor-or-self of each cluster (-1 if none).
        var labelOfSelected = [Int32](repeating: -1, count: c)
        for (i, id) in selected.enumerated() { labelOfSelected[Int(id) - n] = Int32(i) }
        var inherited = [Int32](repeating: -1, count: c)
        for k in 0..<c {  // parents have smaller ids, so they are done first
            if labelOfSelected[k] >= 0 {
                inherited[k] = labelOfSelected[k]
            } else if k > 0 {
                inherited[k] = inherited[Int(tree.clusterParent[k]) - n]
            }
        }
        let rootSelected = labelOfSelected[0] >= 0
        rootThreshold = epsilon != 0 ? 1 / epsilon : tree.maxLambda[0]
        // Deaths for GLOSH: the largest lambda anywhere in each cluster's subtree.
        var subtreeDeath = tree.maxLambda
        for k in stride(from: c - 1, through: 1, by: -1) {
            let p = Int(tree.clusterParent[k]) - n
            if subtreeDeath[k] > subtreeDeath[p] { subtreeDeath[p] = subtreeDeath[k] }
        }
        perCluster = (0..<c).map { k in
            let label = inherited[k]
            // Reached the root: scikit-learn labels these only with allowSingleCluster and a
            // single selected cluster, and only above the threshold.
            let viaRoot = rootSelected && label == 0 && Int(selected[0]) == n
            return ClusterValues(label: label, viaRoot: viaRoot, subtreeDeath: subtreeDeath[k],
                                 labelDeath: label >= 0 ? tree.maxLambda[Int(selected[Int(label)]) - n] : 0)
        }
        rootAlone = selected.count == 1 && allowSingleCluster
    }

    /// A point's label, probability and outlier score from the cluster index it falls out
    /// of and the lambda at which it does.
    @inline(__always) func values(_ k: Int, _ lam: Double) -> Values {
        let cluster = perCluster[k]
        let death = cluster.subtreeDeath
        let outlier: Double
        if death == 0 || !lam.isFinite {
            outlier = 0
        } else if !death.isFinite {
            outlier = 1
        } else {
            outlier = (death - lam) / death
        }
        var label = cluster.label
        if cluster.viaRoot { label = (rootAlone && lam >= rootThreshold) ? 0 : -1 }
        var probability = 0.0
        if label >= 0 {
            let maxLam = cluster.labelDeath
            probability = (maxLam == 0 || lam.isInfinite) ? 1 : min(lam, maxLam) / maxLam
        }
        return Values(label: label, probability: probability, outlier: outlier)
    }
}

/// The three output arrays, written by point from all workers (each point once).
private struct PointOutputs: @unchecked Sendable {
    let labels: SharedBuffer<Int32>
    let probabilities: SharedBuffer<Double>
    let outlierScores: SharedBuffer<Double>

    @inline(__always) func write(_ point: Int, _ v: Values) {
        labels[point] = v.label
        probabilities[point] = v.probability
        outlierScores[point] = v.outlier
    }
}

/// One cluster's part of its points' outputs: the label it passes on (before the root rule),
/// whether that label is the root's, the largest lambda in its subtree (GLOSH) and that of the
/// selected cluster its label names (membership).
private struct ClusterValues {
    var label: Int32
    var viaRoot: Bool
    var subtreeDeath: Double
    var labelDeath: Double
}

/// One point's outputs.
private struct Values {
    var label: Int32
    var probability: Double
    var outlier: Double
}
