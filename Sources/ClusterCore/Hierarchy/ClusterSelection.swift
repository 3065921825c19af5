/// How flat clusters are chosen from the condensed tree.
public enum SelectionMethod: String, Sendable, CaseIterable {
    /// Excess of mass: keep a cluster unless its children's total stability is strictly
    /// greater (a parent whose stability equals its children's total is kept, as in
    /// scikit-learn).
    case excessOfMass = "eom"
    /// The leaves of the cluster tree.
    case leaf
}

/// Options of the selection stage, with scikit-learn's meanings.
public struct SelectionOptions: Sendable, Equatable {
    /// Excess of mass (scikit-learn's default) or the leaves.
    public var method: SelectionMethod
    /// Clusters born at a distance below this (metres) are merged upward until their
    /// ancestor's birth distance exceeds it; 0 disables.
    public var epsilon: Double
    /// Whether the root (all points) may be the single selected cluster.
    public var allowSingleCluster: Bool
    /// Excess of mass never selects a cluster with more points than this; nil is unlimited.
    public var maxClusterSize: Int?

    /// Options with scikit-learn's defaults; each parameter sets the property of its name.
    public init(method: SelectionMethod = .excessOfMass, epsilon: Double = 0,
                allowSingleCluster: Bool = false, maxClusterSize: Int? = nil) {
        self.method = method
        self.epsilon = epsilon
        self.allowSingleCluster = allowSingleCluster
        self.maxClusterSize = maxClusterSize
    }
}

/// Selects flat clusters from a condensed tree, following scikit-learn 1.9's `_get_clusters`
/// (including its `epsilon_search`/`traverse_upwards` and its size rule for the root).
public enum ClusterSelection: Sendable {
    /// Returns the selected cluster ids, ascending (label `i` is the `i`-th of them).
    /// - Complexity: O(c log c) for c clusters.
    public static func select(_ tree: CondensedTree, options: SelectionOptions) -> [Int32] {
        let n = tree.pointCount
        let count = tree.clusterCount
        guard count > 0 else { return [] }
        let children = tree.clusterChildren()
        var selected = [Bool](repeating: false, count: count)
        var stability = tree.stability
        // Sizes as scikit-learn compares them: a cluster's row size; for the root (only
        // considered with allowSingleCluster) the total size of its child clusters.
        var sizes = tree.clusterSize.map(Int.init)
        sizes[0] = children[0].reduce(0) { $0 + Int(tree.clusterSize[Int($1) - n]) }
        let hasClusterTree = count > 1
        let lowest = options.allowSingleCluster ? 0 : 1

        func descendants(of k: Int) -> [Int] {
            var out: [Int] = [], stack = children[k].map { Int($0) - n }
            while let d = stack.popLast() { out.append(d); stack += children[d].map { Int($0) - n } }
            return out
        }

        switch options.method {
        case .excessOfMass:
            let maxSize = options.maxClusterSize ?? (n + 1)
            if count > lowest {
                for k in lowest..<count { selected[k] = true }
                for k in stride(from: count - 1, through: lowest, by: -1) {
                    // Sum the children in a fixed (sorted) order so the total is the same
                    // whatever order the input rows came in.
                    let subtree = children[k].map { stability[Int($0) - n] }.sorted().reduce(0, +)
                    if subtree > stability[k] || sizes[k] > maxSize {
                        selected[k] = false
                        stability[k] = subtree
                    } else {
                        for d in descendants(of: k) { selected[d] = false }
                    }
                }
            }
            if options.epsilon != 0 && hasClusterTree {
                let eom = (0..<count).filter { selected[$0] }
                var chosen: Set<Int> = []
                if eom == [0] {
                    if options.allowSingleCluster { chosen = [0] }
                } else {
                    chosen = epsilonSearch(tree, leaves: eom, children: children, options: options)
                }
                for k in 0..<count { selected[k] = chosen.contains(k) }
            }
        case .leaf:
            let leaves = hasClusterTree ? (1..<count).filter { children[$0].isEmpty } : []
            let chosen = options.epsilon != 0
                ? epsilonSearch(tree, leaves: leaves, children: children, options: options)
                : Set(leaves)
            for k in 0..<count { selected[k] = chosen.contains(k) }
        }
        return (0..<count).filter { selected[$0] }.map { Int32(n + $0) }
    }

    /// scikit-learn's epsilon search: a leaf born below `epsilon` is replaced by its nearest
    /// ancestor born above it (the root only with `allowSingleCluster`). Leaves are taken in
    /// ascending id order.
    private static func epsilonSearch(
        _ tree: CondensedTree, leaves: [Int], children: [[Int32]], options: SelectionOptions
    ) -> Set<Int> {
        let n = tree.pointCount
        var chosen: Set<Int> = []
        var processed: Set<Int> = []
        func birthDistance(_ k: Int) -> Double { 1 / tree.clusterBirth[k] }
        func traverseUpwards(_ k: Int) -> Int {
            let parent = Int(tree.clusterParent[k]) - n
            if parent == 0 { return options.allowSingleCluster ? 0 : k }
            return birthDistance(parent) > options.epsilon ? parent : traverseUpwards(parent)
        }
        for leaf in leaves.sorted() {
            if birthDistance(leaf) < options.epsilon {
                if !processed.contains(leaf) {
                    let up = traverseUpwards(leaf)
                    chosen.insert(up)
                    var stack = children[up].map { Int($0) - n }
                    while let d = stack.popLast() { processed.insert(d); stack += children[d].map { Int($0) - n } }
                }
            } else {
                chosen.insert(leaf)
            }
        }
        return chosen
    }
}
