// DBSCAN by great-circle distance, as scikit-learn's `DBSCAN(metric="haversine",
// eps=eps/R)` computes it: two points are neighbours when scikit-learn's reduced haversine
// distance sin²(Δφ/2) + cos φ₁ cos φ₂ sin²(Δλ/2) is at most sin²(eps/2R) (its ball tree's leaf
// test). Candidates come by squared chord (4 sin²(θ/2), the same quantity) from a 3-D grid of
// cubes over the unit vectors (DBSCAN+SphereGrid.swift), or from the 3-D tree when eps is too
// small for the grid; the chord decides a pair outside a margin far above rounding, scikit-learn's
// formula inside it, on either path. Core points, clusters
// (components of core neighbours, numbered by their lowest row) and border points (the
// lowest-numbered cluster among their core neighbours') follow the planar DBSCAN's definitions.

extension DBSCAN {
    /// Runs DBSCAN on points on the sphere; `parameters.eps` is a great-circle distance in
    /// metres, at most half the circumference (`SpherePoints.halfCircumference`). With
    /// `sampleWeight` (scikit-learn's meaning, as the planar `fit`) a point is core when the
    /// weights of the points within eps, its own included, add up to `minSamples`; the run
    /// then takes the tree.
    /// - Throws: `.invalidParameter` for an out-of-range parameter, or weights that are not
    ///   finite or not one per row.
    /// - Complexity: O(n) memory. Time: grouping co-located points, a radix sort of the cube
    ///   keys, then per cube that is not already full the points of the cubes around it (as the
    ///   planar DBSCAN). On the tree: O(n log n) plus the neighbours of every point, twice.
    public static func fit(
        _ points: SpherePoints, parameters: DBSCANParameters, sampleWeight: [Double]? = nil, threads: Int = 1,
        observer: some StageObserver = NoStageObserver()
    ) throws(ClusterCoreError) -> DBSCANResult {
        try parameters.validate()
        if let sampleWeight { try SampleWeights.check(sampleWeight, rows: points.count) }
        guard parameters.eps <= SpherePoints.halfCircumference else {
            throw .invalidParameter(name: "eps", value: "\(parameters.eps)",
                                    requirement: "must be at most half the Earth's circumference (\(Int(SpherePoints.halfCircumference)) m)")
        }
        let n = points.count
        if n == 0 { return DBSCANResult(labels: [], isCore: [], clusterCount: 0) }
        // Co-located points share their neighbourhood: the work is done once per location,
        // each weighing its points (see Locations). On the 3-D grid (DBSCAN+SphereGrid.swift)
        // unless eps is too small for the data's extent; then on the tree (SphereLocations,
        // which groups the points again).
        let index = observer.run(DBSCANStage.grid) { () -> SphereDBSCANIndex in
            let test = SphereNeighbourTest(eps: parameters.eps)
            let (at, locations) = SphereLocations.group(points, threads: threads)
            if sampleWeight == nil, let grid = SphereGridWorkspace(at, locations: locations, test: test, minSamples: parameters.minSamples,
                                              threads: threads) {
                return .grid(grid)
            }
            let indexed = SphereLocations(points, threads: threads)
            return .tree(indexed, SphereAngles(indexed.points, order: indexed.tree.index))
        }
        switch index {
        case .grid(let grid): return fit(grid, rows: n, threads: threads, observer: observer)
        case .tree(let indexed, let angles):
            return fit(indexed, angles: angles, parameters: parameters, sampleWeight: sampleWeight, threads: threads,
                       observer: observer)
        }
    }

    /// The stages after the grid's, on the tree.
    private static func fit(
        _ indexed: SphereLocations, angles: SphereAngles, parameters: DBSCANParameters, sampleWeight: [Double]?,
        threads: Int, observer: some StageObserver
    ) -> DBSCANResult {
        let s = ElementaryMath.sin(Swift.min(Double.pi, parameters.eps / SpherePoints.earthRadius) / 2)
        let near = SphereNeighbourhood(tree: indexed.tree, angles: angles, halfChord2: s * s, weights: indexed.weightAt,
                                       sampleWeights: sampleWeight.map { indexed.positionWeights($0) },
                                       firstRow: indexed.firstRows(threads: threads))
        let core = observer.run(DBSCANStage.corePoints) { near.corePoints(minSamples: parameters.minSamples, threads: threads) }
        let (component, clusterOf) = observer.run(DBSCANStage.clusters) { near.clusters(core: core) }
        return observer.run(DBSCANStage.borderPoints) {
            near.labels(core: core, component: component, clusterOf: clusterOf, indexed: indexed, threads: threads)
        }
    }
}

/// The index a DBSCAN run on the sphere works on.
private enum SphereDBSCANIndex {
    case grid(SphereGridWorkspace)
    case tree(SphereLocations, SphereAngles)
}

extension SphereLocations {
    /// The lowest input row at each tree position (its location's first row).
    func firstRows(threads: Int) -> [Int32] {
        guard let locations else { return tree.index }
        return [Int32].filled(count: tree.count, threads: threads) { locations.rows[Int(locations.start[Int(tree.index[$0])])] }
    }

