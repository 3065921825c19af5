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
public enum CoreDistances {
    /// Computes core distances, in metres, indexed by *tree position* (the order every later
    /// stage works in; map to input rows with `tree.index`).
    /// - Throws: `ClusterCoreError.invalidParameter` if `minSamples < 1`;
    ///   `.tooFewPoints` if there are fewer points than the neighbour count.
    /// - Complexity: O(n (log n + k)) expected; splits the queries over `threads` workers,
    ///   with identical results for any thread count.
    public static func compute(
        tree: KDTree, minSamples: Int, convention: MinSamplesConvention = .sklearn, threads: Int = 1
    ) throws(ClusterCoreError) -> [Double] {
        guard minSamples >= 1 else {
            throw .invalidParameter(name: "minSamples", value: "\(minSamples)", requirement: "must be at least 1")
        }
        let k = convention.neighbourCount(minSamples: minSamples)
        let n = tree.count
        guard k <= n else {
            throw .tooFewPoints(count: n, required: k,
                reason: "minSamples = \(minSamples) (\(convention.rawValue) convention) needs \(k) points including the point itself; lower minSamples")
        }
        var core = [Double](repeating: 0, count: n)
        if k == 1 { return core }  // the nearest point to each point is itself
        core.withUnsafeMutableBufferPointer { out in
            let shared = SharedBuffer(base: out.baseAddress!)
            tree.withNodeArrays { v in
                let workers = max(1, threads)
                // One scratch list and stack per worker, allocated once.
                let depth = KDTree.depth(ofNodeCount: v.nodeCount)
                let scratchDist = UnsafeMutablePointer<Double>.allocate(capacity: workers * k)
                let scratchPos = UnsafeMutablePointer<Int32>.allocate(capacity: workers * k)
                let stackSize = 2 * (depth + 2)
                let scratchStack = UnsafeMutablePointer<Int32>.allocate(capacity: workers * stackSize)
                defer { scratchDist.deallocate(); scratchPos.deallocate(); scratchStack.deallocate() }
                let sd = SharedBuffer(base: scratchDist), sp = SharedBuffer(base: scratchPos)
                let ss = SharedBuffer(base: scratchStack)
                Parallel.forEachChunk(count: n, grain: 4096, threads: workers) { chunk, w in
                    let dist = sd.base + w * k, pos = sp.base + w * k, stack = ss.base + w * stackSize
                    for p in chunk {
                        _ = v.knn(v.x[p], v.y[p], k, dist, pos, stack)
                        shared[p] = dist[k - 1].squareRoot()
                    }
                }
            }
        }
        return core
    }
}
