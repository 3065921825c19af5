/// Which library's meaning of `minSamples` to use. This is the only place that shifts it.
public enum MinSamplesConvention: String, Sendable, CaseIterable {
    /// scikit-learn's: the point itself counts as a neighbour, so the core distance is the
    /// distance to the `minSamples`-th nearest point *including itself* (`minSamples = 1`
    /// gives core distance 0 everywhere). The default.
    case sklearn
    /// The hdbscan library's: the point itself is not counted, so the core distance is the
    /// distance to the `minSamples`-th nearest *other* point (one neighbour further than
    /// scikit-learn's for the same number).
    case hdbscan

    /// The number of nearest points, the point itself included, whose farthest defines the
    /// core distance.
    public func neighbourCount(minSamples: Int) -> Int {
        switch self {
        case .sklearn: return minSamples
        case .hdbscan: return minSamples + 1
        }
    }
}

/// Core distances: for each point, the distance to its k-th nearest point (itself included),
/// where k comes from `minSamples` and the convention.
public enum CoreDistances: Sendable {
    /// The most leaves a leaf's points are checked against directly (see
    /// `TreeView.leafNeighbours`); a leaf with more near it searches point by point.
    static let nearCapacity = 64

    /// Computes core distances, in metres, indexed by *tree position* (the order every later
    /// stage works in; map to input rows with `tree.index`).
    /// - Throws: `ClusterCoreError.invalidParameter` if `minSamples < 1`;
    ///   `.tooFewPoints` if there are fewer points than the neighbour count.
    /// - Complexity: O(n (log n + k)) expected; splits the queries over `threads` workers,
    ///   with identical results for any thread count.
    public static func compute(
        tree: KDTree, minSamples: Int, convention: MinSamplesConvention = .sklearn, threads: Int = 1
    ) throws(ClusterCoreError) -> [Double] {
        try computeWithNeighbours(tree: tree, minSamples: minSamples, convention: convention,
                                  threads: threads, keepNeighbours: false, extra: 0).core2.map { $0.squareRoot() }
    }

