// The raw records and buffers of the condensing walk (CondensedTree+Walk.swift): merges packed
// for memory latency, the events and marks of the scanning walk, and the output buffers.

/// One single-linkage merge, packed for the condensing walk (32 bytes).
struct Merge {
    var distance: Double
    var left: Int32
    var right: Int32
    var size: Int32
    /// Points under the left and right child (1 for a point).
    var leftSize: Int32
    var rightSize: Int32
    /// Bit 0: the left child is a merge at this same distance; bit 1: the right child is.
    /// Over locations, bit 2: the left child is a location whose core distance is this
    /// distance (its points part here); bit 3: the right child is.
    var same: Int32
}

/// Points falling out of a cluster in the scanning walk: a leaf's, or those of every leaf under
/// an internal node (`node >= n`), at `lambda`, out of (provisional) `cluster`.
struct Drop {
    var lambda: Double
    var node: Int32
    var cluster: Int32
}

/// A merge's place in the scanning walk: the (provisional) cluster it carries, -1 for none,
/// and its depth in the walk.
struct Carried {
    var cluster: Int32
    var depth: Int32
}

/// `LocatedLeaves` through pointers, for the condensing walk (no reference counting there).
struct LeafView {
    let pointCount: Int
    let weight: UnsafePointer<Int32>
    let inner: UnsafePointer<Double>
    let rowStart: UnsafePointer<Int32>
    let rows: UnsafePointer<Int32>
    /// Each input row's sample weight (nil: 1 each), and the sum of the leaves' weights.
    let rowWeight: UnsafePointer<Int32>?
    let totalWeight: Int
}

/// Raw per-cluster output buffers of the condensing loop, sized by the bound in
/// `CondensedTree.init` (small: at most 2n/minClusterSize + 1 clusters).
struct ClusterBuffers {
    let clusterParent: UnsafeMutablePointer<Int32>
    let clusterBirth: UnsafeMutablePointer<Double>
    let clusterSize: UnsafeMutablePointer<Int32>
    let stability: UnsafeMutablePointer<Double>
    let maxLambda: UnsafeMutablePointer<Double>
    let capacity: Int

    init(clusters: Int) {
        capacity = clusters
        clusterParent = .allocate(capacity: clusters); clusterBirth = .allocate(capacity: clusters)
        clusterSize = .allocate(capacity: clusters); stability = .allocate(capacity: clusters)
        maxLambda = .allocate(capacity: clusters)
    }
}

/// Where the condensing loop writes: the row arrays' buffers and the cluster buffers.
struct RowBuffers {
    let parent: UnsafeMutablePointer<Int32>
    let child: UnsafeMutablePointer<Int32>
    let lambda: UnsafeMutablePointer<Double>
    let childSize: UnsafeMutablePointer<Int32>
    let rowOfPoint: UnsafeMutablePointer<Int32>
    /// Whether no point rows are written: where each leaf's points fall out is returned by leaf.
    let byLeaf: Bool
    let clusterParent: UnsafeMutablePointer<Int32>
    let clusterBirth: UnsafeMutablePointer<Double>
    let clusterSize: UnsafeMutablePointer<Int32>
    let stability: UnsafeMutablePointer<Double>
    let maxLambda: UnsafeMutablePointer<Double>
    let clusterCapacity: Int

    init(parent: UnsafeMutablePointer<Int32>, child: UnsafeMutablePointer<Int32>, lambda: UnsafeMutablePointer<Double>,
         childSize: UnsafeMutablePointer<Int32>, rowOfPoint: UnsafeMutablePointer<Int32>,
         byLeaf: Bool, clusters: ClusterBuffers) {
        self.parent = parent; self.child = child; self.lambda = lambda; self.childSize = childSize
        self.rowOfPoint = rowOfPoint; self.byLeaf = byLeaf
        clusterParent = clusters.clusterParent; clusterBirth = clusters.clusterBirth
        clusterSize = clusters.clusterSize; stability = clusters.stability; maxLambda = clusters.maxLambda
        clusterCapacity = clusters.capacity
    }
}
