// The cluster tree as prediction reads it: indices instead of ids, depths for common
// ancestors, the lambdas hdbscan's prediction data keeps, labels and exemplars.

/// A condensed tree's clusters by index (`id - pointCount`), with what prediction reads.
struct ClusterShape {
    let parent: [Int32]
    let birth: [Double]
    let depth: [Int32]
    /// The largest lambda among a cluster's own rows: its points leaving and its children born.
    let groupMax: [Double]
    /// The largest group maximum in a cluster's subtree.
    let subtreeMax: [Double]
    let hasChildren: [Bool]

    /// The shape of clusters with these parents (indices, -1 for the root; every parent's
    /// index below its child's) and birth lambdas, and rows falling out of them so.
    init(parent: [Int32], birth: [Double], fallCluster: [Int32], fallLambda: [Double]) {
        let c = parent.count
        var depth = [Int32](repeating: 0, count: c)
        var groupMax = [Double](repeating: 0, count: c), hasChildren = [Bool](repeating: false, count: c)
        for k in 1..<max(c, 1) {  // parents have smaller indices, so they are done first
            let p = Int(parent[k])
            depth[k] = depth[p] + 1
            hasChildren[p] = true
            groupMax[p] = max(groupMax[p], birth[k])
        }
        for (k, lambda) in zip(fallCluster, fallLambda) { groupMax[Int(k)] = max(groupMax[Int(k)], lambda) }
        var subtreeMax = groupMax
        for k in stride(from: c - 1, through: 1, by: -1) {
            subtreeMax[Int(parent[k])] = max(subtreeMax[Int(parent[k])], subtreeMax[k])
        }
        self.parent = parent
        self.birth = birth
        self.depth = depth
        self.groupMax = groupMax
        self.subtreeMax = subtreeMax
        self.hasChildren = hasChildren
    }

    /// The label of the selected cluster at or above each cluster, -1 where none is.
    func labels(selected: [Int32]) -> [Int32] {
        var label = [Int32](repeating: -1, count: parent.count)
        for (i, k) in selected.enumerated() { label[Int(k)] = Int32(i) }
        for k in 1..<max(parent.count, 1) where label[k] < 0 { label[k] = label[Int(parent[k])] }
        return label
    }

    /// By label, its exemplars: in each leaf cluster under it, the sites (or rows: the indices of
    /// `fallCluster`) that fall out at the leaf's largest lambda (hdbscan's `exemplars_`), in order.
    func exemplars(selected: [Int32], fallCluster: [Int32], fallLambda: [Double]) -> [[Int32]] {
        let label = labels(selected: selected)
        var rows = [[Int32]](repeating: [], count: selected.count)
        for r in 0..<fallCluster.count {
            let k = Int(fallCluster[r])
            if !hasChildren[k] && label[k] >= 0 && fallLambda[r] == groupMax[k] { rows[Int(label[k])].append(Int32(r)) }
        }
        return rows
    }
}

extension PredictionModel {
    /// hdbscan's merge height of a point falling out of cluster `a` at `lambda` with the
    /// selected cluster `s`: the birth lambda of the children of their lowest common ancestor,
    /// or `lambda` itself when one of the two lies under the other.
    func mergeHeight(_ a: Int, _ lambda: Double, _ s: Int) -> Double {
        var left = a, right = s, climbedLeft = false, climbedRight = false, last = a
        while left != right {
            if depth[left] >= depth[right] {
                last = left; left = Int(parent[left]); climbedLeft = true
            } else {
                last = right; right = Int(parent[right]); climbedRight = true
            }
        }
        return climbedLeft && climbedRight ? birth[last] : lambda
    }
}