    /// Squared core distances (by tree position) and, when `keepNeighbours`, each position's `k + extra`
    /// nearest positions (row-major, nearest first, itself included), which let the MST's first
    /// Borůvka round skip most searches. Requires `k + extra <= n`. `nearCapacity` is for tests
    /// (how many leaves near a leaf are checked directly before falling back to searching).
    ///
    /// With `weights` (by tree position) the tree's points are *locations*, each standing for
    /// `weights[p]` co-located input points: the core distance is then the k-th smallest of the
    /// distances to every input point (a location's own points at distance 0), which is the
    /// distance to the first of the nearest locations at which the weights add up to k. The
    /// lists then hold `min(k, n) + extra` locations. (The k nearest locations always suffice:
    /// each weighs at least 1.)
    static func computeWithNeighbours(
        tree: KDTree, minSamples: Int, convention: MinSamplesConvention, threads: Int,
        keepNeighbours: Bool, extra: Int, weights: [Int32]? = nil, nearCapacity: Int = CoreDistances.nearCapacity
    ) throws(ClusterCoreError) -> (core2: [Double], neighbours: [Int32], k: Int) {
        guard minSamples >= 1 else {
            throw .invalidParameter(name: "minSamples", value: "\(minSamples)", requirement: "must be at least 1")
        }
        let k = convention.neighbourCount(minSamples: minSamples)
        let n = tree.count
        let pointCount = weights.map { $0.reduce(0) { $0 + Int($1) } } ?? n
        guard k <= pointCount else {
            throw .tooFewPoints(count: pointCount, required: k,
                reason: "minSamples = \(minSamples) (\(convention.rawValue) convention) needs \(k) points including the point itself; lower minSamples")
        }
        let listLength = (weights == nil ? k : min(k, n)) + extra
        precondition(listLength <= n, "cannot list more neighbours than points")
        if n == 0 { return ([], [], k) }
        var neighbours: [Int32] = []
        // Every position's core distance, and its list when asked, is written exactly once below.
        let core = [Double].initialized(count: n) { out in
            func compute(listsInto nb: UnsafeMutablePointer<Int32>?) {
                let shared = SharedBuffer(base: out)
                let sharedNeighbours = nb.map { SharedBuffer(base: $0) }
                tree.withNodeArrays { v in
                    let workers = Parallel.workers(threads)
                    let depth = KDTree.depth(ofNodeCount: v.nodeCount)
                    let leafCap = tree.leafSize
                    // Per-worker scratch, each on its own cache lines (a shared line between the
                    // two workers' lists halved the two-thread speed).
                    let listStride = (leafCap * listLength + 15) / 16 * 16 + 16
                    let smallStride = (2 * (depth + 2) + 15) / 16 * 16 + 16
                    let scratchDist = UnsafeMutablePointer<Double>.allocate(capacity: workers * listStride)
                    let scratchPos = UnsafeMutablePointer<Int32>.allocate(capacity: workers * listStride)
                    let scratchStack = UnsafeMutablePointer<Int32>.allocate(capacity: workers * smallStride)
                    let scratchBoxes = UnsafeMutablePointer<Double>.allocate(capacity: workers * smallStride)
                    let worstStride = (leafCap + 15) / 16 * 16 + 16, nearStride = nearCapacity + 16
                    let scratchWorst = UnsafeMutablePointer<Double>.allocate(capacity: workers * worstStride)
                    let scratchNear = UnsafeMutablePointer<Int32>.allocate(capacity: workers * nearStride)
                    defer {
                        scratchDist.deallocate(); scratchPos.deallocate(); scratchStack.deallocate()
                        scratchBoxes.deallocate(); scratchWorst.deallocate(); scratchNear.deallocate()
                    }
                    let swo = SharedBuffer(base: scratchWorst), sne = SharedBuffer(base: scratchNear)
                    let sd = SharedBuffer(base: scratchDist), sp = SharedBuffer(base: scratchPos)
                    let ss = SharedBuffer(base: scratchStack), sbx = SharedBuffer(base: scratchBoxes)
                    let firstLeaf = v.firstLeaf
                    Parallel.forEachChunk(count: v.nodeCount - firstLeaf, grain: 256, threads: workers) { chunk, w in
                        let dist = sd.base + w * listStride, pos = sp.base + w * listStride
                        let stack = ss.base + w * smallStride, boxes = sbx.base + w * smallStride
                        let worst = swo.base + w * worstStride, near = sne.base + w * nearStride
                        for leaf in (chunk.lowerBound + firstLeaf)..<(chunk.upperBound + firstLeaf) {
                            let s = Int(v.start[leaf]), e = Int(v.end[leaf])
                            if listLength == 1 {
                                for p in s..<e { shared[p] = 0; sharedNeighbours?[p] = Int32(p) }
                                continue
                            }
                            v.leafNeighbours(leaf: leaf, listLength, dist, pos, worstScratch: worst, near: near,
                                             nearCapacity: nearCapacity, stack: stack, boxes: boxes)
                            for j in 0..<(e - s) {
                                let p = s + j
                                if let weights {
                                    // The first listed location at which the weights reach k.
                                    var total = 0, i = 0
                                    while true {
                                        total += Int(weights[Int(pos[j * listLength + i])])
                                        if total >= k || i == listLength - 1 { break }
                                        i += 1
                                    }
                                    shared[p] = dist[j * listLength + i]
                                } else {
                                    shared[p] = dist[j * listLength + k - 1]
                                }
                                if let nbs = sharedNeighbours {
                                    for i in 0..<listLength { nbs[p * listLength + i] = pos[j * listLength + i] }
                                }
                            }
                        }
                    }
                }
            }
            if keepNeighbours {
                neighbours = [Int32].initialized(count: n * listLength) { compute(listsInto: $0) }
            } else {
                compute(listsInto: nil)
            }
        }
        return (core, neighbours, k)
    }
}

extension CoreDistances {
    /// The entry of a neighbour list (`list`, nearest first, `listed` entries) whose distance is
    /// the core distance: the k-th, or with `weights` (points at each position) the first where
    /// the weights add up to k (the last listed at most).
    @inline(__always)
    static func coreEntry(_ list: UnsafePointer<Int32>, listed: Int, k: Int, weights: [Int32]?) -> Int {
        guard let weights else { return listed - 1 }
        var total = 0, i = 0
        while true {
            total += Int(weights[Int(list[i])])
            if total >= k || i == listed - 1 { return i }
            i += 1
        }
    }
}