    /// By tree position, the sum of its rows' `weights` (in row order).
    func positionWeights(_ weights: [Double]) -> [Double] {
        var sum = [Double](repeating: 0, count: tree.count)
        forEachRow { row, p in sum[p] += weights[row] }
        return sum
    }

    /// Calls `body(row, position)` for every input row with the tree position holding it.
    func forEachRow(_ body: (Int, Int) -> Void) {
        guard let locations else {
            for p in 0..<tree.count { body(Int(tree.index[p]), p) }
            return
        }
        for p in 0..<tree.count {
            let l = Int(tree.index[p])
            for j in Int(locations.start[l])..<Int(locations.start[l + 1]) { body(Int(locations.rows[j]), p) }
        }
    }
}

/// The neighbour relation of a DBSCAN run on the sphere, by tree position.
private struct SphereNeighbourhood {
    let tree: SphereTree
    let angles: SphereAngles
    /// sin²(eps/2R): the largest reduced haversine distance of two neighbours.
    let halfChord2: Double
    /// Points at each position (nil: one each), and each position's lowest input row.
    let weights: [Int32]?
    /// With sample weights: the weight of each position (its rows' sum); counted instead of
    /// points then.
    let sampleWeights: [Double]?
    let firstRow: [Int32]

    /// Calls `body(q)` for every neighbour q of p (p itself included) until it returns false.
    /// The squared chord is 4·sin²(θ/2), the haversine test's quantity times 4: far from the
    /// threshold (a relative 1e-9, a million times the rounding of either) the chord decides;
    /// near it, scikit-learn's formula does.
    @inline(__always) func forEachNeighbour(_ v: SphereView, of p: Int, _ body: (Int) -> Bool) {
        let outer = 4 * halfChord2 * (1 + 1e-9) + 1e-24, inner = 4 * halfChord2 * (1 - 1e-9)
        let a = angles[p]
        v.forEach(within: outer, of: p) { q, d2 in
            if d2 <= inner || q == p || SpherePoints.halfChord2(a, angles[q]) <= halfChord2 { return body(q) }
            return true
        }
    }

    /// Whether each position has at least `minSamples` neighbours (itself included), or
    /// neighbours weighing that much.
    func corePoints(minSamples: Int, threads: Int) -> [Bool] {
        if let sampleWeights { return weightedCorePoints(sampleWeights, minSamples: minSamples, threads: threads) }
        return tree.withView { v in
            [Bool].filled(count: tree.count, threads: threads) { p in
                var count = 0
                forEachNeighbour(v, of: p) { q in count += weights.map { Int($0[q]) } ?? 1; return count < minSamples }
                return count >= minSamples
            }
        }
    }

    /// `corePoints` by weight: every neighbour's is added (with a negative weight, a total
    /// that reached `minSamples` may fall back, so no early answer then).
    private func weightedCorePoints(_ weight: [Double], minSamples: Int, threads: Int) -> [Bool] {
        let needed = Double(minSamples), monotone = weight.allSatisfy { $0 >= 0 }
        return tree.withView { v in
            [Bool].filled(count: tree.count, threads: threads) { p in
                var total = 0.0
                forEachNeighbour(v, of: p) { q in total += weight[q]; return !(monotone && total >= needed) }
                return total >= needed
            }
        }
    }

    /// The component of every core position (a union-find root) and each root's cluster
    /// number, clusters numbered by their lowest input row.
    func clusters(core: [Bool]) -> (component: [Int32], clusterOf: [Int32: Int32]) {
        var uf = UnionFind(count: tree.count)
        tree.withView { v in
            for p in 0..<tree.count where core[p] {
                forEachNeighbour(v, of: p) { q in
                    if q > p && core[q] && uf.find(p) != uf.find(q) { _ = uf.union(p, q) }
                    return true
                }
            }
        }
        var component = [Int32](repeating: -1, count: tree.count)
        var lowestRow: [Int32: Int32] = [:]
        for p in 0..<tree.count where core[p] {
            let root = Int32(uf.find(p))
            component[p] = root
            lowestRow[root] = Swift.min(lowestRow[root] ?? .max, firstRow[p])
        }
        var clusterOf: [Int32: Int32] = [:]
        for (k, entry) in lowestRow.sorted(by: { $0.value < $1.value }).enumerated() { clusterOf[entry.key] = Int32(k) }
        return (component, clusterOf)
    }

    /// Labels and core flags by input row; a border point takes the lowest cluster number
    /// among its core neighbours.
    func labels(core: [Bool], component: [Int32], clusterOf: [Int32: Int32], indexed: SphereLocations,
                threads: Int) -> DBSCANResult {
        let label = tree.withView { v in
            [Int32].filled(count: tree.count, threads: threads) { p -> Int32 in
                if core[p] { return clusterOf[component[p]]! }
                var best = Int32.max
                forEachNeighbour(v, of: p) { q in
                    if core[q] { best = Swift.min(best, clusterOf[component[q]]!) }
                    return true
                }
                return best == .max ? -1 : best
            }
        }
        let n = indexed.pointCount
        var labels = [Int32](repeating: -1, count: n), isCore = [Bool](repeating: false, count: n)
        indexed.forEachRow { row, p in
            labels[row] = label[p]
            isCore[row] = core[p]
        }
        return DBSCANResult(labels: labels, isCore: isCore, clusterCount: clusterOf.count)
    }
}
